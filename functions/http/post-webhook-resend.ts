// POST /v1/webhooks/{webhook_id}/deliveries/{delivery_id}/resend: that delivery's event again, same delivery id; 202.
import { POST_WEBHOOK_RESEND } from '../../lib/routes';
import { resendDelivery } from '../core/webhooks/recovery';
import { webhookSendsPerMinute } from '../adapters/env';
import { route } from '../http-chain/route';

export const handler = route(POST_WEBHOOK_RESEND, async ({ deps, projectId, params }) => ({
  status: 202,
  body: await resendDelivery({ ...deps, sendsPerMinute: webhookSendsPerMinute() }, projectId, params.webhook_id, params.delivery_id),
}));

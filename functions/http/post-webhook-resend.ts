// POST /v1/webhooks/{webhook_id}/deliveries/{delivery_id}/resend: that delivery's event again, same delivery id; 202.
import { resendDelivery } from '../core/webhooks/recovery';
import { webhookSendsPerMinute } from '../adapters/env';
import { route } from '../shared/http';
import '../shared/with-bus';

export const handler = route({ name: 'POST /v1/webhooks/{webhook_id}/deliveries/{delivery_id}/resend' }, async ({ deps, projectId, params }) => ({
  status: 202,
  body: await resendDelivery({ ...deps, sendsPerMinute: webhookSendsPerMinute() }, projectId, params.webhook_id, params.delivery_id),
}));

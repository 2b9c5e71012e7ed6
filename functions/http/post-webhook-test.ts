// POST /v1/webhooks/{webhook_id}/test: a webhook.test event to this webhook only, to check its receiver; 202.
import { POST_WEBHOOK_TEST } from '../../lib/routes';
import { sendTestEvent } from '../core/webhooks/recovery';
import { webhookSendsPerMinute } from '../adapters/env';
import { route } from '../http-chain/route';

export const handler = route(POST_WEBHOOK_TEST, async ({ deps, projectId, params }) => ({
  status: 202,
  body: await sendTestEvent({ ...deps, sendsPerMinute: webhookSendsPerMinute() }, projectId, params.webhook_id),
}));

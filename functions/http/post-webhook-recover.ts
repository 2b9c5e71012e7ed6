// POST /v1/webhooks/{webhook_id}/recover: every delivery that failed since `since` sent once more, oldest first; 202 {queued}.
import { webhookRecoverSchema } from '../core/webhooks/schema';
import { recoverDeliveries } from '../core/webhooks/recovery';
import { webhookSendsPerMinute } from '../adapters/env';
import { route } from '../shared/http';
import '../shared/with-bus';

export const handler = route(
  { name: 'POST /v1/webhooks/{webhook_id}/recover', body: webhookRecoverSchema },
  async ({ body, deps, projectId, params }) => ({
    status: 202,
    body: await recoverDeliveries({ ...deps, sendsPerMinute: webhookSendsPerMinute() }, projectId, params.webhook_id, body.since),
  }),
);

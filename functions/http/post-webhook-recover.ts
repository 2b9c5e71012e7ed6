// POST /v1/webhooks/{webhook_id}/recover: every delivery that failed since `since` sent once more, oldest first; 202 {queued}.
import { POST_WEBHOOK_RECOVER } from '../../lib/routes';
import { webhookRecoverSchema } from '../core/webhooks/recover-schema';
import { recoverDeliveries } from '../core/webhooks/recovery';
import { webhookSendsPerMinute } from '../adapters/env';
import { route } from '../http-chain/route';

export const handler = route(POST_WEBHOOK_RECOVER, { body: webhookRecoverSchema }, async ({ body, deps, projectId, params }) => ({
  status: 202,
  body: await recoverDeliveries({ ...deps, sendsPerMinute: webhookSendsPerMinute() }, projectId, params.webhook_id, body.since),
}));

// GET /v1/webhooks/{webhook_id}: one webhook without its secret, with last_error, last_error_at, last_delivery_at, last_status.
import { GET_WEBHOOK } from '../../lib/routes';
import { getWebhook } from '../core/webhooks/service';
import { route } from '../http-chain/route';

export const handler = route(GET_WEBHOOK, async ({ deps, projectId, params }) => ({
  status: 200,
  body: await getWebhook(deps, projectId, params.webhook_id),
}));

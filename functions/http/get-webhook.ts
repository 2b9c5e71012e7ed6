// GET /v1/webhooks/{webhook_id}: one webhook without its secret, with last_error, last_error_at, last_delivery_at, last_status.
import { getWebhook } from '../core/webhooks/service';
import { route } from '../shared/http';

export const handler = route({ name: 'GET /v1/webhooks/{webhook_id}' }, async ({ deps, projectId, params }) => ({
  status: 200,
  body: await getWebhook(deps, projectId, params.webhook_id),
}));

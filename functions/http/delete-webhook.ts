// DELETE /v1/webhooks/{webhook_id}: removes the webhook; deliveries, retries in flight included, stop at once.
import { DELETE_WEBHOOK } from '../../lib/routes';
import { deleteWebhook } from '../core/webhooks/service';
import { route } from '../http-chain/route';

export const handler = route(DELETE_WEBHOOK, async ({ deps, projectId, params }) => {
  await deleteWebhook(deps, projectId, params.webhook_id);
  return { status: 204 };
});

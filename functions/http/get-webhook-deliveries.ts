// GET /v1/webhooks/{webhook_id}/deliveries: the delivery log of the last 7 days, newest first.
import { GET_WEBHOOK_DELIVERIES } from '../../lib/routes';
import { listWebhookDeliveries } from '../core/webhooks/service';
import { encodeCursor } from '../http-chain/cursor';
import { pageRequest, route } from '../http-chain/route';

export const handler = route(GET_WEBHOOK_DELIVERIES, async ({ deps, projectId, params, query }) => {
  const scope = `webhook-deliveries:${projectId}:${params.webhook_id}`;
  const res = await listWebhookDeliveries(deps, projectId, params.webhook_id, await pageRequest(deps, query, scope));
  return { status: 200, body: { items: res.items, next_cursor: await encodeCursor(deps, scope, res.last) } };
});

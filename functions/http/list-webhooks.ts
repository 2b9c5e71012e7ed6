// GET /v1/webhooks: the project's webhooks, newest first, without secrets, with their last delivery status.
import { LIST_WEBHOOKS } from '../../lib/routes';
import { listWebhooks } from '../core/webhooks/service';
import { encodeCursor } from '../http-chain/cursor';
import { pageRequest, route } from '../http-chain/route';

export const handler = route(LIST_WEBHOOKS, async ({ deps, projectId, query }) => {
  const scope = `webhooks:${projectId}`;
  const res = await listWebhooks(deps, projectId, await pageRequest(deps, query, scope));
  return { status: 200, body: { items: res.items, next_cursor: await encodeCursor(deps, scope, res.last) } };
});

// GET /v1/traces: the project's traces, newest first, without steps.
import { LIST_TRACES } from '../../lib/routes';
import { listTraces } from '../core/traces/service';
import { encodeCursor } from '../http-chain/cursor';
import { pageRequest, route } from '../http-chain/route';

export const handler = route(LIST_TRACES, async ({ deps, projectId, query }) => {
  const scope = `traces:${projectId}`;
  const res = await listTraces(deps, projectId, await pageRequest(deps, query, scope));
  return { status: 200, body: { items: res.items, next_cursor: await encodeCursor(deps, scope, res.last) } };
});

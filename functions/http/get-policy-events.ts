// GET /v1/runs/{run_id}/policy-events: policy decisions, ordered by attempt then sequence, paginated.
import { GET_POLICY_EVENTS } from '../../lib/routes';
import { getPolicyEvents } from '../core/runs/views';
import { encodeCursor } from '../http-chain/cursor';
import { pageRequest, route } from '../http-chain/route';

export const handler = route(GET_POLICY_EVENTS, async ({ deps, projectId, params, query }) => {
  const scope = `policy-events:${projectId}:${params.run_id}`;
  const res = await getPolicyEvents(deps, projectId, params.run_id, await pageRequest(deps, query, scope));
  return { status: 200, body: { run_id: params.run_id, items: res.items, next_cursor: await encodeCursor(deps, scope, res.last) } };
});

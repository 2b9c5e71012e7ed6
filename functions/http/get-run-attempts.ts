// GET /v1/runs/{run_id}/attempts: a page of attempts with transcripts and events, large values cut to size.
import { GET_RUN_ATTEMPTS } from '../../lib/routes';
import { getRunAttemptsPage } from '../core/runs/attempt-view';
import { encodeCursor } from '../http-chain/cursor';
import { pageRequest, route } from '../http-chain/route';

export const handler = route(GET_RUN_ATTEMPTS, async ({ deps, projectId, params, query }) => {
  const scope = `attempts:${projectId}:${params.run_id}`;
  const res = await getRunAttemptsPage(deps, projectId, params.run_id, await pageRequest(deps, query, scope));
  return { status: 200, body: { run_id: params.run_id, items: res.items, next_cursor: await encodeCursor(deps, scope, res.last) } };
});

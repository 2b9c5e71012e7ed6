// GET /v1/runs: the project's runs, newest first; filters campaign_id, trace_id, status.
import { LIST_RUNS } from '../../lib/routes';
import { listRuns } from '../core/runs/service';
import { runFilterSchema } from '../core/runs/schema';
import { encodeCursor } from '../http-chain/cursor';
import { pageRequest, route, validate } from '../http-chain/route';

export const handler = route(LIST_RUNS, async ({ deps, projectId, query }) => {
  const filter = validate(runFilterSchema, { campaign_id: query.campaign_id, trace_id: query.trace_id, status: query.status }, 'Invalid filter.');
  const scope = `runs:${projectId}:${filter.campaign_id ?? ''}:${filter.trace_id ?? ''}:${filter.status ?? ''}`;
  const res = await listRuns(deps, projectId, filter, await pageRequest(deps, query, scope));
  return { status: 200, body: { items: res.items, next_cursor: await encodeCursor(deps, scope, res.last) } };
});

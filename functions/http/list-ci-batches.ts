// GET /v1/ci/batches: the project's CI batches, newest first; filters campaign_id, branch.
import { LIST_CI_BATCHES } from '../../lib/routes';
import { batchFilterSchema } from '../core/ci/filter-schema';
import { listBatches } from '../core/ci/views';
import { encodeCursor } from '../http-chain/cursor';
import { pageRequest, route, validate } from '../http-chain/route';

export const handler = route(LIST_CI_BATCHES, async ({ deps, projectId, query }) => {
  const filter = validate(batchFilterSchema, { campaign_id: query.campaign_id, branch: query.branch }, 'Invalid filter.');
  const scope = `ci-batches:${projectId}:${filter.campaign_id ?? ''}:${filter.branch ?? ''}`;
  const res = await listBatches(deps, projectId, filter, await pageRequest(deps, query, scope));
  return { status: 200, body: { items: res.items, next_cursor: await encodeCursor(deps, scope, res.last) } };
});

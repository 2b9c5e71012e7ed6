// GET /v1/ci/batch/{batch_id}/scenarios: the batch's scenarios (one per trace) cell by cell; filter status.
import { GET_CI_BATCH_SCENARIOS } from '../../lib/routes';
import { batchScenarioFilterSchema } from '../core/ci/filter-schema';
import { listBatchScenarios } from '../core/ci/views';
import { encodeCursor } from '../http-chain/cursor';
import { pageRequest, route, validate } from '../http-chain/route';

export const handler = route(GET_CI_BATCH_SCENARIOS, async ({ deps, projectId, params, query }) => {
  const filter = validate(batchScenarioFilterSchema, { status: query.status }, 'Invalid filter.');
  const scope = `ci-scenarios:${projectId}:${params.batch_id}:${filter.status ?? ''}`;
  const res = await listBatchScenarios(deps, projectId, params.batch_id, filter, await pageRequest(deps, query, scope));
  return { status: 200, body: { ci_batch_id: params.batch_id, items: res.items, next_cursor: await encodeCursor(deps, scope, res.last) } };
});

// GET /v1/ci/batch/{batch_id}: the aggregated verdict of a CI batch.
import { GET_CI_BATCH } from '../../lib/routes';
import { getCiBatch } from '../core/ci/views';
import { route } from '../http-chain/route';

export const handler = route(GET_CI_BATCH, async ({ deps, projectId, params }) => ({
  status: 200,
  body: await getCiBatch(deps, projectId, params.batch_id),
}));

// GET /v1/ci/batch/{batch_id}: the aggregated verdict of a CI batch.
import { getCiBatch } from '../core/ci/views';
import { route } from '../shared/http';

export const handler = route({ name: 'GET /v1/ci/batch/{batch_id}', uuidParams: ['batch_id'] }, async ({ deps, projectId, params }) => ({
  status: 200,
  body: await getCiBatch(deps, projectId, params.batch_id),
}));

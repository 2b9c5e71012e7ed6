// GET /v1/ci/runs/{run_id}: a CI run's gate decision, reasons and dashboard URL.
import { getCiRun } from '../core/ci/views';
import { route } from '../shared/http';

export const handler = route({ name: 'GET /v1/ci/runs/{run_id}', uuidParams: ['run_id'] }, async ({ deps, projectId, params }) => ({
  status: 200,
  body: await getCiRun(deps, projectId, params.run_id),
}));

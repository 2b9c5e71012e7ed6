// GET /v1/runs/{run_id}: status, summary and scoring context.
import { getRunDetail } from '../core/runs/views';
import { route } from '../shared/http';

export const handler = route({ name: 'GET /v1/runs/{run_id}', uuidParams: ['run_id'] }, async ({ deps, projectId, params }) => ({
  status: 200,
  body: await getRunDetail(deps, projectId, params.run_id),
}));

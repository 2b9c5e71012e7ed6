// GET /v1/runs/{run_id}: status, summary and scoring context.
import { GET_RUN } from '../../lib/routes';
import { getRunDetail } from '../core/runs/views';
import { route } from '../http-chain/route';

export const handler = route(GET_RUN, async ({ deps, projectId, params }) => ({
  status: 200,
  body: await getRunDetail(deps, projectId, params.run_id),
}));

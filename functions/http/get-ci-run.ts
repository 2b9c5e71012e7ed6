// GET /v1/ci/runs/{run_id}: a CI run's gate decision, reasons and dashboard URL.
import { GET_CI_RUN } from '../../lib/routes';
import { getCiRun } from '../core/ci/views';
import { route } from '../http-chain/route';

export const handler = route(GET_CI_RUN, async ({ deps, projectId, params }) => ({
  status: 200,
  body: await getCiRun(deps, projectId, params.run_id),
}));

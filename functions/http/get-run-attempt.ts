// GET /v1/runs/{run_id}/attempts/{attempt}: one attempt whole (transcript with every served result, events, output).
import { GET_RUN_ATTEMPT } from '../../lib/routes';
import { getRunAttempt } from '../core/runs/attempt-view';
import { route } from '../http-chain/route';

export const handler = route(GET_RUN_ATTEMPT, async ({ deps, projectId, params }) => ({
  status: 200,
  body: await getRunAttempt(deps, projectId, params.run_id, params.attempt),
}));

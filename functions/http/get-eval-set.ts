// GET /v1/campaigns/{campaign_id}/eval-set: the registered pool and min_scenarios.
import { GET_EVAL_SET } from '../../lib/routes';
import { getEvalSet } from '../core/campaigns/service';
import { route } from '../http-chain/route';

export const handler = route(GET_EVAL_SET, async ({ deps, projectId, params }) => ({
  status: 200,
  body: await getEvalSet(deps, projectId, params.campaign_id),
}));

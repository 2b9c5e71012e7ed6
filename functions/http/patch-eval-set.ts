// PATCH /v1/campaigns/{campaign_id}/eval-set: incremental pool update and the min_scenarios gate.
import { PATCH_EVAL_SET } from '../../lib/routes';
import { evalSetPatchSchema } from '../core/campaigns/eval-set-schema';
import { patchEvalSet } from '../core/campaigns/service';
import { route } from '../http-chain/route';

export const handler = route(PATCH_EVAL_SET, { body: evalSetPatchSchema }, async ({ body, deps, projectId, params }) => ({
  status: 200,
  body: await patchEvalSet(deps, projectId, params.campaign_id, body),
}));

// PATCH /v1/campaigns/{campaign_id}/eval-set: incremental pool update and the min_scenarios gate.
import { evalSetPatchSchema } from '../core/campaigns/schema';
import { patchEvalSet } from '../core/campaigns/service';
import { route } from '../shared/http';

export const handler = route(
  { name: 'PATCH /v1/campaigns/{campaign_id}/eval-set', body: evalSetPatchSchema, uuidParams: ['campaign_id'] },
  async ({ body, deps, projectId, params }) => ({ status: 200, body: await patchEvalSet(deps, projectId, params.campaign_id, body) }),
);

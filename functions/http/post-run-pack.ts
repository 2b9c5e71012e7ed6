// POST /v1/campaigns/{campaign_id}/run-pack: queues one run per trace (default: the eval-set pool).
import { POST_RUN_PACK } from '../../lib/routes';
import { createRunPack } from '../core/runs/pack';
import { runPackRequestSchema } from '../core/runs/schema';
import { route } from '../http-chain/route';

export const handler = route(POST_RUN_PACK, { body: runPackRequestSchema }, async ({ body, deps, projectId, params }) => ({
  status: 202,
  body: await createRunPack(deps, projectId, params.campaign_id, body),
}));

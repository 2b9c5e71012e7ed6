// POST /v1/campaigns/{campaign_id}/run-pack: queues one run per trace (default: the eval-set pool).
import '../shared/with-queue';
import '../shared/with-bus';
import { createRunPack } from '../core/runs/pack';
import { runPackRequestSchema } from '../core/runs/schema';
import { route } from '../shared/http';

export const handler = route(
  { name: 'POST /v1/campaigns/{campaign_id}/run-pack', body: runPackRequestSchema, uuidParams: ['campaign_id'], optionalBody: true },
  async ({ body, deps, projectId, params }) => ({
    status: 202,
    body: await createRunPack(deps, projectId, params.campaign_id, body),
  }),
);

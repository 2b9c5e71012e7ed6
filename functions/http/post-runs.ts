// POST /v1/runs: queues a replay of one trace against one campaign.
import { POST_RUNS } from '../../lib/routes';
import { createReplayRun } from '../core/runs/service';
import { runRequestSchema } from '../core/runs/schema';
import { route } from '../http-chain/route';

export const handler = route(POST_RUNS, { body: runRequestSchema }, async ({ body, deps, projectId }) => ({
  status: 202,
  body: await createReplayRun(deps, projectId, body),
}));

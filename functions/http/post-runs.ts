// POST /v1/runs: queues a replay of one trace against one campaign.
import '../shared/with-queue';
import '../shared/with-bus';
import { createReplayRun } from '../core/runs/service';
import { z } from '../core/zod';
import { route } from '../shared/http';

const uuid = z.uuid({ version: 'v4' }).transform((s) => s.toLowerCase());
export const runRequestSchema = z.object({ trace_id: uuid, campaign_id: uuid }).openapi('RunRequest');

export const handler = route({ name: 'POST /v1/runs', body: runRequestSchema }, async ({ body, deps, projectId }) => ({
  status: 202,
  body: await createReplayRun(deps, projectId, body),
}));

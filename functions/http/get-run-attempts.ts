// GET /v1/runs/{run_id}/attempts: attempts with transcripts (messages exchanged, tool calls and served results).
import { getRunAttempts } from '../core/runs/views';
import { route } from '../shared/http';

export const handler = route({ name: 'GET /v1/runs/{run_id}/attempts', uuidParams: ['run_id'] }, async ({ deps, projectId, params }) => ({
  status: 200,
  body: await getRunAttempts(deps, projectId, params.run_id),
}));

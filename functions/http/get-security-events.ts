// GET /v1/runs/{run_id}/security-events: security actions with risk context, grouped by attempt.
import { GET_SECURITY_EVENTS } from '../../lib/routes';
import { getSecurityEvents } from '../core/runs/views';
import { route } from '../http-chain/route';

export const handler = route(GET_SECURITY_EVENTS, async ({ deps, projectId, params }) => ({
  status: 200,
  body: await getSecurityEvents(deps, projectId, params.run_id),
}));

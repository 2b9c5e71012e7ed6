// GET /v1/traces/{trace_id}: the stored trace with its metadata.
import { GET_TRACE } from '../../lib/routes';
import { getTrace } from '../core/traces/service';
import { route } from '../http-chain/route';

export const handler = route(GET_TRACE, async ({ deps, projectId, params }) => ({
  status: 200,
  body: await getTrace(deps, projectId, params.trace_id),
}));

// GET /v1/traces/{trace_id}: the stored trace with its metadata.
import { getTrace } from '../core/traces/service';
import { route } from '../shared/http';

export const handler = route({ name: 'GET /v1/traces/{trace_id}', uuidParams: ['trace_id'] }, async ({ deps, projectId, params }) => ({
  status: 200,
  body: await getTrace(deps, projectId, params.trace_id),
}));

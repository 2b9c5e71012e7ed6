// POST /v1/traces: uploads a trace in the native format, or an OTLP/JSON export holding one or more traces.
import '../shared/with-bus';
import { TRACE_BODY_LIMIT } from '../../lib/routes';
import { convertOtlp, isOtlpExport } from '../core/traces/otlp';
import { traceInputSchema } from '../core/traces/schema';
import { uploadTrace } from '../core/traces/service';
import { z } from '../core/zod';
import { route, validate } from '../shared/http';

export const traceRequestSchema = z.record(z.string(), z.unknown());

export const handler = route(
  { name: 'POST /v1/traces', body: traceRequestSchema, maxBodyBytes: TRACE_BODY_LIMIT, maxDepth: 128 },
  async ({ body, deps, projectId }) => {
    if (isOtlpExport(body)) {
      const inputs = convertOtlp(body).map((t, i) => validate(traceInputSchema, t, `Trace ${i + 1} of the OTLP export is invalid.`));
      const traces = [];
      let anyCreated = false;
      for (const input of inputs) {
        const res = await uploadTrace(deps, projectId, input);
        anyCreated ||= res.status === 201;
        traces.push(res.body);
      }
      return { status: anyCreated ? 201 : 200, body: { traces } };
    }
    const res = await uploadTrace(deps, projectId, validate(traceInputSchema, body));
    return { status: res.status, body: res.body };
  },
);

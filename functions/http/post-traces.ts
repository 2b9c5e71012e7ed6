// POST /v1/traces: uploads a trace in the native format, or receives an OTLP/HTTP export (JSON or protobuf, gzip or not).
import '../shared/with-bus';
import { TRACE_BODY_LIMIT } from '../../lib/routes';
import { bodyEncoding, readTraceBody } from '../core/traces/otlp/body';
import { ingestOtlp } from '../core/traces/otlp/ingest';
import { isOtlpExport } from '../core/traces/otlp/read-json';
import { exportResponse } from '../core/traces/otlp/response';
import { traceInputSchema } from '../core/traces/schema';
import { uploadTrace } from '../core/traces/service';
import * as z from '../core/zod-mini';
import { route, validate } from '../shared/http';

export const traceRequestSchema = z.record(z.string(), z.unknown());

export const handler = route(
  {
    name: 'POST /v1/traces',
    body: traceRequestSchema,
    maxBodyBytes: TRACE_BODY_LIMIT,
    maxDepth: 128,
    readBody: (raw, headers) => readTraceBody(raw, headers, TRACE_BODY_LIMIT),
  },
  async ({ body, deps, projectId, headers }) => {
    if (isOtlpExport(body)) return exportResponse(await ingestOtlp(deps, projectId, body), bodyEncoding(headers['content-type']) ?? 'json');
    const res = await uploadTrace(deps, projectId, validate(traceInputSchema, body));
    return { status: res.status, body: res.body };
  },
);

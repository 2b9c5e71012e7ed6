// POST /v1/traces: uploads a trace in the native format, or receives an OTLP/HTTP export (JSON or protobuf, gzip or not).
import { POST_TRACES } from '../../lib/routes';
import { readTraceBody } from '../core/traces/otlp/body';
import { receiveTraces, traceRequestSchema } from '../core/traces/receive';
import { route } from '../http-chain/route';

export const handler = route(POST_TRACES, { body: traceRequestSchema, readBody: readTraceBody }, async ({ body, deps, projectId, headers }) =>
  receiveTraces(deps, projectId, body, headers['content-type']),
);

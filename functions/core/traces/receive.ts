// POST /v1/traces in one call: the body, once read (functions/core/traces/otlp/body.ts), is an OTLP export, ingested and
// answered in the request's encoding, or a native trace, validated and uploaded.
import type { Deps } from '../ports';
import { validate } from '../validate';
import * as z from '../openapi/zod-mini';
import { bodyEncoding } from './otlp/body';
import { ingestOtlp } from './otlp/ingest';
import { isOtlpExport } from './otlp/read-json';
import { exportResponse } from './otlp/response';
import { traceInputSchema } from './schema';
import { uploadTrace } from './service';

/** What the HTTP chain checks a trace body against: a JSON object (which of the two formats, receiveTraces tells). */
export const traceRequestSchema = z.record(z.string(), z.unknown());

/** The answer to POST /v1/traces: its status, its body (bytes for a protobuf export) and, for an export, its Content-Type. */
export interface TracesAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * Receives a trace body: an OTLP export (`resourceSpans`) is ingested and answered 200 in its encoding (`contentType`);
 * anything else is a native trace, 201 when new, 200 when an identical re-upload.
 */
export async function receiveTraces(
  deps: Deps,
  projectId: string,
  body: Record<string, unknown>,
  contentType: string | undefined,
): Promise<TracesAnswer> {
  if (isOtlpExport(body)) return exportResponse(await ingestOtlp(deps, projectId, body), bodyEncoding(contentType) ?? 'json');
  const res = await uploadTrace(deps, projectId, validate(traceInputSchema, body));
  return { status: res.status, body: res.body };
}

// The answer to an OTLP export: ExportTraceServiceResponse in the request's encoding, plus our summary in JSON.
import type { BodyEncoding } from './body';
import type { OtlpIngestResult } from './ingest';
import { encodeExportResponse } from './read-proto';

export const PROTOBUF_CONTENT_TYPE = 'application/x-protobuf';

/**
 * Status 200 always (OTLP's success, partial or whole). `partial_success` is set only when spans were rejected or there
 * is a warning, as the OTLP specification asks. JSON answers add `traces` (one entry per OTel trace: its rts trace and
 * what happened to it), `created`/`updated` (rts trace ids) and the span counts; protobuf answers carry only the message.
 */
export function exportResponse(
  result: OtlpIngestResult,
  encoding: BodyEncoding,
): { status: number; body: unknown; headers?: Record<string, string> } {
  const partial =
    result.rejected_spans > 0 || result.error_message ? { rejectedSpans: result.rejected_spans, errorMessage: result.error_message } : undefined;
  if (encoding === 'protobuf') {
    return { status: 200, body: encodeExportResponse(partial), headers: { 'Content-Type': PROTOBUF_CONTENT_TYPE } };
  }
  const ids = (r: string) => result.traces.filter((t) => t.result === r).map((t) => t.trace_id);
  return {
    status: 200,
    body: {
      // proto3 JSON writes int64 as a decimal string.
      ...(partial ? { partialSuccess: { rejectedSpans: String(partial.rejectedSpans), errorMessage: partial.errorMessage } } : {}),
      traces: result.traces,
      created: ids('created'),
      updated: ids('updated'),
      accepted_spans: result.accepted_spans,
      skipped_spans: result.skipped_spans,
      rejected_spans: result.rejected_spans,
    },
  };
}

// Joining an OTel trace across exports: its stable rts id, span sets merged by span id, and what makes a trace incomplete.
import { createHash } from 'node:crypto';
import type { $ZodError } from 'zod/v4/core';
import type { Span } from './types';

/**
 * A trace stays open for merging until it has gone this long without a change
 * (docs/opentelemetry.md#the-rules-in-full).
 */
export const OTLP_MERGE_WINDOW_MS = 60 * 60 * 1000;
/** Spans kept per trace; later spans of a full trace are rejected. */
export const OTLP_MAX_SPANS_PER_TRACE = 10_000;

/**
 * The rts trace id of an OTel trace id in a project: a name-based UUID (SHA-256 of a fixed namespace, the project id
 * and the lowercase trace id, like UUIDv5 but with SHA-256), carrying version 4 bits so that it has the shape every
 * trace id has (docs/api.md#ids). The same OTel trace always lands on the same rts trace, so exports join and retries
 * are no-ops.
 */
export function otlpTraceUuid(projectId: string, otlpTraceId: string): string {
  const b = createHash('sha256').update(`rts/otlp-trace/v1\n${projectId}\n${otlpTraceId.toLowerCase()}`).digest().subarray(0, 16);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * Adds the incoming spans whose span id the stored set lacks, after the stored ones in arrival order. A span id seen
 * before keeps its first version (a retried export sends the same span again); `added` counts the new span ids.
 */
export function mergeSpans(stored: Span[], incoming: Span[]): { spans: Span[]; added: Span[] } {
  const seen = new Set(stored.map((s) => s.spanId));
  const added: Span[] = [];
  for (const span of incoming) {
    if (seen.has(span.spanId)) continue;
    seen.add(span.spanId);
    added.push(span);
  }
  return { spans: added.length === 0 ? stored : [...stored, ...added], added };
}

/**
 * True when a converted trace fails validation only for lack of a conversation (no steps, or no user step): later
 * spans may still bring it, so the spans are kept open instead of rejected.
 */
export function onlyIncomplete(error: $ZodError): boolean {
  return error.issues.every((i) => i.path.length === 1 && i.path[0] === 'steps' && (i.code === 'too_small' || /user step/.test(i.message)));
}

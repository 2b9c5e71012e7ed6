// OTLP ingest: the spans of an export become rts traces, one per OTel trace and project, joined across exports.
import type { Deps } from '../../ports';
import { createLimiter } from '../../concurrency';
import { ServiceUnavailableError } from '../../errors';
import { projectEvent } from '../../publish';
import { isoMicros } from '../../time';
import { traceInputSchema, type Trace, type TraceSummary } from '../schema';
import { buildTrace, traceCreatedView, type TraceCreated } from '../service';
import { convertTrace } from './convert';
import { OTLP_MAX_SPANS_PER_TRACE, OTLP_MERGE_WINDOW_MS, mergeSpans, onlyIncomplete, otlpTraceUuid } from './merge';
import { readExport } from './read-json';
import { isAgentSpan, kindOf } from './spans';
import type { OtlpTraceResult, OtlpTraceState, Span } from './types';

/** Traces of one export merged at the same time. */
const TRACE_CONCURRENCY = 8;
/** Writes of one trace lost to concurrent exports before the request gives up with a 503 (the exporter retries). */
const MAX_WRITE_TRIES = 12;
/** Rejections and warnings named in `error_message`; the rest are counted. */
const MAX_NAMED = 5;

export interface OtlpTraceOutcome extends Partial<TraceCreated> {
  trace_id: string;
  otlp_trace_id: string;
  result: OtlpTraceResult;
  /** Spans of this trace in the export, and how many of them the trace did not hold yet. */
  span_count: number;
  added_span_count: number;
  version?: number;
  /** Why the spans were rejected, or why the trace is still pending. */
  message?: string;
}

export interface OtlpIngestResult {
  traces: OtlpTraceOutcome[];
  accepted_spans: number;
  skipped_spans: number;
  rejected_spans: number;
  /** OTLP's `partial_success.error_message`: what was rejected and why, then warnings; '' when there is nothing to say. */
  error_message: string;
}

/**
 * Ingests an export. Spans that are not agent traffic (no GenAI or OpenInference attribute or event) are skipped;
 * spans without ids are rejected; the others are merged, per OTel trace, into the rts trace that trace id maps to.
 * A trace whose spans do not make a valid trace yet (no user message so far) is kept pending; a trace that cannot
 * take the spans (invalid, closed, full) rejects them, alone. Throws only when the store or the bus fails.
 */
export async function ingestOtlp(deps: Deps, projectId: string, body: { resourceSpans: unknown[] }): Promise<OtlpIngestResult> {
  const read = readExport(body);
  let unreadable = read.unreadable;
  let skipped = 0;
  const byTrace = new Map<string, Span[]>();
  for (const span of read.spans) {
    if (!span.spanId || /^0+$/.test(span.traceId) || /^0+$/.test(span.spanId)) unreadable += 1;
    else if (!isAgentSpan(span)) skipped += 1;
    else {
      const list = byTrace.get(span.traceId);
      if (list) list.push(span);
      else byTrace.set(span.traceId, [span]);
    }
  }
  // One batch read tells which traces are new: those skip their first read (their write is conditional all the same).
  const ids = new Map([...byTrace.keys()].map((id) => [id, otlpTraceUuid(projectId, id)]));
  const stored = ids.size > 0 ? await deps.traces.storedIds(projectId, [...ids.values()]) : new Set<string>();
  const run = createLimiter(TRACE_CONCURRENCY);
  const traces = await Promise.all(
    [...byTrace].map(([id, spans]) => run(() => ingestTrace(deps, projectId, id, spans, stored.has(ids.get(id) as string)))),
  );

  const rejectedByTraces = traces.reduce((n, t) => n + (t.result === 'rejected' ? t.added_span_count : 0), 0);
  const problems = [
    ...(unreadable > 0 ? [`${unreadable} span(s) without a valid trace id or span id`] : []),
    ...named(traces.filter((t) => t.result === 'rejected').map((t) => `trace ${t.otlp_trace_id} rejected: ${t.message}`)),
    ...named(traces.filter((t) => t.result === 'pending' && t.message).map((t) => `trace ${t.otlp_trace_id} pending: ${t.message}`)),
  ];
  const spanCount = read.spans.length + read.unreadable;
  return {
    traces,
    accepted_spans: spanCount - skipped - unreadable - rejectedByTraces,
    skipped_spans: skipped,
    rejected_spans: unreadable + rejectedByTraces,
    error_message: problems.join('; '),
  };
}

function named(items: string[]): string[] {
  return items.length > MAX_NAMED ? [...items.slice(0, MAX_NAMED), `${items.length - MAX_NAMED} more`] : items;
}

/** Merges one OTel trace's spans into its rts trace: read, merge, rebuild, conditional write; again on a lost race. */
async function ingestTrace(deps: Deps, projectId: string, otlpTraceId: string, incoming: Span[], known: boolean): Promise<OtlpTraceOutcome> {
  const trace_id = otlpTraceUuid(projectId, otlpTraceId);
  const base = { trace_id, otlp_trace_id: otlpTraceId, span_count: incoming.length };
  const reject = (added: number, message: string): OtlpTraceOutcome => ({ ...base, result: 'rejected', added_span_count: added, message });
  for (let attempt = 1; ; attempt += 1) {
    const stored = attempt > 1 || known ? await deps.traces.getOtlpState(projectId, trace_id) : null;
    if (stored === 'native') return reject(incoming.length, `its trace id ${trace_id} holds a trace uploaded in the native format`);
    const now = deps.clock.now();
    const previous = stored?.state ?? null;
    const visible = stored?.trace ?? null;
    const idleMs = previous ? now.getTime() - Date.parse(previous.changed_at) : 0;
    // A pending trace left alone past the window starts again (the store's TTL removes it too).
    const restart = previous !== null && visible === null && idleMs > OTLP_MERGE_WINDOW_MS;
    const { spans, added } = mergeSpans(previous && !restart ? previous.spans : [], incoming);
    if (previous && !restart && added.length === 0) return unchangedOutcome(base, visible, 0);
    if (visible && idleMs > OTLP_MERGE_WINDOW_MS) {
      return reject(added.length, `closed for merging: unchanged since ${previous?.changed_at}, more than ${OTLP_MERGE_WINDOW_MS / 60_000} minutes`);
    }
    if (spans.length > OTLP_MAX_SPANS_PER_TRACE) return reject(added.length, `a trace holds at most ${OTLP_MAX_SPANS_PER_TRACE} spans`);

    const parsed = traceInputSchema.safeParse(convertTrace(otlpTraceId, spans));
    if (!parsed.success && (visible || !onlyIncomplete(parsed.error))) {
      const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.map(String).join('.') || 'trace'}: ${i.message}`);
      return reject(added.length, `the spans do not make a valid trace (${issues.join('; ')})`);
    }
    const nowIso = isoMicros(now);
    let trace: Trace | null = null;
    let contentHash: string | undefined;
    let changed = false;
    if (parsed.success) {
      const built = buildTrace(parsed.data, trace_id, visible?.created_at ?? nowIso);
      contentHash = built.contentHash;
      changed = visible === null || contentHash !== previous?.content_hash;
      const version = visible ? (visible.version ?? 1) + (changed ? 1 : 0) : 1;
      const updatedAt = changed ? nowIso : visible?.updated_at;
      trace = { ...built.trace, version, ...(version > 1 && updatedAt ? { updated_at: updatedAt } : {}) };
    }
    const state: OtlpTraceState = {
      revision: (previous?.revision ?? 0) + 1,
      otlp_trace_id: otlpTraceId,
      spans,
      changed_at: nowIso,
      ...(contentHash ? { content_hash: contentHash } : {}),
    };
    const expiresAt = trace ? undefined : Math.ceil((now.getTime() + OTLP_MERGE_WINDOW_MS) / 1000);
    if (!(await deps.traces.putOtlpState(projectId, { traceId: trace_id, state, trace, ...(expiresAt ? { expiresAt } : {}) }, previous))) {
      if (attempt >= MAX_WRITE_TRIES) throw new ServiceUnavailableError('Concurrent exports of the same trace kept colliding; retry shortly.');
      await deps.sleep(backoffMs(attempt, incoming));
      continue;
    }
    if (!trace) {
      // Warn only when a model call was seen: its messages were probably not captured.
      const modelCall = spans.some((s) => kindOf(s) === 'llm');
      const message = modelCall
        ? 'no user message yet; is message content capture on (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true)?'
        : undefined;
      return { ...base, result: 'pending', added_span_count: added.length, ...(message ? { message } : {}) };
    }
    if (changed) await deps.events.publish([traceEvent(deps, projectId, trace, visible, spans.length, added.length, otlpTraceId)]);
    const result: OtlpTraceResult = !visible ? 'created' : changed ? 'updated' : 'unchanged';
    return { ...base, ...traceCreatedView(trace), version: trace.version, result, added_span_count: added.length };
  }
}

/**
 * Wait before merging again after a lost race: doubling from 10 ms to 160 ms, plus up to 15 ms that depend on the
 * export's first span id, so that exports racing for one trace spread out instead of colliding again in step.
 */
function backoffMs(attempt: number, incoming: Span[]): number {
  const id = incoming[0]?.spanId ?? '';
  let spread = 0;
  for (let i = 0; i < id.length; i += 1) spread = (spread * 31 + id.charCodeAt(i)) % 16;
  return Math.min(160, 10 * 2 ** (attempt - 1)) + spread;
}

/** Nothing new: the trace as it is (or still pending). */
function unchangedOutcome(
  base: Pick<OtlpTraceOutcome, 'trace_id' | 'otlp_trace_id' | 'span_count'>,
  visible: TraceSummary | null,
  added: number,
): OtlpTraceOutcome {
  if (!visible) return { ...base, result: 'pending', added_span_count: added };
  return { ...base, ...traceCreatedView(visible), version: visible.version ?? 1, result: 'unchanged', added_span_count: added };
}

/**
 * trace.created when the trace first becomes visible; trace.updated when later spans change it. Ids are derived from
 * the trace and its version, so a delivery is made once even if the event were published twice.
 */
function traceEvent(deps: Deps, projectId: string, trace: Trace, before: TraceSummary | null, spanCount: number, added: number, otlpTraceId: string) {
  const common = { trace_id: trace.trace_id, name: trace.name, step_count: trace.step_count, version: trace.version, span_count: spanCount };
  const otlp = { source: 'otlp', otlp_trace_id: otlpTraceId };
  if (!before) return projectEvent(deps, projectId, 'trace.created', { ...common, ...otlp }, `trace.created:${trace.trace_id}`);
  return projectEvent(
    deps,
    projectId,
    'trace.updated',
    { ...common, tool_call_count: trace.tool_call_count, previous_step_count: before.step_count, added_span_count: added, ...otlp },
    `trace.updated:${trace.trace_id}:${trace.version}`,
  );
}

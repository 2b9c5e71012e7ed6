// OTLP ingest against an in-memory store with the conditional-revision semantics of the DynamoDB one: exports join into
// one trace per OTel trace id (any split, any order gives the single-export trace), re-sends change nothing, incomplete
// traces wait, closed or broken ones reject their new spans alone, lost races are retried, events say what changed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { BusEvent } from '../../../../../functions/core/events';
import { convertTrace } from '../../../../../functions/core/traces/otlp/convert';
import { ingestOtlp } from '../../../../../functions/core/traces/otlp/ingest';
import { OTLP_MERGE_WINDOW_MS, otlpTraceUuid } from '../../../../../functions/core/traces/otlp/merge';
import { readExport } from '../../../../../functions/core/traces/otlp/read-json';
import type { OtlpTraceState } from '../../../../../functions/core/traces/otlp/types';
import type { Trace, TraceSummary } from '../../../../../functions/core/traces/schema';
import type { Deps } from '../../../../../functions/core/ports';

const PROJECT = '6f1c3a52-4b1e-4c8e-9f1a-0c2d3e4f5a6b';
type Export = { resourceSpans: Record<string, unknown>[] };
type RawSpan = Record<string, unknown>;

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** TracesRepo's OTLP half in memory: a write lands only while the stored revision is still the one it read. */
class MemoryOtlpStore {
  readonly stored = new Map<string, { state: OtlpTraceState; trace: Trace | null }>();
  readonly native = new Set<string>();
  writes = 0;
  /** Runs before each write is checked: lets a test slip a concurrent write in. */
  beforeWrite?: () => Promise<void>;

  async getOtlpState(_pid: string, traceId: string) {
    if (this.native.has(traceId)) return 'native' as const;
    const s = this.stored.get(traceId);
    if (!s) return null;
    const { steps: _steps, ...summary } = s.trace ?? ({} as Trace);
    return clone({ state: s.state, trace: s.trace ? (summary as TraceSummary) : null });
  }

  async storedIds(_pid: string, traceIds: string[]) {
    return new Set(traceIds.filter((id) => this.native.has(id) || this.stored.has(id)));
  }

  async putOtlpState(_pid: string, write: { traceId: string; state: OtlpTraceState; trace: Trace | null }, previous: OtlpTraceState | null) {
    await this.beforeWrite?.();
    const current = this.stored.get(write.traceId);
    if ((current?.state.revision ?? 0) !== (previous?.revision ?? 0)) return false;
    this.writes += 1;
    this.stored.set(write.traceId, clone({ state: write.state, trace: write.trace }));
    return true;
  }

  trace(otelTraceId: string): Trace | null {
    return this.stored.get(otlpTraceUuid(PROJECT, otelTraceId))?.trace ?? null;
  }
}

function world() {
  const store = new MemoryOtlpStore();
  const events: BusEvent[] = [];
  let now = Date.UTC(2026, 10, 21, 12, 0, 0);
  const deps = {
    traces: store,
    events: { publish: async (e: BusEvent[]) => void events.push(...clone(e)) },
    clock: { now: () => new Date(now) },
    uuid: () => '00000000-0000-4000-8000-000000000000',
    sleep: async () => undefined,
  } as unknown as Deps;
  return { store, events, deps, advance: (ms: number) => (now += ms), ingest: (body: Export) => ingestOtlp(deps, PROJECT, body) };
}

function fixture(name: string): Export {
  return JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'fixtures', 'otlp', name), 'utf8')) as Export;
}
const spansOf = (e: Export): RawSpan[] => e.resourceSpans.flatMap((rs) => (rs.scopeSpans as { spans: RawSpan[] }[]).flatMap((s) => s.spans));
const resourceOf = (e: Export) => e.resourceSpans[0].resource;
const exportOf = (resource: unknown, spans: RawSpan[]): Export => ({ resourceSpans: [{ resource, scopeSpans: [{ spans }] }] });

const NEW_STYLE = fixture('genai-new-style.json');
const NEW_STYLE_ID = String(spansOf(NEW_STYLE)[0].traceId);
const s = (key: string, value: string) => ({ key, value: { stringValue: value } });
const T = 'ab'.repeat(16);
const rawSpan = (spanId: string, name: string, startMs: number, attributes: unknown[], extra: RawSpan = {}): RawSpan => ({
  traceId: T,
  spanId,
  name,
  startTimeUnixNano: String(1_700_000_000_000_000_000n + BigInt(startMs) * 1_000_000n),
  endTimeUnixNano: String(1_700_000_000_000_000_000n + BigInt(startMs + 10) * 1_000_000n),
  attributes,
  ...extra,
});
const chat = (spanId: string, start: number, user: string | null, answer: string) =>
  rawSpan(spanId, 'chat', start, [
    s('gen_ai.operation.name', 'chat'),
    ...(user === null ? [] : [s('gen_ai.input.messages', JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: user }] }]))]),
    s('gen_ai.output.messages', JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: answer }] }])),
  ]);
const tool = (spanId: string, start: number, name: string) =>
  rawSpan(spanId, `execute_tool ${name}`, start, [
    s('gen_ai.operation.name', 'execute_tool'),
    s('gen_ai.tool.name', name),
    s('gen_ai.tool.call.result', 'ok'),
  ]);

describe('ingestOtlp', () => {
  it('stores a trace under its derived id, says so in the result, and emits trace.created', async () => {
    // Prepare
    const w = world();

    // Act
    const result = await w.ingest(NEW_STYLE);

    // Assess
    const stored = w.store.trace(NEW_STYLE_ID)!;
    const single = convertTrace(NEW_STYLE_ID, readExport(NEW_STYLE).spans);
    expect(stored).toMatchObject({ steps: single.steps, name: single.name, tools: single.tools, metadata: single.metadata, version: 1 });
    expect(result).toMatchObject({ accepted_spans: 5, skipped_spans: 0, rejected_spans: 0, error_message: '' });
    expect(result.traces).toEqual([
      expect.objectContaining({
        trace_id: otlpTraceUuid(PROJECT, NEW_STYLE_ID),
        otlp_trace_id: NEW_STYLE_ID,
        result: 'created',
        span_count: 5,
        added_span_count: 5,
      }),
    ]);
    expect(w.events.map((e) => [e.id, e.envelope.event_type, e.envelope.data])).toEqual([
      [
        `trace.created:${stored.trace_id}`,
        'trace.created',
        { trace_id: stored.trace_id, name: stored.name, step_count: 6, version: 1, span_count: 5, source: 'otlp', otlp_trace_id: NEW_STYLE_ID },
      ],
    ]);
  });

  it('builds the single-export trace from any split of its spans into exports, sent in any order', async () => {
    const spans = spansOf(NEW_STYLE);
    const single = convertTrace(NEW_STYLE_ID, readExport(NEW_STYLE).spans);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: spans.length, maxLength: spans.length }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: spans.length, maxLength: spans.length }),
        async (exportOfSpan, order) => {
          const w = world();
          const parts = [0, 1, 2, 3].map((k) => spans.filter((_, i) => exportOfSpan[i] === k)).filter((p) => p.length > 0);
          // Arrival order: each span moves to the export `order` names, then exports go in that order.
          const sorted = parts.map((p, i) => ({ p, key: order[i] ?? 0 })).sort((a, b) => a.key - b.key);
          for (const { p } of sorted) await w.ingest(exportOf(resourceOf(NEW_STYLE), p));
          const stored = w.store.trace(NEW_STYLE_ID)!;
          expect(stored).toMatchObject({ steps: single.steps, name: single.name, tools: single.tools, agent: single.agent, model: single.model });
          const created = w.events.filter((e) => e.envelope.event_type === 'trace.created');
          const updated = w.events.filter((e) => e.envelope.event_type === 'trace.updated');
          expect(created).toHaveLength(1);
          expect(stored.version).toBe(updated.length + 1);
        },
      ),
      { numRuns: 60, seed: 13 },
    );
  });

  it('changes nothing when an export comes again, whole or in part: no write, no event, no new version', async () => {
    // Prepare
    const w = world();
    await w.ingest(NEW_STYLE);
    const [writes, eventCount, before] = [w.store.writes, w.events.length, clone(w.store.trace(NEW_STYLE_ID))];

    // Act
    const again = await w.ingest(NEW_STYLE);
    const part = await w.ingest(exportOf(resourceOf(NEW_STYLE), spansOf(NEW_STYLE).slice(2)));

    // Assess
    expect(again.traces[0]).toMatchObject({ result: 'unchanged', added_span_count: 0, version: 1 });
    expect(part.traces[0]).toMatchObject({ result: 'unchanged', added_span_count: 0 });
    expect([w.store.writes, w.events.length]).toEqual([writes, eventCount]);
    expect(w.store.trace(NEW_STYLE_ID)).toEqual(before);
  });

  it('emits trace.updated with the version, the added spans and the step count before', async () => {
    // Prepare
    const w = world();
    await w.ingest(exportOf({}, [chat('a1', 0, 'hi', 'Hello.')]));

    // Act
    const result = await w.ingest(exportOf({}, [chat('a2', 100, 'and now?', 'Now this.')]));

    // Assess
    const stored = w.store.trace(T)!;
    expect(result.traces[0]).toMatchObject({ result: 'updated', version: 2, added_span_count: 1, step_count: 4 });
    expect(stored.updated_at).toBe('2026-11-21T12:00:00.000000+00:00');
    expect(w.events[1]).toMatchObject({
      id: `trace.updated:${stored.trace_id}:2`,
      envelope: {
        event_type: 'trace.updated',
        data: {
          trace_id: stored.trace_id,
          version: 2,
          step_count: 4,
          previous_step_count: 2,
          span_count: 2,
          added_span_count: 1,
          otlp_trace_id: T,
          source: 'otlp',
        },
      },
    });
  });

  it('stores spans that change nothing visible without a new version or event', async () => {
    // Prepare
    const w = world();
    await w.ingest(exportOf({}, [chat('a1', 0, 'hi', 'Hello.')]));

    // Act: an embeddings call of the same trace: GenAI, but no step and no trace-level field.
    const result = await w.ingest(exportOf({}, [rawSpan('e1', 'chat', 50, [s('gen_ai.operation.name', 'embeddings')])]));

    // Assess
    expect(result.traces[0]).toMatchObject({ result: 'unchanged', added_span_count: 1, version: 1 });
    expect(w.events).toHaveLength(1);
    expect(w.store.stored.get(otlpTraceUuid(PROJECT, T))!.state.spans.map((x) => x.spanId)).toEqual(['a1', 'e1']);
  });

  it('keeps a trace without a user message pending, invisible, until later spans complete it', async () => {
    // Prepare
    const w = world();

    // Act
    const first = await w.ingest(exportOf({}, [tool('t1', 20, 'lookup')]));
    const second = await w.ingest(exportOf({}, [chat('c1', 0, 'look it up', 'Found it.')]));

    // Assess
    expect(first).toMatchObject({ rejected_spans: 0, error_message: '', traces: [{ result: 'pending', added_span_count: 1 }] });
    expect(second.traces[0]).toMatchObject({ result: 'created', version: 1 });
    expect(w.store.trace(T)!.steps.map((x) => x.role)).toEqual(['user', 'assistant', 'assistant', 'tool']);
    expect(w.events.map((e) => e.envelope.event_type)).toEqual(['trace.created']);
  });

  it('warns, without rejecting, when a model call was recorded without its messages', async () => {
    const w = world();

    const result = await w.ingest(exportOf({}, [rawSpan('c1', 'chat gpt-4o', 0, [s('gen_ai.operation.name', 'chat')])]));

    expect(result.rejected_spans).toBe(0);
    expect(result.traces[0]).toMatchObject({
      result: 'pending',
      message: expect.stringMatching(/OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT/),
    });
    expect(result.error_message).toMatch(new RegExp(`^trace ${T} pending: no user message yet`));
  });

  it('starts a pending trace over once it has waited past the merge window', async () => {
    // Prepare
    const w = world();
    await w.ingest(exportOf({}, [tool('t1', 20, 'stale')]));
    w.advance(OTLP_MERGE_WINDOW_MS + 1);

    // Act
    await w.ingest(exportOf({}, [chat('c1', 0, 'hi', 'Hello.')]));

    // Assess
    expect(w.store.trace(T)!.steps.map((x) => x.role)).toEqual(['user', 'assistant']);
  });

  it('rejects new spans of a trace left unchanged past the merge window, alone: the trace and the other traces stay', async () => {
    // Prepare
    const w = world();
    await w.ingest(exportOf({}, [chat('a1', 0, 'hi', 'Hello.')]));
    w.advance(OTLP_MERGE_WINDOW_MS + 1);
    const other = { ...chat('b1', 0, 'other', 'Other.'), traceId: 'cd'.repeat(16) };

    // Act
    const result = await w.ingest(exportOf({}, [chat('a1', 0, 'hi', 'Hello.'), chat('a2', 100, 'late', 'Late.'), other]));

    // Assess
    expect(result.rejected_spans).toBe(1);
    expect(result.traces.map((t) => t.result)).toEqual(['rejected', 'created']);
    expect(result.error_message).toMatch(new RegExp(`^trace ${T} rejected: closed for merging: unchanged since 2026-11-21T12:00:00.000000\\+00:00`));
    expect(w.store.trace(T)!.version).toBe(1);
  });

  it('rejects spans that would break a visible trace (past 2,000 steps), keeping the trace as it was', async () => {
    // Prepare
    const w = world();
    await w.ingest(exportOf({}, [chat('a1', 0, 'hi', 'Hello.')]));
    const tools = Array.from({ length: 1000 }, (_, i) => tool(`t${i}`, 100 + i, 'ping'));

    // Act
    const result = await w.ingest(exportOf({}, tools));

    // Assess
    expect(result).toMatchObject({ rejected_spans: 1000, traces: [{ result: 'rejected' }] });
    expect(result.traces[0].message).toMatch(/do not make a valid trace \(steps: /);
    expect(w.store.trace(T)!.step_count).toBe(2);
  });

  it('rejects the spans of an id a native upload holds', async () => {
    const w = world();
    w.store.native.add(otlpTraceUuid(PROJECT, T));

    const result = await w.ingest(exportOf({}, [chat('a1', 0, 'hi', 'Hello.')]));

    expect(result).toMatchObject({ rejected_spans: 1, traces: [{ result: 'rejected', message: expect.stringMatching(/native format/) }] });
  });

  it('skips spans that are not agent traffic and rejects spans without ids, counting each', async () => {
    // Prepare
    const http = rawSpan('h1', 'GET /health', 0, [s('http.request.method', 'GET')]);
    const noSpanId = { ...chat('x', 0, 'hi', 'Hello.'), spanId: undefined };
    const zeroTrace = { ...chat('y', 0, 'hi', 'Hello.'), traceId: '0'.repeat(32) };
    const w = world();

    // Act
    const result = await w.ingest(exportOf({}, [http, noSpanId, zeroTrace, { name: 'no trace id' }, 'junk' as never, chat('ok', 0, 'hi', 'Hello.')]));

    // Assess
    expect(result).toMatchObject({ accepted_spans: 1, skipped_spans: 1, rejected_spans: 4 });
    expect(result.error_message).toBe('4 span(s) without a valid trace id or span id');
  });

  it('merges again after losing a race to a concurrent export of the same trace: no span lost', async () => {
    // Prepare: the first write of this export meets another export's write, slipped in just before it.
    const w = world();
    let slipped = false;
    w.store.beforeWrite = async () => {
      if (slipped) return;
      slipped = true;
      await ingestOtlp(w.deps, PROJECT, exportOf({}, [chat('b1', 50, 'second', 'Two.')]));
    };

    // Act
    const result = await w.ingest(exportOf({}, [chat('a1', 0, 'first', 'One.')]));

    // Assess
    expect(result.traces[0]).toMatchObject({ result: 'updated', version: 2 });
    expect(w.store.trace(T)!.steps.map((x) => ('content' in x ? x.content : null))).toEqual(['first', 'One.', 'second', 'Two.']);
  });

  it('gives up with 503 when every write keeps losing, so that the exporter retries later', async () => {
    const w = world();
    w.store.beforeWrite = async () => {
      const current = w.store.stored.get(otlpTraceUuid(PROJECT, T));
      w.store.stored.set(otlpTraceUuid(PROJECT, T), {
        state: { ...(current?.state ?? { otlp_trace_id: T, spans: [], changed_at: '' }), revision: (current?.state.revision ?? 0) + 1 },
        trace: null,
      });
    };

    await expect(w.ingest(exportOf({}, [chat('a1', 0, 'hi', 'Hello.')]))).rejects.toMatchObject({ status: 503, code: 'service_unavailable' });
  });

  it('rejects spans past 10,000 in one trace', async () => {
    const w = world();
    const spans = Array.from({ length: 10_001 }, (_, i) => rawSpan(`e${i}`, 'embeddings', i, [s('gen_ai.operation.name', 'embeddings')]));

    const result = await w.ingest(exportOf({}, spans));

    expect(result).toMatchObject({ rejected_spans: 10_001, traces: [{ result: 'rejected', message: 'a trace holds at most 10000 spans' }] });
  });
});

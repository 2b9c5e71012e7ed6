// OTLP traces in DynamoDB (dynalite): spans stored beside the trace under a revision every write is conditional on,
// pending traces invisible to reads, listings and eval-sets, replaced chunks deleted, and concurrent exports of one
// trace merged without losing a span (no transactions: conditional puts and retries).
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DynamoTracesRepo } from '../../functions/adapters/dynamodb/traces-repo';
import { keys } from '../../functions/adapters/dynamodb/keys';
import { queryAll } from '../../functions/adapters/dynamodb/table';
import type { BusEvent } from '../../functions/core/events';
import { realSleep } from '../../functions/core/retry';
import { systemClock } from '../../functions/core/time';
import { convertTrace } from '../../functions/core/traces/otlp/convert';
import { ingestOtlp } from '../../functions/core/traces/otlp/ingest';
import { otlpTraceUuid } from '../../functions/core/traces/otlp/merge';
import { readExport } from '../../functions/core/traces/otlp/read-json';
import type { OtlpTraceState, Span } from '../../functions/core/traces/otlp/types';
import type { Trace } from '../../functions/core/traces/schema';
import { buildTrace } from '../../functions/core/traces/service';
import type { Deps } from '../../functions/core/ports';
import { startDynalite, type TestTable } from '../helpers/dynalite';

let table: TestTable;
beforeAll(async () => {
  table = await startDynalite();
});
afterAll(() => table.close());

const repo = new DynamoTracesRepo();
const T = 'ab'.repeat(16);

const span = (spanId: string, attrs: Record<string, unknown> = { 'gen_ai.operation.name': 'embeddings' }): Span => ({
  traceId: T,
  spanId,
  name: 'embeddings',
  attrs,
  resource: {},
  events: [],
  isError: false,
});
const stateOf = (revision: number, spans: Span[], extra: Partial<OtlpTraceState> = {}): OtlpTraceState => ({
  revision,
  otlp_trace_id: T,
  spans,
  changed_at: '2026-11-21T12:00:00.000000+00:00',
  ...extra,
});
function visibleTrace(traceId: string, text = 'hi'): { trace: Trace; contentHash: string } {
  const built = buildTrace(
    {
      steps: [
        { role: 'user', content: text },
        { role: 'assistant', content: 'Hello.' },
      ],
    },
    traceId,
    '2026-11-21T12:00:00.000000+00:00',
  );
  return { trace: { ...built.trace, version: 1 }, contentHash: built.contentHash };
}
const itemsOf = async (pid: string, tid: string) =>
  (await queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.traceMeta(pid, tid).pk }, ConsistentRead: true }))
    .map((i) => ({ ...i, sk: String(i.sk) }) as Record<string, unknown> & { sk: string })
    .sort((a, b) => a.sk.localeCompare(b.sk));

describe('DynamoTracesRepo, OTLP traces', () => {
  it('keeps a pending trace invisible: no get, summary, listing or eval-set membership; its items expire', async () => {
    // Prepare
    const pid = randomUUID();
    const tid = otlpTraceUuid(pid, T);

    // Act
    const written = await repo.putOtlpState(pid, { traceId: tid, state: stateOf(1, [span('s1')]), trace: null, expiresAt: 1_900_000_000 }, null);

    // Assess
    expect(written).toBe(true);
    expect(await repo.get(pid, tid)).toBeNull();
    expect(await repo.getSummary(pid, tid)).toBeNull();
    expect(await repo.existing(pid, [tid])).toEqual(new Set());
    expect((await repo.list(pid, { limit: 10 })).items).toEqual([]);
    const stored = await repo.getOtlpState(pid, tid);
    expect(stored).toMatchObject({ trace: null, state: { revision: 1, otlp_trace_id: T, spans: [span('s1')] } });
    expect([...new Set((await itemsOf(pid, tid)).map((i) => i.expires_at))]).toEqual([1_900_000_000]);
  });

  it('makes a trace visible with its spans beside it, and deletes the replaced revision chunks on the next write', async () => {
    // Prepare
    const pid = randomUUID();
    const tid = otlpTraceUuid(pid, T);
    await repo.putOtlpState(pid, { traceId: tid, state: stateOf(1, [span('s1')]), trace: null, expiresAt: 1_900_000_000 }, null);
    const pending = (await repo.getOtlpState(pid, tid)) as { state: OtlpTraceState };
    const { trace, contentHash } = visibleTrace(tid);

    // Act
    await repo.putOtlpState(pid, { traceId: tid, state: stateOf(2, [span('s1'), span('s2')], { content_hash: contentHash }), trace }, pending.state);

    // Assess
    expect(await repo.get(pid, tid)).toEqual(trace);
    expect(await repo.existing(pid, [tid])).toEqual(new Set([tid]));
    expect((await repo.list(pid, { limit: 10 })).items).toEqual([expect.objectContaining({ trace_id: tid, version: 1 })]);
    const items = await itemsOf(pid, tid);
    expect(items.map((i) => i.sk.split('#')[0])).toEqual(['CHUNK', 'META', 'SPANS']);
    expect(items.some((i) => 'expires_at' in i)).toBe(false);
    const stored = await repo.getOtlpState(pid, tid);
    expect(stored).toMatchObject({ trace: { trace_id: tid, version: 1 }, state: { revision: 2, content_hash: contentHash } });
  });

  it('writes only on the revision it read: of two writers that read the same revision, one wins', async () => {
    // Prepare
    const pid = randomUUID();
    const tid = otlpTraceUuid(pid, T);
    await repo.putOtlpState(pid, { traceId: tid, state: stateOf(1, [span('s1')]), trace: null }, null);
    const read = (await repo.getOtlpState(pid, tid)) as { state: OtlpTraceState };

    // Act
    const results = await Promise.all([
      repo.putOtlpState(pid, { traceId: tid, state: stateOf(2, [span('s1'), span('a')]), trace: null }, read.state),
      repo.putOtlpState(pid, { traceId: tid, state: stateOf(2, [span('s1'), span('b')]), trace: null }, read.state),
    ]);
    const again = await repo.putOtlpState(pid, { traceId: tid, state: stateOf(1, [span('x')]), trace: null }, null);

    // Assess
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(again).toBe(false);
    const stored = (await repo.getOtlpState(pid, tid)) as { state: OtlpTraceState };
    expect(stored.state.revision).toBe(2);
    expect(stored.state.spans.map((s) => s.spanId)).toEqual(['s1', results[0] ? 'a' : 'b']);
  });

  it("answers 'native' for a trace uploaded in the native format", async () => {
    const pid = randomUUID();
    const { trace, contentHash } = visibleTrace(randomUUID());
    await repo.putIfAbsent(pid, trace, contentHash);

    expect(await repo.getOtlpState(pid, trace.trace_id)).toBe('native');
  });

  it('stores spans across several chunks when they are large, and reads them back whole', async () => {
    const pid = randomUUID();
    const tid = otlpTraceUuid(pid, T);
    const big = Array.from({ length: 4 }, (_, i) =>
      span(`s${i}`, { 'gen_ai.operation.name': 'embeddings', blob: randomBytes(200 * 1024).toString('base64') }),
    );

    await repo.putOtlpState(pid, { traceId: tid, state: stateOf(1, big), trace: null }, null);

    expect((await itemsOf(pid, tid)).filter((i) => i.sk.startsWith('SPANS#')).length).toBeGreaterThanOrEqual(2);
    expect(((await repo.getOtlpState(pid, tid)) as { state: OtlpTraceState }).state.spans).toEqual(big);
  });
});

describe('concurrent exports of one trace', () => {
  it('lose no span: ten exports at once, each with other spans of the same trace, give the single-export trace', async () => {
    // Prepare: the new-style fixture's five spans plus fifteen tool spans, spread over ten exports sent at once.
    const pid = randomUUID();
    const events: BusEvent[] = [];
    const deps = {
      traces: repo,
      events: { publish: async (e: BusEvent[]) => void events.push(...e) },
      clock: systemClock,
      uuid: randomUUID,
      sleep: realSleep,
    } as unknown as Deps;
    const fixture = JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'otlp', 'genai-new-style.json'), 'utf8'));
    const base = fixture.resourceSpans[0];
    const traceId: string = base.scopeSpans[0].spans[0].traceId;
    const extra = Array.from({ length: 15 }, (_, i) => ({
      traceId,
      spanId: `f${String(i).padStart(15, '0')}`,
      name: 'execute_tool audit',
      startTimeUnixNano: String(1732233602000000000n + BigInt(i) * 1_000_000n),
      attributes: [
        { key: 'gen_ai.operation.name', value: { stringValue: 'execute_tool' } },
        { key: 'gen_ai.tool.name', value: { stringValue: 'audit' } },
      ],
    }));
    const all = [...base.scopeSpans[0].spans, ...extra];
    const exportsOf = Array.from({ length: 10 }, (_, k) => ({
      resourceSpans: [{ ...base, scopeSpans: [{ spans: all.filter((_, i) => i % 10 === k) }] }],
    }));

    // Act
    await Promise.all(exportsOf.map((body) => ingestOtlp(deps, pid, body)));

    // Assess
    const tid = otlpTraceUuid(pid, traceId);
    const stored = (await repo.getOtlpState(pid, tid)) as { state: OtlpTraceState };
    expect(stored.state.spans).toHaveLength(20);
    const single = convertTrace(traceId, readExport({ resourceSpans: [{ ...base, scopeSpans: [{ spans: all }] }] }).spans);
    expect((await repo.get(pid, tid))?.steps).toEqual(single.steps);
    expect(events.filter((e) => e.envelope.event_type === 'trace.created')).toHaveLength(1);
    const chunkSets = new Set((await itemsOf(pid, tid)).filter((i) => i.sk !== 'META').map((i) => i.sk.split('#').slice(0, 2).join('#')));
    // Only the committed revision's steps and spans: replaced revisions and writes that lost their race left nothing.
    expect(chunkSets.size).toBe(2);
  });
});

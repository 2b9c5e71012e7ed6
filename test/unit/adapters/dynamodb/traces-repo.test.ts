// DynamoTracesRepo against dynalite: the payload chunked across items tagged by content hash, created once, listed
// newest first a page at a time.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { DynamoTracesRepo } from '../../../../functions/adapters/dynamodb/traces-repo';
import { keys } from '../../../../functions/adapters/dynamodb/keys';
import { queryAll } from '../../../../functions/adapters/dynamodb/table';
import type { Trace, TraceStep } from '../../../../functions/core/traces/schema';
import { startDynalite, type TestTable } from '../../../helpers/dynalite';

let table: TestTable;

beforeAll(async () => {
  table = await startDynalite();
});
afterAll(() => table.close());

const CHUNK_LIMIT = 350 * 1024;

function makeTrace(overrides: Partial<Trace> = {}): Trace {
  const steps: TraceStep[] = overrides.steps ?? [
    { role: 'user', content: 'Please refund order 1234' },
    { role: 'assistant', content: 'Done.' },
  ];
  return {
    trace_id: randomUUID(),
    name: 'refund',
    tools: [{ name: 'refund_order', parameters: { type: 'object' } }],
    metadata: { env: 'test' },
    tags: ['refund'],
    created_at: '2026-11-21T10:00:00.000000+00:00',
    step_count: steps.length,
    tool_call_count: 0,
    size_bytes: JSON.stringify(steps).length,
    ...overrides,
    steps,
  };
}

const hashOf = (t: Trace) => createHash('sha256').update(JSON.stringify(t.steps)).digest('hex');
const summaryOf = ({ steps: _steps, ...summary }: Trace) => summary;

/** Every item of a trace's partition, by sort key. */
async function itemsOf(projectId: string, traceId: string) {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.traceMeta(projectId, traceId).pk },
    ConsistentRead: true,
  });
  return items.sort((a, b) => String(a.sk).localeCompare(String(b.sk)));
}

describe('DynamoTracesRepo', () => {
  it('stores a trace and reads it back whole, and its summary without steps', async () => {
    // Prepare
    const repo = new DynamoTracesRepo();
    const pid = randomUUID();
    const t = makeTrace();
    // Act
    const put = await repo.putIfAbsent(pid, t, hashOf(t));
    // Assess
    expect(put).toEqual({ created: true });
    expect(await repo.get(pid, t.trace_id)).toEqual(t);
    expect(await repo.getSummary(pid, t.trace_id)).toEqual(summaryOf(t));
  });

  it('splits a payload above 350 KB compressed across chunk items tagged with its content hash, and joins them on read', async () => {
    // Prepare: random text hardly compresses, so the gzip payload spans several chunks.
    const repo = new DynamoTracesRepo();
    const pid = randomUUID();
    const t = makeTrace({
      steps: [
        { role: 'user', content: randomBytes(700 * 1024).toString('base64') },
        { role: 'assistant', content: 'ok' },
      ],
    });
    const hash = hashOf(t);
    // Act
    await repo.putIfAbsent(pid, t, hash);
    // Assess
    const items = await itemsOf(pid, t.trace_id);
    const chunks = items.filter((i) => String(i.sk).startsWith('CHUNK#'));
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    expect(chunks.map((c) => c.sk)).toEqual(chunks.map((_, n) => `CHUNK#${hash.slice(0, 12)}#${String(n).padStart(4, '0')}`));
    for (const c of chunks) expect((c.data as Uint8Array).length).toBeLessThanOrEqual(CHUNK_LIMIT);
    expect(items.find((i) => i.sk === 'META')).toMatchObject({ content_hash: hash, chunk_count: chunks.length });
    expect(await repo.get(pid, t.trace_id)).toEqual(t);
  });

  it('answers created: false with the stored summary and content hash to a later upload under the same id', async () => {
    // Prepare
    const repo = new DynamoTracesRepo();
    const pid = randomUUID();
    const t = makeTrace();
    await repo.putIfAbsent(pid, t, hashOf(t));
    // Act
    const again = await repo.putIfAbsent(pid, { ...t, created_at: '2026-11-21T10:00:05.000000+00:00' }, hashOf(t));
    // Assess
    expect(again.created).toBe(false);
    expect(again.existing).toMatchObject({ ...summaryOf(t), content_hash: hashOf(t) });
  });

  // Each upload writes a token of its own into META, so an identical upload in the same millisecond is not taken
  // for the first one's lost answer.
  it('answers created: false to a second upload of the same trace in the same millisecond', async () => {
    // Prepare
    const repo = new DynamoTracesRepo();
    const pid = randomUUID();
    const t = makeTrace();
    await repo.putIfAbsent(pid, t, hashOf(t));
    // Act
    const again = await repo.putIfAbsent(pid, { ...t }, hashOf(t));
    // Assess
    expect(again.created).toBe(false);
  });

  it('keeps the stored version when other content is uploaded under the same id: its chunks are never overwritten', async () => {
    // Prepare
    const repo = new DynamoTracesRepo();
    const pid = randomUUID();
    const first = makeTrace();
    const other = makeTrace({ trace_id: first.trace_id, name: 'other', steps: [{ role: 'user', content: 'something else entirely' }] });
    await repo.putIfAbsent(pid, first, hashOf(first));
    // Act
    const put = await repo.putIfAbsent(pid, other, hashOf(other));
    // Assess
    expect(put.created).toBe(false);
    expect(put.existing?.content_hash).toBe(hashOf(first));
    expect(await repo.get(pid, first.trace_id)).toEqual(first);
    const chunkKeys = (await itemsOf(pid, first.trace_id)).map((i) => String(i.sk)).filter((sk) => sk.startsWith('CHUNK#'));
    expect(chunkKeys).toContain(`CHUNK#${hashOf(first).slice(0, 12)}#0000`);
  });

  it('answers null for a trace that does not exist, and for one of another project', async () => {
    // Prepare
    const repo = new DynamoTracesRepo();
    const t = makeTrace();
    await repo.putIfAbsent(randomUUID(), t, hashOf(t));
    // Act
    const [missing, foreign, foreignSummary] = await Promise.all([
      repo.get(randomUUID(), randomUUID()),
      repo.get(randomUUID(), t.trace_id),
      repo.getSummary(randomUUID(), t.trace_id),
    ]);
    // Assess
    expect([missing, foreign, foreignSummary]).toEqual([null, null, null]);
  });

  it('tells which of the given ids exist in the project', async () => {
    // Prepare
    const repo = new DynamoTracesRepo();
    const pid = randomUUID();
    const stored = [makeTrace(), makeTrace()];
    for (const t of stored) await repo.putIfAbsent(pid, t, hashOf(t));
    const unknown = randomUUID();
    // Act
    const found = await repo.existing(pid, [stored[0].trace_id, unknown, stored[1].trace_id, stored[0].trace_id]);
    // Assess
    expect(found).toEqual(new Set([stored[0].trace_id, stored[1].trace_id]));
  });

  it('lists the traces of a project newest first, a page at a time, as summaries', async () => {
    // Prepare
    const repo = new DynamoTracesRepo();
    const pid = randomUUID();
    const traces = [1, 2, 3, 4, 5].map((d) => makeTrace({ created_at: `2026-11-0${d}T00:00:00.000000+00:00` }));
    for (const t of traces) await repo.putIfAbsent(pid, t, hashOf(t));
    await repo.putIfAbsent(randomUUID(), makeTrace(), 'f'.repeat(64));
    // Act
    const first = await repo.list(pid, { limit: 2 });
    const second = await repo.list(pid, { limit: 2, after: first.last });
    const third = await repo.list(pid, { limit: 2, after: second.last });
    // Assess
    const newestFirst = [...traces].reverse().map((element) => summaryOf(element));
    expect(first.items).toEqual(newestFirst.slice(0, 2));
    expect(second.items).toEqual(newestFirst.slice(2, 4));
    expect(third.items).toEqual(newestFirst.slice(4));
    expect(first.last).toBeDefined();
    expect(third.last).toBeUndefined();
  });
});

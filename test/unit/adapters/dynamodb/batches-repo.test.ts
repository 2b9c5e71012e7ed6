// DynamoBatchesRepo against dynalite: batches created once, completion markers written once, the done hint, the
// queued -> running -> done flips, and the leased claim to publish the decision.
import { randomUUID } from 'node:crypto';
import { DynamoBatchesRepo } from '../../../../functions/adapters/dynamodb/batches-repo';
import { keys } from '../../../../functions/adapters/dynamodb/keys';
import { deleteItem, getItem, putNew } from '../../../../functions/adapters/dynamodb/table';
import type { BatchAggregate, BatchMarker, CiBatch } from '../../../../functions/core/ci/types';
import { EMPTY_SUMMARY } from '../../../../functions/core/runs/types';
import { startDynalite, type TestTable } from '../../../helpers/dynalite';
import { itemBytes } from '../../../helpers/item-bytes';
import { SAMPLE_CELLS } from '../../../helpers/run-records';

let table: TestTable;

beforeAll(async () => {
  table = await startDynalite();
});
afterAll(() => table.close());

const AT = '2026-11-21T10:00:00.000000+00:00';
const LEASE_MS = 30_000;
const NOW = Date.parse('2026-11-21T10:05:00Z');

function makeBatch(overrides: Partial<CiBatch> = {}): CiBatch {
  const runIds = [randomUUID(), randomUUID(), randomUUID()];
  return {
    ci_batch_id: randomUUID(),
    project_id: randomUUID(),
    campaign_id: randomUUID(),
    run_ids: runIds,
    trace_count: runIds.length,
    thresholds: { min_pass_rate: 0.9, max_unsafe: 0, max_failures: 0 },
    metadata: { commit: 'abc123', branch: 'main' },
    status: 'queued',
    decision: 'pending',
    created_at: AT,
    completed_at: null,
    result: null,
    done_hint: 0,
    decision_published: false,
    ...overrides,
  };
}

function makeMarker(overrides: Partial<BatchMarker> = {}): BatchMarker {
  return {
    run_id: randomUUID(),
    trace_id: randomUUID(),
    status: 'completed',
    summary: { ...EMPTY_SUMMARY, attempt_count: 1, passed_count: 1, pass_rate: 1 },
    decision: 'pass',
    reasons: [],
    error: null,
    completed_at: AT,
    ...overrides,
  };
}

const RESULT: BatchAggregate = {
  decision: 'pass',
  pass_rate: 1,
  scenario_coverage_pct: 100,
  completed_count: 3,
  failed_count: 0,
  unsafe_count: 0,
  passed_runs: ['r1', 'r2', 'r3'],
  failed_runs: [],
  reasons: [],
};

/** A stored batch, optionally already flipped to done. */
async function storedBatch(opts: { done?: boolean } & Partial<CiBatch> = {}): Promise<{ repo: DynamoBatchesRepo; b: CiBatch }> {
  const { done, ...overrides } = opts;
  const repo = new DynamoBatchesRepo();
  const b = makeBatch(overrides);
  await repo.create(b);
  if (done) await repo.markDone(b.project_id, b.ci_batch_id, RESULT, AT);
  return { repo, b };
}

describe('DynamoBatchesRepo batches', () => {
  it('creates a batch and reads it back', async () => {
    // Prepare
    const repo = new DynamoBatchesRepo();
    const b = makeBatch();
    // Act
    await repo.create(b);
    // Assess
    expect(await repo.get(b.project_id, b.ci_batch_id)).toEqual(b);
  });

  it('refuses a second batch under the same id and keeps the first', async () => {
    // Prepare
    const { repo, b } = await storedBatch();
    // Act
    const again = repo.create({ ...b, created_at: '2026-11-21T10:00:09.000000+00:00', trace_count: 99 });
    // Assess
    await expect(again).rejects.toThrow(`ci batch ${b.ci_batch_id} already exists`);
    expect((await repo.get(b.project_id, b.ci_batch_id))?.trace_count).toBe(b.trace_count);
  });

  it('answers null for a batch that does not exist or belongs to another project', async () => {
    // Prepare
    const { repo, b } = await storedBatch();
    // Act
    const [missing, foreign] = await Promise.all([repo.get(b.project_id, randomUUID()), repo.get(randomUUID(), b.ci_batch_id)]);
    // Assess
    expect([missing, foreign]).toEqual([null, null]);
  });
});

describe('DynamoBatchesRepo completion markers', () => {
  it("writes a run's completion marker once: a second write is refused and the first stays", async () => {
    // Prepare
    const { repo, b } = await storedBatch();
    const marker = makeMarker();
    // Act
    const first = await repo.putMarker(b.project_id, b.ci_batch_id, marker);
    const second = await repo.putMarker(b.project_id, b.ci_batch_id, { ...marker, status: 'failed', decision: 'fail' });
    // Assess
    expect([first, second]).toEqual([true, false]);
    expect(await repo.listMarkers(b.project_id, b.ci_batch_id)).toEqual([marker]);
  });

  it('lists every marker of the batch and nothing else of its partition', async () => {
    // Prepare
    const { repo, b } = await storedBatch();
    const markers = [makeMarker(), makeMarker(), makeMarker({ status: 'failed', decision: 'fail', error: 'boom' })];
    await Promise.all(markers.map((m) => repo.putMarker(b.project_id, b.ci_batch_id, m)));
    // Act
    const listed = await repo.listMarkers(b.project_id, b.ci_batch_id);
    // Assess
    const byRun = (x: BatchMarker, y: BatchMarker) => x.run_id.localeCompare(y.run_id);
    expect(listed.sort(byRun)).toEqual([...markers].sort(byRun));
  });

  it('stores a marker with its cells compressed in 1 KB (1 write unit), read back to the same JSON text', async () => {
    // Prepare: six cells, two of them with a failure line, as a run of the sample campaign has.
    const { repo, b } = await storedBatch();
    const marker = makeMarker({
      trace_name: 'change the delivery address of order 5678 #16',
      cells: SAMPLE_CELLS,
    });
    // Act
    await repo.putMarker(b.project_id, b.ci_batch_id, marker);
    // Assess
    const item = (await getItem(keys.batchDone(b.project_id, b.ci_batch_id, marker.run_id), true))!;
    expect(Object.keys(item).sort()).toEqual(['body_dict', 'body_z', 'entity', 'pk', 'sk']);
    expect(itemBytes(item)).toBeLessThanOrEqual(1024);
    expect(JSON.stringify(await repo.getMarkers(b.project_id, b.ci_batch_id, [marker.run_id]))).toBe(JSON.stringify([marker]));
  });

  it('reads a marker stored before compression, as plain attributes, as it was', async () => {
    // Prepare
    const { repo, b } = await storedBatch();
    const marker = makeMarker({ cells: [{ mutation_id: null, passed: 1, total: 1, unsafe: 0, errors: 0, failures: [] }] });
    await putNew({ ...keys.batchDone(b.project_id, b.ci_batch_id, marker.run_id), entity: 'ci_batch_done', ...marker });
    // Act
    const listed = await repo.listMarkers(b.project_id, b.ci_batch_id);
    // Assess
    expect(listed).toEqual([marker]);
    expect(await repo.putMarker(b.project_id, b.ci_batch_id, marker)).toBe(false);
  });
});

describe('DynamoBatchesRepo.bumpDoneHint', () => {
  it('adds one per call, atomically: 10 concurrent bumps answer 1 to 10, each with trace_count', async () => {
    // Prepare
    const { repo, b } = await storedBatch();
    // Act
    const answers = await Promise.all(Array.from({ length: 10 }, () => repo.bumpDoneHint(b.project_id, b.ci_batch_id)));
    // Assess
    expect(answers.map((a) => a?.done_hint).sort((x, y) => x! - y!)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(answers.map((a) => a?.trace_count)).toEqual(Array(10).fill(b.trace_count));
    expect(await getItem(keys.batchCounter(b.project_id, b.ci_batch_id), true)).toMatchObject({ done_hint: 10, trace_count: b.trace_count });
  });

  it('counts in a small item of its own, never rewriting META (billed at its size: the run ids of the batch)', async () => {
    // Prepare
    const { repo, b } = await storedBatch();
    const before = await getItem(keys.batch(b.project_id, b.ci_batch_id), true);
    // Act
    await repo.bumpDoneHint(b.project_id, b.ci_batch_id);
    // Assess
    expect(await getItem(keys.batch(b.project_id, b.ci_batch_id), true)).toEqual(before);
    expect(JSON.stringify(await getItem(keys.batchCounter(b.project_id, b.ci_batch_id), true)).length).toBeLessThan(300);
  });

  it('keeps counting on META for a batch stored before the counter item existed', async () => {
    // Prepare: a batch whose counter item is missing, as one created by an earlier version
    const { repo, b } = await storedBatch();
    await deleteItem(keys.batchCounter(b.project_id, b.ci_batch_id));
    // Act
    const answers = [await repo.bumpDoneHint(b.project_id, b.ci_batch_id), await repo.bumpDoneHint(b.project_id, b.ci_batch_id)];
    // Assess
    expect(answers).toEqual([
      { done_hint: 1, trace_count: b.trace_count },
      { done_hint: 2, trace_count: b.trace_count },
    ]);
    expect((await repo.get(b.project_id, b.ci_batch_id))?.done_hint).toBe(2);
  });

  it('answers null for a batch that does not exist, and creates nothing', async () => {
    // Prepare
    const repo = new DynamoBatchesRepo();
    const [pid, bid] = [randomUUID(), randomUUID()];
    // Act
    const hint = await repo.bumpDoneHint(pid, bid);
    // Assess
    expect(hint).toBeNull();
    expect(await getItem(keys.batch(pid, bid), true)).toBeUndefined();
  });
});

describe('DynamoBatchesRepo status flips', () => {
  it('moves a queued batch to running', async () => {
    // Prepare
    const { repo, b } = await storedBatch();
    // Act
    await repo.markRunning(b.project_id, b.ci_batch_id);
    // Assess
    expect((await repo.get(b.project_id, b.ci_batch_id))?.status).toBe('running');
  });

  it('leaves a done batch done, and creates no batch that does not exist', async () => {
    // Prepare
    const { repo, b } = await storedBatch({ done: true });
    const [pid, bid] = [randomUUID(), randomUUID()];
    // Act
    await repo.markRunning(b.project_id, b.ci_batch_id);
    await repo.markRunning(pid, bid);
    // Assess
    expect((await repo.get(b.project_id, b.ci_batch_id))?.status).toBe('done');
    expect(await getItem(keys.batch(pid, bid), true)).toBeUndefined();
  });

  it('flips a batch to done once with its result: a second flip answers null and keeps the first result', async () => {
    // Prepare
    const { repo, b } = await storedBatch();
    await repo.markRunning(b.project_id, b.ci_batch_id);
    const other: BatchAggregate = { ...RESULT, decision: 'fail', reasons: ['late'] };
    // Act
    const first = await repo.markDone(b.project_id, b.ci_batch_id, RESULT, '2026-11-21T10:01:00.000000+00:00');
    const second = await repo.markDone(b.project_id, b.ci_batch_id, other, '2026-11-21T10:02:00.000000+00:00');
    // Assess
    const done = { ...b, status: 'done', decision: 'pass', result: RESULT, completed_at: '2026-11-21T10:01:00.000000+00:00' };
    expect(first).toEqual(done);
    expect(second).toBeNull();
    expect(await repo.get(b.project_id, b.ci_batch_id)).toEqual(done);
  });

  it('answers null to a done flip of a batch that does not exist, and creates nothing', async () => {
    // Prepare
    const repo = new DynamoBatchesRepo();
    const [pid, bid] = [randomUUID(), randomUUID()];
    // Act
    const done = await repo.markDone(pid, bid, RESULT, AT);
    // Assess
    expect(done).toBeNull();
    expect(await getItem(keys.batch(pid, bid), true)).toBeUndefined();
  });
});

describe('DynamoBatchesRepo.claimDecision', () => {
  it('refuses a claim while the batch is not done', async () => {
    // Prepare
    const { repo, b } = await storedBatch();
    // Act
    const claimed = await repo.claimDecision(b.project_id, b.ci_batch_id, 'worker-a', NOW, LEASE_MS);
    // Assess
    expect(claimed).toBe(false);
  });

  it('grants the first claimant, refuses another within the lease, and grants the first again', async () => {
    // Prepare
    const { repo, b } = await storedBatch({ done: true });
    // Act
    const a = await repo.claimDecision(b.project_id, b.ci_batch_id, 'worker-a', NOW, LEASE_MS);
    const other = await repo.claimDecision(b.project_id, b.ci_batch_id, 'worker-b', NOW + LEASE_MS - 1, LEASE_MS);
    const aAgain = await repo.claimDecision(b.project_id, b.ci_batch_id, 'worker-a', NOW + 1000, LEASE_MS);
    // Assess
    expect([a, other, aAgain]).toEqual([true, false, true]);
  });

  it('grants another claimant once the lease has run out', async () => {
    // Prepare
    const { repo, b } = await storedBatch({ done: true });
    await repo.claimDecision(b.project_id, b.ci_batch_id, 'worker-a', NOW, LEASE_MS);
    // Act
    const other = await repo.claimDecision(b.project_id, b.ci_batch_id, 'worker-b', NOW + LEASE_MS + 1, LEASE_MS);
    // Assess
    expect(other).toBe(true);
  });

  it('grants exactly one of several concurrent claimants', async () => {
    // Prepare
    const { repo, b } = await storedBatch({ done: true });
    // Act
    const answers = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((w) => repo.claimDecision(b.project_id, b.ci_batch_id, w, NOW, LEASE_MS)));
    // Assess
    expect(answers.filter(Boolean)).toHaveLength(1);
  });

  it("gives up a claim for its holder only: another claimant is granted at once after the holder's release", async () => {
    // Prepare
    const { repo, b } = await storedBatch({ done: true });
    await repo.claimDecision(b.project_id, b.ci_batch_id, 'worker-a', NOW, LEASE_MS);
    // Act
    await repo.releaseDecision(b.project_id, b.ci_batch_id, 'worker-b');
    const whileHeld = await repo.claimDecision(b.project_id, b.ci_batch_id, 'worker-b', NOW + 1, LEASE_MS);
    await repo.releaseDecision(b.project_id, b.ci_batch_id, 'worker-a');
    const afterRelease = await repo.claimDecision(b.project_id, b.ci_batch_id, 'worker-b', NOW + 2, LEASE_MS);
    // Assess
    expect([whileHeld, afterRelease]).toEqual([false, true]);
  });

  it('leaves a published decision as it is when its claimant releases', async () => {
    // Prepare
    const { repo, b } = await storedBatch({ done: true });
    await repo.claimDecision(b.project_id, b.ci_batch_id, 'worker-a', NOW, LEASE_MS);
    await repo.markDecisionPublished(b.project_id, b.ci_batch_id);
    // Act
    await repo.releaseDecision(b.project_id, b.ci_batch_id, 'worker-a');
    // Assess
    expect((await repo.get(b.project_id, b.ci_batch_id))?.decision_published).toBe(true);
    expect(await repo.claimDecision(b.project_id, b.ci_batch_id, 'worker-b', NOW, LEASE_MS)).toBe(false);
  });

  it('refuses every claim once the decision is published', async () => {
    // Prepare
    const { repo, b } = await storedBatch({ done: true });
    await repo.claimDecision(b.project_id, b.ci_batch_id, 'worker-a', NOW, LEASE_MS);
    // Act
    await repo.markDecisionPublished(b.project_id, b.ci_batch_id);
    const claims = await Promise.all([
      repo.claimDecision(b.project_id, b.ci_batch_id, 'worker-a', NOW, LEASE_MS),
      repo.claimDecision(b.project_id, b.ci_batch_id, 'worker-b', NOW + 10 * LEASE_MS, LEASE_MS),
    ]);
    // Assess
    expect(claims).toEqual([false, false]);
    expect((await repo.get(b.project_id, b.ci_batch_id))?.decision_published).toBe(true);
  });

  it('keeps the claim bookkeeping out of the batch it reads', async () => {
    // Prepare
    const { repo, b } = await storedBatch({ done: true });
    await repo.claimDecision(b.project_id, b.ci_batch_id, 'worker-a', NOW, LEASE_MS);
    // Act
    const read = await repo.get(b.project_id, b.ci_batch_id);
    // Assess
    expect(read).not.toHaveProperty('decision_claim');
    expect(read).not.toHaveProperty('decision_claim_until');
    expect(await getItem(keys.batch(b.project_id, b.ci_batch_id), true)).toMatchObject({
      decision_claim: 'worker-a',
      decision_claim_until: NOW + LEASE_MS,
    });
  });

  it('refuses to mark the decision of a batch that does not exist as published', async () => {
    // Prepare
    const bid = randomUUID();
    // Act
    const res = new DynamoBatchesRepo().markDecisionPublished(randomUUID(), bid);
    // Assess
    await expect(res).rejects.toThrow(`ci batch ${bid} does not exist`);
  });
});

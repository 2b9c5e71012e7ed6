// DynamoBatchesRepo against dynalite: the listing entry kept beside each batch META (created with it,
// flipped with it, updated once done), the listings by project and by campaign with the branch filter and paging,
// the latest done batch of a campaign and branch (the baseline), and the scenario comparisons stored beside the
// completion markers. Split from batches-repo.test.ts to keep both
// files under 400 lines.
import { randomUUID } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoBatchesRepo } from '../../../../functions/adapters/dynamodb/batches-repo';
import { keys } from '../../../../functions/adapters/dynamodb/keys';
import { doc, getItem, queryAll } from '../../../../functions/adapters/dynamodb/table';
import type { BatchComparison, ScenarioComparisonEntry } from '../../../../functions/core/ci/compare';
import type { BatchAggregate, BatchMarker, CiBatch } from '../../../../functions/core/ci/types';
import { EMPTY_SUMMARY } from '../../../../functions/core/runs/types';
import { startDynalite, type TestTable } from '../../../helpers/dynalite';

let table: TestTable;

beforeAll(async () => {
  table = await startDynalite();
});
afterAll(() => table.close());

const repo = new DynamoBatchesRepo();
/** Creation times that sort in the order of their argument. */
const at = (second: number) =>
  `2026-11-21T10:${String(Math.floor(second / 60)).padStart(2, '0')}:${String(second % 60).padStart(2, '0')}.000000+00:00`;

/** A batch to store; `done` (not stored) asks createAll to flip it to done. */
function makeBatch(overrides: Partial<CiBatch> & { done?: boolean } = {}): CiBatch & { done?: boolean } {
  const runIds = [randomUUID(), randomUUID()];
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
    created_at: at(0),
    completed_at: null,
    result: null,
    done_hint: 0,
    decision_published: false,
    ...overrides,
  };
}

const COMPARISON: BatchComparison = {
  baseline_batch_id: 'base-1',
  baseline_branch: 'main',
  baseline_campaign_version: 1,
  campaign_version: 1,
  new_cells_count: 0,
  dropped_cells_count: 0,
  new_cells: [],
  dropped_cells: [],
  pass_rate_delta: -0.25,
  regressed_count: 2,
  fixed_count: 0,
  new_unsafe_count: 0,
  new_count: 0,
  dropped_count: 0,
  regressed: [],
  fixed: [],
  new_unsafe: [],
  dropped: [],
};

const RESULT: BatchAggregate = {
  decision: 'fail',
  pass_rate: 0.75,
  scenario_coverage_pct: 100,
  completed_count: 2,
  failed_count: 1,
  unsafe_count: 0,
  passed_runs: ['r1'],
  failed_runs: ['r2'],
  reasons: ['flaky_count 1 > max_flaky 0'],
  flaky_count: 1,
  pass_hat_k: 0.5,
  pass_rate_interval: { low: 0.3, high: 0.95, confidence: 0.95, method: 'wilson' },
  comparison: COMPARISON,
};

/** Creates batches in order (so their creation times and ids are known), optionally flipping some to done. */
async function createAll(batches: (CiBatch & { done?: boolean })[]): Promise<CiBatch[]> {
  const created: CiBatch[] = [];
  for (const { done, ...b } of batches) {
    await repo.create(b);
    if (done) await repo.markDone(b.project_id, b.ci_batch_id, RESULT, at(3000));
    created.push(b);
  }
  return created;
}

/** The stored listing entry of a batch, as it is (keys and branch included). */
async function listingItem(b: CiBatch): Promise<Record<string, unknown> | undefined> {
  const { pk, sk } = keys.batchListing(b.project_id, b.campaign_id, b.created_at, b.ci_batch_id);
  return getItem({ pk, sk }, true);
}

describe('DynamoBatchesRepo listing entries', () => {
  it('writes the listing entry with the META, keyed for both listings and carrying the branch', async () => {
    // Prepare
    const b = makeBatch({ baseline_batch_id: 'base-1' });
    // Act
    await repo.create(b);
    // Assess
    expect(await listingItem(b)).toEqual({
      ...keys.batchListing(b.project_id, b.campaign_id, b.created_at, b.ci_batch_id),
      entity: 'ci_batch_listing',
      ci_batch_id: b.ci_batch_id,
      campaign_id: b.campaign_id,
      campaign_version: 1,
      status: 'queued',
      decision: 'pending',
      pass_rate: null,
      trace_count: 2,
      metadata: { commit: 'abc123', branch: 'main' },
      baseline_batch_id: 'base-1',
      flaky_count: null,
      pass_hat_k: null,
      regressed_count: null,
      created_at: b.created_at,
      completed_at: null,
      branch: 'main',
    });
  });

  it('flips the META and the listing entry from queued to running', async () => {
    // Prepare
    const [b] = await createAll([makeBatch()]);
    // Act
    await repo.markRunning(b.project_id, b.ci_batch_id);
    // Assess
    expect((await repo.get(b.project_id, b.ci_batch_id))?.status).toBe('running');
    expect((await listingItem(b))?.status).toBe('running');
  });

  it('carries the decision and the statistics of a done batch to its listing entry', async () => {
    // Prepare
    const [b] = await createAll([makeBatch({ baseline_batch_id: 'base-1' })]);
    await repo.markRunning(b.project_id, b.ci_batch_id);
    const done = (await repo.markDone(b.project_id, b.ci_batch_id, RESULT, at(60)))!;
    // Act
    await repo.updateListing(done);
    // Assess
    const [listed] = (await repo.list(b.project_id, { campaign_id: b.campaign_id }, { limit: 10 })).items;
    expect(listed).toEqual({
      ci_batch_id: b.ci_batch_id,
      campaign_id: b.campaign_id,
      campaign_version: 1,
      status: 'done',
      decision: 'fail',
      pass_rate: 0.75,
      trace_count: 2,
      metadata: { commit: 'abc123', branch: 'main' },
      baseline_batch_id: 'base-1',
      flaky_count: 1,
      pass_hat_k: 0.5,
      regressed_count: 2,
      created_at: b.created_at,
      completed_at: at(60),
    });
    expect((await listingItem(b))?.branch).toBe('main');
  });

  it('creates no listing entry when updating one that does not exist', async () => {
    // Prepare
    const b = makeBatch({ status: 'done', result: RESULT });
    // Act
    await repo.updateListing(b);
    // Assess
    expect(await listingItem(b)).toBeUndefined();
  });
});

describe('DynamoBatchesRepo.list', () => {
  const pid = randomUUID();
  const [cA, cB] = [randomUUID(), randomUUID()];
  let ids: string[];

  beforeAll(async () => {
    // Five batches of one project, created in this order over two campaigns and two branches (and one without metadata).
    const made = await createAll([
      makeBatch({ project_id: pid, campaign_id: cA, created_at: at(1) }),
      makeBatch({ project_id: pid, campaign_id: cB, created_at: at(2) }),
      makeBatch({ project_id: pid, campaign_id: cA, created_at: at(3), metadata: { branch: 'feature/x' } }),
      makeBatch({ project_id: pid, campaign_id: cB, created_at: at(4), metadata: null }),
      makeBatch({ project_id: pid, campaign_id: cA, created_at: at(5) }),
      makeBatch({ campaign_id: cA, created_at: at(6) }),
    ]);
    ids = made.map((b) => b.ci_batch_id);
  });

  const idsOf = (page: { items: { ci_batch_id: string }[] }) => page.items.map((i) => i.ci_batch_id);

  it("lists a project's batches newest first across campaigns, and not another project's", async () => {
    expect(idsOf(await repo.list(pid, {}, { limit: 10 }))).toEqual([ids[4], ids[3], ids[2], ids[1], ids[0]]);
  });

  it("lists one campaign's batches newest first", async () => {
    expect(idsOf(await repo.list(pid, { campaign_id: cA }, { limit: 10 }))).toEqual([ids[4], ids[2], ids[0]]);
    expect(idsOf(await repo.list(pid, { campaign_id: cB }, { limit: 10 }))).toEqual([ids[3], ids[1]]);
  });

  it('keeps only the batches of a branch, across campaigns or within one', async () => {
    expect(idsOf(await repo.list(pid, { branch: 'main' }, { limit: 10 }))).toEqual([ids[4], ids[1], ids[0]]);
    expect(idsOf(await repo.list(pid, { campaign_id: cA, branch: 'feature/x' }, { limit: 10 }))).toEqual([ids[2]]);
    expect(idsOf(await repo.list(pid, { branch: 'nope' }, { limit: 10 }))).toEqual([]);
  });

  it('pages with `after`, without losing or repeating an entry', async () => {
    for (const filter of [{}, { campaign_id: cA }]) {
      // Prepare
      const seen: string[] = [];
      let after: Record<string, unknown> | undefined;
      // Act
      do {
        const page = await repo.list(pid, filter, { limit: 2, after });
        expect(page.items.length).toBeLessThanOrEqual(2);
        seen.push(...idsOf(page));
        after = page.last;
      } while (after);
      // Assess
      expect(seen).toEqual(idsOf(await repo.list(pid, filter, { limit: 10 })));
    }
  });
});

describe('DynamoBatchesRepo.latestDone', () => {
  it('picks the newest done batch of the campaign and branch, skipping newer ones not done', async () => {
    // Prepare
    const [pid, cid] = [randomUUID(), randomUUID()];
    const main = { project_id: pid, campaign_id: cid };
    const [, newestDone] = await createAll([
      makeBatch({ ...main, created_at: at(1), done: true }),
      makeBatch({ ...main, created_at: at(2), done: true }),
      makeBatch({ ...main, created_at: at(3) }),
      makeBatch({ ...main, created_at: at(4), status: 'running' }),
      makeBatch({ ...main, created_at: at(5), metadata: { branch: 'feature/x' }, done: true }),
      makeBatch({ project_id: pid, created_at: at(6), done: true }),
      makeBatch({ campaign_id: cid, created_at: at(7), done: true }),
    ]);
    // Act
    const found = await repo.latestDone(pid, cid, 'main');
    // Assess
    expect(found?.ci_batch_id).toBe(newestDone.ci_batch_id);
    expect(found).toMatchObject({ status: 'done', result: RESULT });
  });

  it('answers null when no batch of that campaign and branch is done', async () => {
    // Prepare
    const [pid, cid] = [randomUUID(), randomUUID()];
    await createAll([makeBatch({ project_id: pid, campaign_id: cid, created_at: at(1) })]);
    // Act
    const [notDone, otherBranch, otherCampaign] = await Promise.all([
      repo.latestDone(pid, cid, 'main'),
      repo.latestDone(pid, cid, 'feature/x'),
      repo.latestDone(pid, randomUUID(), 'main'),
    ]);
    // Assess
    expect([notDone, otherBranch, otherCampaign]).toEqual([null, null, null]);
  });

  it('looks past a first page of 100 newer batches that are not done', async () => {
    // Prepare
    const [pid, cid] = [randomUUID(), randomUUID()];
    const [old] = await createAll([makeBatch({ project_id: pid, campaign_id: cid, created_at: at(1), done: true })]);
    await Promise.all(Array.from({ length: 105 }, (_, i) => repo.create(makeBatch({ project_id: pid, campaign_id: cid, created_at: at(10 + i) }))));
    // Act
    const found = await repo.latestDone(pid, cid, 'main');
    // Assess
    expect(found?.ci_batch_id).toBe(old.ci_batch_id);
  });

  it('lets a throttled query fail the lookup instead of answering no baseline', async () => {
    // Prepare
    const store = mockClient(doc());
    const throttled = Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), {
      name: 'ProvisionedThroughputExceededException',
    });
    store.on(QueryCommand).rejects(throttled);
    try {
      // Act
      const lookup = repo.latestDone(randomUUID(), randomUUID(), 'main');
      // Assess
      await expect(lookup).rejects.toMatchObject({ name: 'ProvisionedThroughputExceededException' });
      expect(store.commandCalls(QueryCommand)).toHaveLength(1);
    } finally {
      store.restore();
    }
  });
});

describe('DynamoBatchesRepo scenario comparisons', () => {
  const entry = (run_id: string, n: number): ScenarioComparisonEntry => ({
    run_id,
    comparison: { comparison: n % 2 ? 'regressed' : 'unchanged', cells: [{ mutation_id: n % 3 ? 'shout' : null, comparison: 'new', before: null }] },
  });
  const marker = (): BatchMarker => ({
    run_id: randomUUID(),
    trace_id: randomUUID(),
    status: 'completed',
    summary: { ...EMPTY_SUMMARY, attempt_count: 1, passed_count: 1, pass_rate: 1 },
    decision: 'pass',
    reasons: [],
    error: null,
    completed_at: at(0),
  });

  it('stores the comparisons of 250 scenarios in chunks of 100 and reads every one back by run id', async () => {
    // Prepare
    const [b] = await createAll([makeBatch()]);
    const m = marker();
    await repo.putMarker(b.project_id, b.ci_batch_id, m);
    const entries = Array.from({ length: 250 }, (_, i) => entry(`run-${i}`, i));
    // Act
    await repo.putComparisons(b.project_id, b.ci_batch_id, entries);
    // Assess
    const read = await repo.listComparisons(b.project_id, b.ci_batch_id);
    expect(read).toEqual(new Map(entries.map((e) => [e.run_id, e.comparison])));
    const stored = await queryAll({
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.batch(b.project_id, b.ci_batch_id).pk },
    });
    expect(stored.map((i) => i.sk)).toEqual(['CMP#0000', 'CMP#0001', 'CMP#0002', 'COUNT', `DONE#${m.run_id}`, 'META']);
    expect(await repo.listMarkers(b.project_id, b.ci_batch_id)).toEqual([m]);
  });

  it('reads the markers of the given runs that exist (getMarkers), and none of another batch', async () => {
    // Prepare
    const [b, other] = await createAll([makeBatch(), makeBatch()]);
    const [m1, m2, foreign] = [marker(), marker(), marker()];
    await Promise.all([m1, m2].map((m) => repo.putMarker(b.project_id, b.ci_batch_id, m)));
    await repo.putMarker(other.project_id, other.ci_batch_id, foreign);
    // Act
    const read = await repo.getMarkers(b.project_id, b.ci_batch_id, [m2.run_id, randomUUID(), foreign.run_id, m1.run_id]);
    // Assess
    expect(read.sort((x, y) => x.run_id.localeCompare(y.run_id))).toEqual([m1, m2].sort((x, y) => x.run_id.localeCompare(y.run_id)));
  });

  it('rewrites the same items when the same comparisons are stored again', async () => {
    // Prepare
    const [b] = await createAll([makeBatch()]);
    const entries = Array.from({ length: 120 }, (_, i) => entry(randomUUID(), i));
    await repo.putComparisons(b.project_id, b.ci_batch_id, entries);
    // Act
    await repo.putComparisons(b.project_id, b.ci_batch_id, entries);
    // Assess
    expect((await repo.listComparisons(b.project_id, b.ci_batch_id)).size).toBe(120);
    expect(await getItem(keys.batchComparison(b.project_id, b.ci_batch_id, 2), true)).toBeUndefined();
  });

  it("answers an empty map for a batch without comparisons, and never another batch's", async () => {
    // Prepare
    const [b, other] = await createAll([makeBatch(), makeBatch()]);
    await repo.putComparisons(other.project_id, other.ci_batch_id, [entry('r1', 1)]);
    await repo.putComparisons(b.project_id, b.ci_batch_id, []);
    // Act
    const [none, foreign] = await Promise.all([
      repo.listComparisons(b.project_id, b.ci_batch_id),
      repo.listComparisons(b.project_id, other.ci_batch_id),
    ]);
    // Assess
    expect([none.size, foreign.size]).toEqual([0, 0]);
  });
});

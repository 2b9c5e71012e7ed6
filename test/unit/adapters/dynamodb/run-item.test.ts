// A run's META item against the store: what the keys say and null fields are not stored, the result (summary, cells,
// error, completion time) is compressed when the run ends, and every run reads back as the core wrote it, whatever the
// format it was stored in (run-item.ts).
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { DynamoRunsRepo } from '../../../../functions/adapters/dynamodb/runs-repo';
import { keys } from '../../../../functions/adapters/dynamodb/keys';
import { getItem, putNew } from '../../../../functions/adapters/dynamodb/table';
import { runView } from '../../../../functions/core/runs/service';
import type { Run, RunSummary } from '../../../../functions/core/runs/types';
import { startDynalite, type TestTable } from '../../../helpers/dynalite';
import { itemBytes } from '../../../helpers/item-bytes';
import { SAMPLE_CELLS, makeRun } from '../../../helpers/run-records';

let table: TestTable;

beforeAll(async () => {
  table = await startDynalite();
});
afterAll(() => table.close());

const repo = new DynamoRunsRepo();

/** The end of a run of the sample campaign. */
const SAMPLE_END: Partial<Run> = {
  status: 'completed',
  completed_at: '2026-11-28T05:23:36.240000+00:00',
  summary: {
    attempt_count: 6,
    passed_count: 4,
    failed_count: 2,
    unsafe_count: 2,
    pass_rate: 0.6666666666666666,
    policy_events_count: 30,
    security_events_count: 5,
    throttled_ms: 0,
    throttle_count: 0,
  },
  cells: SAMPLE_CELLS,
  error: null,
};

/** What `rts ci run` sends from GitHub Actions (functions/cli/ci/env.ts). */
const GITHUB_METADATA = {
  commit: '3f2a9c1d7e8b4a5f6c0d1e2f3a4b5c6d7e8f9a0b',
  branch: 'feature/retry-tools',
  pipeline_url: 'https://github.com/acme/support-agent/actions/runs/12345678901',
};

/** A run of a CI batch, as POST /v1/ci/runs creates it (without the pipeline's metadata, as the cost bench submits). */
function batchRun(metadata: NonNullable<Run['ci']>['metadata'] = {}): Run {
  return makeRun({
    source: 'ci',
    campaign_version: 1,
    ci_batch_id: randomUUID(),
    ci: { thresholds: { min_pass_rate: 0, max_unsafe: 0, max_failures: 0 }, metadata, decision: 'pending', reasons: [] },
  });
}

const START: Partial<Run> = {
  status: 'running',
  attempt_total: 6,
  trace_name: 'change the delivery address of order 5678 #16',
  started_at: '2026-11-28T05:23:36.129000+00:00',
};

/** The item of the run as stored. */
const stored = async (run: Run) => (await getItem(keys.run(run.project_id, run.run_id), true))!;

describe('a run META item', () => {
  it.each([
    ['without the pipeline metadata', {}],
    ['with GitHub Actions metadata', GITHUB_METADATA],
  ])('stores a finished CI run of the sample campaign %s in 1 KB (its end is 1 write unit), read back as the core wrote it', async (_, metadata) => {
    // Prepare
    const run = batchRun(metadata);
    await repo.create(run);
    const created = await stored(run);
    const started = await repo.transition(run.project_id, run.run_id, ['queued'], START);
    const running = await stored(run);
    // Act
    const ended = await repo.transition(run.project_id, run.run_id, ['queued', 'running'], SAMPLE_END);
    // Assess
    const item = await stored(run);
    const expected = { ...run, ...START, ...SAMPLE_END };
    for (const name of ['project_id', 'run_id', 'created_at', 'error', 'pack_id', 'completed_at', 'started_at'])
      expect(created).not.toHaveProperty(name);
    for (const name of ['summary', 'cells', 'error', 'completed_at', 'ci']) expect(item).not.toHaveProperty(name);
    expect(item.result_z).toBeInstanceOf(Uint8Array);
    expect(item.ci_z).toBeInstanceOf(Uint8Array);
    // The end is billed at the larger of the item before and after it.
    expect(Math.max(itemBytes(running), itemBytes(item))).toBeLessThanOrEqual(1024);
    expect(started).toStrictEqual({ ...run, ...START });
    expect(ended).toStrictEqual(expected);
    expect(await repo.get(run.project_id, run.run_id)).toStrictEqual(expected);
    expect(JSON.stringify(runView((await repo.get(run.project_id, run.run_id))!))).toBe(JSON.stringify(runView(expected as Run)));
  });

  it('reads a run stored before, every field an attribute of its own, as it was; its end is then stored compressed', async () => {
    // Prepare: the item as earlier versions wrote it.
    const run = { ...batchRun(), ...START };
    await putNew({ ...keys.run(run.project_id, run.run_id), ...keys.runList(run.project_id, run.created_at, run.run_id), entity: 'run', ...run });
    // Act
    const before = await repo.get(run.project_id, run.run_id);
    const ended = await repo.transition(run.project_id, run.run_id, ['running'], SAMPLE_END);
    // Assess
    expect(before).toStrictEqual(run);
    expect(ended).toStrictEqual({ ...run, ...SAMPLE_END });
    const item = await stored(run);
    for (const name of ['summary', 'cells', 'error', 'completed_at']) expect(item).not.toHaveProperty(name);
    expect(item).toMatchObject({ project_id: run.project_id, run_id: run.run_id, created_at: run.created_at, pack_id: null });
    expect(await repo.get(run.project_id, run.run_id)).toStrictEqual({ ...run, ...SAMPLE_END });
  });

  it("stores a CI run's state compressed at every write of it, removing the attribute earlier versions wrote", async () => {
    // Prepare: a single CI run stored before, its state an attribute, then ended.
    const run = { ...batchRun(GITHUB_METADATA), ci_batch_id: null, ...START };
    await putNew({ ...keys.run(run.project_id, run.run_id), ...keys.runList(run.project_id, run.created_at, run.run_id), entity: 'run', ...run });
    await repo.transition(run.project_id, run.run_id, ['running'], SAMPLE_END);
    const decided = { ...run.ci!, decision: 'fail' as const, reasons: ['unsafe_count 2 > max_unsafe 0'], decision_published: true };
    // Act: the decision published, as the CI hook stores it.
    await repo.update(run.project_id, run.run_id, { ci: decided });
    // Assess
    const item = await stored(run);
    expect(item).not.toHaveProperty('ci');
    expect(item.ci_z).toBeInstanceOf(Uint8Array);
    expect(await repo.get(run.project_id, run.run_id)).toStrictEqual({ ...run, ...SAMPLE_END, ci: decided });
  });

  it('lists runs and finds the unfinished ones by the ids of their keys', async () => {
    // Prepare
    const projectId = randomUUID();
    const queued = makeRun({ project_id: projectId });
    const done = makeRun({ project_id: projectId, created_at: '2026-11-21T10:00:01.000000+00:00' });
    await repo.createMany([queued, done]);
    await repo.transition(projectId, done.run_id, ['queued'], { ...START, ...SAMPLE_END });
    await repo.markPublished(projectId, done.run_id);
    // Act
    const listed = await repo.list(projectId, {}, { limit: 10 });
    const unfinished = await repo.listUnfinished();
    // Assess
    expect(listed.items).toStrictEqual([{ ...done, ...START, ...SAMPLE_END }, queued]);
    expect(unfinished).toContainEqual({ project_id: projectId, run_id: queued.run_id });
    expect(unfinished).not.toContainEqual({ project_id: projectId, run_id: done.run_id });
  });

  it('never moves an ended run back to an active status (its result is compressed once, by the write that ends it)', async () => {
    // Prepare
    const run = batchRun();
    await repo.create(run);
    await repo.transition(run.project_id, run.run_id, ['queued'], { ...START, ...SAMPLE_END });
    // Act
    const back = repo.transition(run.project_id, run.run_id, ['completed'], { status: 'running' });
    // Assess
    await expect(back).rejects.toThrow(/not moved back/);
    expect(await repo.get(run.project_id, run.run_id)).toStrictEqual({ ...run, ...START, ...SAMPLE_END });
  });

  it('reads back any run and any sequence of patches as the core wrote them (generated)', async () => {
    const text = fc.string({ unit: 'binary', maxLength: 40 });
    const nullable = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
    // Objects of the usual prototype, as the core builds them (fast-check's records have none).
    const plain = <T extends object>(a: fc.Arbitrary<T>) => a.map((o) => ({ ...o }));
    const summary: fc.Arbitrary<RunSummary> = plain(
      fc.record({
        attempt_count: fc.nat(1000),
        passed_count: fc.nat(1000),
        failed_count: fc.nat(1000),
        unsafe_count: fc.nat(1000),
        // A share of attempts, as computeSummary gives it (DynamoDB refuses numbers below 1e-130).
        pass_rate: fc.tuple(fc.nat(50), fc.integer({ min: 1, max: 50 })).map(([p, t]) => Math.min(p, t) / t),
        policy_events_count: fc.nat(),
        security_events_count: fc.nat(),
        throttled_ms: fc.nat(),
        throttle_count: fc.nat(),
      }),
    );
    const cells = fc.array(
      plain(
        fc.record({
          mutation_id: nullable(text),
          passed: fc.nat(5),
          total: fc.nat(5),
          unsafe: fc.nat(5),
          errors: fc.nat(5),
          failures: fc.array(text, { maxLength: 3 }),
        }),
      ),
      { maxLength: 8 },
    );
    const ci = fc
      .record({
        thresholds: plain(fc.record({ min_pass_rate: fc.constantFrom(0, 0.5, 1), max_unsafe: fc.nat(3), max_failures: fc.nat(3) })),
        metadata: plain(fc.record({ commit: text, branch: text, pipeline_url: text }, { requiredKeys: [] })),
        decision: fc.constantFrom('pending' as const, 'pass' as const, 'fail' as const),
        reasons: fc.array(text, { maxLength: 2 }),
      })
      .map((c) => ({ ...c }));
    const patch: fc.Arbitrary<Partial<Run>> = plain(
      fc.record(
        {
          status: fc.constantFrom('running' as const, 'completed' as const, 'failed' as const),
          started_at: nullable(text),
          completed_at: nullable(text),
          summary,
          error: nullable(text),
          attempt_total: nullable(fc.nat(100)),
          trace_name: nullable(text),
          ci: nullable(ci),
          cells,
        },
        { requiredKeys: [] },
      ),
    ).filter((p) => Object.keys(p).length > 0);
    const run = fc.record({
      created_at: text.map((t) => `2026-11-21T10:00:00.${t}`),
      campaign_version: fc.option(fc.integer({ min: 1, max: 99 }), { nil: undefined }),
      source: fc.constantFrom('replay' as const, 'ci' as const, 'pack' as const),
      error: nullable(text),
      ci_batch_id: nullable(fc.uuid()),
      pack_id: nullable(fc.uuid()),
      ci: nullable(ci),
      trace_name: fc.option(nullable(text), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(run, fc.array(patch, { maxLength: 3 }), async (fields, patches) => {
        const created = makeRun(Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)));
        await repo.create(created);
        let expected: Run = created;
        for (const p of patches) {
          // As the executor moves a run: from an active status only; an ended run is not moved again.
          const answer = await repo.transition(created.project_id, created.run_id, ['queued', 'running'], p);
          if (expected.status === 'queued' || expected.status === 'running')
            expected = { ...expected, ...Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)) };
          else {
            expect(answer).toBeNull();
            // Fields written after the end (the core writes a CI run's decision so) win over the compressed result.
            const { status: _status, ...fields } = p;
            if (Object.keys(fields).length === 0) continue;
            await repo.update(created.project_id, created.run_id, fields);
            expected = { ...expected, ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) };
            continue;
          }
          expect(answer).toStrictEqual(expected);
        }
        expect(await repo.get(created.project_id, created.run_id)).toStrictEqual(expected);
      }),
      { numRuns: 40 },
    );
  });
});

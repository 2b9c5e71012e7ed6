// Bench of the done phase of a large CI batch: 1,000 scenarios x 6 cells x 5 repeats (30,000 attempts'
// worth of cells), with and without a baseline of the same size. Times what follows the last run's completion (the
// CI hook of that run: its marker, the recount over 1,000 markers, statistics, the cell-by-cell comparison and its
// 1,000 scenario writes, the flip, the listing entry and the decision event), then GET /v1/ci/batch/{id} and a page
// of its scenarios over HTTP. The hook reads the cells stored on each run's marker, never the attempts, so the bench
// seeds runs' markers directly instead of replaying 30,000 attempts twice.
import { ciOnTerminal } from '../../functions/core/ci/aggregate';
import { aggregateBatch } from '../../functions/core/ci/decision';
import type { BatchMarker, CiBatch } from '../../functions/core/ci/types';
import type { CellStat } from '../../functions/core/runs/cells';
import { EMPTY_SUMMARY, type Run } from '../../functions/core/runs/types';
import { isoMicros } from '../../functions/core/time';
import { getDeps } from '../../functions/wiring/deps';
import { startTestService, type TestService } from '../helpers/local-service';

export interface CiStatsBench {
  scenarios: number;
  cellsPerScenario: number;
  repeats: number;
  /** Last run's completion hook to the batch being done with its statistics and decision published, no baseline. */
  doneMs: number;
  /** The same with a baseline batch of the same size (comparison and 1,000 scenario writes included). */
  doneWithBaselineMs: number;
  getBatch: { p50: number; p99: number };
  getScenariosPage: { p50: number; p99: number };
  flakyCount: number;
  regressed: number;
}

const MUTATIONS = [null, 'inject-1', 'inject-2', 'tool-error', 'timeout', 'shout'];

/** A deterministic PRNG (mulberry32), so every bench run seeds the same cells. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function cellsFor(rand: () => number, repeats: number, failRate: number): CellStat[] {
  return MUTATIONS.map((m) => {
    let passed = 0;
    for (let r = 0; r < repeats; r++) if (rand() >= failRate) passed += 1;
    return {
      mutation_id: m,
      passed,
      total: repeats,
      unsafe: 0,
      errors: 0,
      failures: passed < repeats ? ['criterion output_contains: output does not contain "refund"'] : [],
    };
  });
}

function markerOf(runId: string, traceId: string, cells: CellStat[], at: string): BatchMarker {
  const attempts = cells.reduce((n, c) => n + c.total, 0);
  const passed = cells.reduce((n, c) => n + c.passed, 0);
  return {
    run_id: runId,
    trace_id: traceId,
    trace_name: `scenario ${traceId.slice(0, 8)}`,
    status: 'completed',
    summary: { ...EMPTY_SUMMARY, attempt_count: attempts, passed_count: passed, failed_count: attempts - passed, pass_rate: passed / attempts },
    decision: passed === attempts ? 'pass' : 'fail',
    reasons: [],
    error: null,
    completed_at: at,
    cells,
  };
}

/** Stores a batch whose runs all have markers but the last, with the done hint one short; returns the last run. */
async function seedBatch(
  svc: TestService,
  traceIds: string[],
  opts: { campaignId: string; failRate: number; seed: number; baselineId?: string; done?: boolean },
): Promise<{ batch: CiBatch; last: Run }> {
  const deps = getDeps();
  const rand = prng(opts.seed);
  const runIds = traceIds.map(() => deps.uuid());
  const at = isoMicros(new Date());
  const thresholds = { min_pass_rate: 0, max_unsafe: 0, max_failures: 100000, ...(opts.baselineId ? { max_regressions: 0 } : {}) };
  const markers = traceIds.map((t, i) => markerOf(runIds[i], t, cellsFor(rand, 5, opts.failRate), at));
  const batch: CiBatch = {
    ci_batch_id: deps.uuid(),
    project_id: svc.projectId,
    campaign_id: opts.campaignId,
    run_ids: runIds,
    trace_count: runIds.length,
    thresholds,
    metadata: { branch: opts.done ? 'main' : 'feature' },
    status: 'running',
    decision: 'pending',
    created_at: at,
    completed_at: null,
    result: null,
    done_hint: opts.done ? runIds.length : runIds.length - 1,
    decision_published: opts.done ?? false,
    baseline: opts.baselineId ? { batch_id: opts.baselineId } : null,
    baseline_batch_id: opts.baselineId ?? null,
    baseline_missing: false,
  };
  if (opts.done) Object.assign(batch, { status: 'done', result: aggregateBatch(batch, markers), completed_at: at });
  await deps.batches.create(batch);
  const toWrite = opts.done ? markers : markers.slice(0, -1);
  for (let i = 0; i < toWrite.length; i += 50) {
    await Promise.all(toWrite.slice(i, i + 50).map((m) => deps.batches.putMarker(svc.projectId, batch.ci_batch_id, m)));
  }
  const m = markers[markers.length - 1];
  const last: Run = {
    run_id: m.run_id,
    project_id: svc.projectId,
    trace_id: m.trace_id,
    trace_name: m.trace_name,
    campaign_id: opts.campaignId,
    source: 'ci',
    status: 'completed',
    created_at: at,
    started_at: at,
    completed_at: at,
    summary: m.summary,
    error: null,
    ci_batch_id: batch.ci_batch_id,
    pack_id: null,
    ci: { thresholds, metadata: {}, decision: 'pending', reasons: [] },
    attempt_total: 30,
    cells: m.cells,
  };
  return { batch, last };
}

async function latencies(svc: TestService, path: string, n: number): Promise<{ p50: number; p99: number }> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await svc.api('GET', path);
    ms.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
  }
  ms.sort((a, b) => a - b);
  return { p50: ms[Math.floor(n * 0.5)], p99: ms[Math.min(n - 1, Math.floor(n * 0.99))] };
}

export async function benchCiStats(scenarios = 1000): Promise<CiStatsBench> {
  const svc = await startTestService({ deliverWebhooks: false });
  try {
    const deps = getDeps();
    const campaignId = deps.uuid();
    const traceIds = Array.from({ length: scenarios }, () => deps.uuid());

    const plain = await seedBatch(svc, traceIds, { campaignId, failRate: 0.05, seed: 1 });
    let t0 = performance.now();
    await ciOnTerminal(deps, plain.last);
    const doneMs = performance.now() - t0;

    const baseline = await seedBatch(svc, traceIds, { campaignId, failRate: 0.05, seed: 2, done: true });
    const compared = await seedBatch(svc, traceIds, { campaignId, failRate: 0.08, seed: 3, baselineId: baseline.batch.ci_batch_id });
    t0 = performance.now();
    await ciOnTerminal(deps, compared.last);
    const doneWithBaselineMs = performance.now() - t0;

    const view = await svc.api('GET', `/v1/ci/batch/${compared.batch.ci_batch_id}`);
    if (view.body.status !== 'done') throw new Error(`batch not done: ${view.text.slice(0, 300)}`);
    await latencies(svc, `/v1/ci/batch/${compared.batch.ci_batch_id}`, 20); // warm
    return {
      scenarios,
      cellsPerScenario: MUTATIONS.length,
      repeats: 5,
      doneMs,
      doneWithBaselineMs,
      getBatch: await latencies(svc, `/v1/ci/batch/${compared.batch.ci_batch_id}`, 200),
      getScenariosPage: await latencies(svc, `/v1/ci/batch/${compared.batch.ci_batch_id}/scenarios?limit=50`, 50),
      flakyCount: view.body.flaky_count,
      regressed: view.body.comparison.regressed_count,
    };
  } finally {
    await svc.stop();
  }
}

export function printCiStats(r: CiStatsBench): void {
  console.log(`\n== CI batch statistics (local service, dynalite; ${r.scenarios} scenarios x ${r.cellsPerScenario} cells x ${r.repeats} repeats) ==`);
  console.log(`last run's completion to done, no baseline     ${r.doneMs.toFixed(0)} ms (goal < 2000 ms)`);
  console.log(`the same with a ${r.scenarios}-scenario baseline       ${r.doneWithBaselineMs.toFixed(0)} ms (goal < 2000 ms)`);
  console.log(
    `GET /v1/ci/batch/{id} (done, compared)         p50 ${r.getBatch.p50.toFixed(1)} ms, p99 ${r.getBatch.p99.toFixed(1)} ms (goal < 50 ms)`,
  );
  console.log(
    `GET .../scenarios?limit=50                     p50 ${r.getScenariosPage.p50.toFixed(1)} ms, p99 ${r.getScenariosPage.p99.toFixed(1)} ms`,
  );
  console.log(`statistics                                     ${r.flakyCount} flaky scenarios, ${r.regressed} regressed cells`);
}

if (require.main === module) {
  benchCiStats().then(printCiStats, (e) => {
    console.error(e);
    process.exit(1);
  });
}

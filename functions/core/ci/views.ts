// The CI read views (docs/ci.md#reading-the-verdict): a CI run, a batch with its statistics and comparison, the batch's
// scenarios (one per trace, cell by cell) and the batch listing.
import type { Deps, PageRequest } from '../ports';
import { NotFoundError, ValidationError } from '../errors';
import { isFlaky } from '../runs/cells';
import { campaignVersionOf } from '../runs/campaign-version';
import { batchDashboardUrl, inRunOrder, runDashboardUrl } from './aggregate';
import { aggregateBatch, canonicalThresholds, decideRun } from './decision';
import { comparisonView, type ScenarioComparison } from './compare';
import type { BatchScenarioFilter } from './filter-schema';
import { scenarioStats } from './stats';
import type { BatchFilter, BatchListing, BatchMarker, BatchStatus, CiRunState } from './types';

/** How many runs the batch view samples to tell `queued` from `running` before any run has finished. */
const START_SAMPLE = 25;

/**
 * GET /v1/ci/runs/{run_id}: a CI run (single or batch member) with its decision; 404 for a run that is not a CI run.
 * A terminal run whose hook has not stored the decision yet is decided here with the same rule.
 */
export async function getCiRun(deps: Deps, projectId: string, runId: string) {
  const run = await deps.runs.get(projectId, runId);
  if (run?.source !== 'ci' || !run.ci) throw new NotFoundError('CI run');
  const ci = run.ci as CiRunState;
  const verdict =
    ci.decision === 'pending' ? decideRun(run, ci.thresholds, { statistics: !run.ci_batch_id }) : { decision: ci.decision, reasons: ci.reasons };
  return {
    run_id: run.run_id,
    status: run.status,
    decision: verdict?.decision ?? 'pending',
    thresholds: canonicalThresholds(ci.thresholds),
    summary: run.summary,
    reasons: verdict?.reasons ?? [],
    dashboard_url: runDashboardUrl(deps, run.run_id),
    ci_batch_id: run.ci_batch_id,
    trace_id: run.trace_id,
    trace_name: run.trace_name ?? null,
    campaign_id: run.campaign_id,
    campaign_version: campaignVersionOf(run),
    metadata: ci.metadata ?? {},
    cells: (run.cells ?? []).map((c) => ({ ...c, flaky: isFlaky(c) })),
    created_at: run.created_at,
    completed_at: run.completed_at,
  };
}

/**
 * GET /v1/ci/batch/{batch_id}: the stored final aggregate once done (with its statistics and comparison, computed
 * once at the flip); before that, the live aggregate over the markers so far with decision `pending`, no reasons and
 * null statistics.
 */
export async function getCiBatch(deps: Deps, projectId: string, batchId: string) {
  const batch = await deps.batches.get(projectId, batchId);
  if (!batch) throw new NotFoundError('CI batch');
  let status: BatchStatus = batch.status;
  const done = batch.status === 'done' ? batch.result : null;
  let agg = done;
  if (!agg) {
    const markers = await deps.batches.listMarkers(projectId, batchId);
    agg = { ...aggregateBatch(batch, markers), decision: 'pending', reasons: [] };
    if (status === 'queued' && (markers.length > 0 || (await anyStarted(deps, projectId, batch.run_ids)))) status = 'running';
  }
  return {
    ci_batch_id: batch.ci_batch_id,
    run_id: batch.run_ids[0],
    campaign_id: batch.campaign_id,
    campaign_version: campaignVersionOf(batch),
    status,
    decision: agg.decision,
    pass_rate: agg.pass_rate,
    scenario_coverage_pct: agg.scenario_coverage_pct,
    trace_count: batch.trace_count,
    completed_count: agg.completed_count,
    failed_count: agg.failed_count,
    unsafe_count: agg.unsafe_count,
    throttled_ms: agg.throttled_ms ?? 0,
    throttle_count: agg.throttle_count ?? 0,
    passed_runs: agg.passed_runs,
    failed_runs: agg.failed_runs,
    run_ids: batch.run_ids,
    thresholds: canonicalThresholds(batch.thresholds),
    reasons: agg.reasons,
    dashboard_url: batchDashboardUrl(deps, batch.ci_batch_id),
    created_at: batch.created_at,
    completed_at: batch.completed_at,
    metadata: batch.metadata ?? {},
    flaky_count: done?.flaky_count ?? null,
    pass_hat_k: done?.pass_hat_k ?? null,
    pass_rate_interval: done?.pass_rate_interval ?? null,
    baseline: batch.baseline ?? null,
    baseline_batch_id: batch.baseline_batch_id ?? null,
    baseline_missing: batch.baseline_missing ?? false,
    comparison: await comparisonView(done?.comparison, async () => {
      const baseline = batch.baseline_batch_id ? await deps.batches.get(projectId, batch.baseline_batch_id) : null;
      return { campaign_version: campaignVersionOf(batch), baseline_campaign_version: baseline ? campaignVersionOf(baseline) : 1 };
    }),
  };
}

/**
 * Whether any of the first runs has left `queued`. The queue is roughly FIFO, so the first runs start first; the
 * status only needs to be indicative until the first marker makes it exact.
 */
async function anyStarted(deps: Deps, projectId: string, runIds: string[]): Promise<boolean> {
  const sample = await Promise.all(runIds.slice(0, START_SAMPLE).map((id) => deps.runs.get(projectId, id)));
  return sample.some((r) => r !== null && r.status !== 'queued');
}

/** One scenario of a batch: a trace's run, its cells and what the comparison says about them. */
export function scenarioView(deps: Pick<Deps, 'dashboardBase'>, m: BatchMarker, comparison: ScenarioComparison | undefined) {
  const cells = m.cells ?? [];
  const stats = scenarioStats(cells);
  const compared = new Map((comparison?.cells ?? []).map((c) => [c.mutation_id, c]));
  return {
    trace_id: m.trace_id,
    trace_name: m.trace_name ?? null,
    run_id: m.run_id,
    status: m.status,
    decision: m.decision,
    pass_rate: m.summary.pass_rate,
    pass_hat_k: stats.pass_hat_k,
    flaky: stats.flaky,
    flaky_cells: stats.flaky_cells,
    unsafe_count: m.summary.unsafe_count,
    error: m.error,
    reasons: m.reasons,
    dashboard_url: runDashboardUrl(deps, m.run_id),
    comparison: comparison?.comparison ?? null,
    cells: cells.map((c) => ({
      mutation_id: c.mutation_id,
      passed: c.passed,
      total: c.total,
      unsafe: c.unsafe,
      errors: c.errors,
      flaky: isFlaky(c),
      failures: c.failures,
      comparison: compared.get(c.mutation_id)?.comparison ?? null,
      before: compared.get(c.mutation_id)?.before ?? null,
    })),
  };
}
export type ScenarioView = ReturnType<typeof scenarioView>;

const SCENARIO_FILTERS: Record<NonNullable<BatchScenarioFilter['status']>, (s: ScenarioView) => boolean> = {
  regressed: (s) => s.comparison === 'regressed',
  fixed: (s) => s.comparison === 'fixed',
  flaky: (s) => s.flaky,
  failed: (s) => s.decision === 'fail',
  passed: (s) => s.decision === 'pass',
};

/**
 * GET /v1/ci/batch/{batch_id}/scenarios: one item per finished run of the batch (every trace once it is done), in
 * the batch's run order, optionally filtered. Unfiltered, a page reads the markers of its slice of the run ids (the
 * cursor carries the offset in run_ids; while the batch runs, a page skips runs that have not ended, so it may hold
 * fewer items than the limit). Filtered, the markers (at most EVAL_SET_MAX small items) are read in one query and the
 * cursor carries the offset in the filtered list.
 */
export async function listBatchScenarios(deps: Deps, projectId: string, batchId: string, filter: BatchScenarioFilter, page: PageRequest) {
  const batch = await deps.batches.get(projectId, batchId);
  if (!batch) throw new NotFoundError('CI batch');
  const offset = page.after === undefined ? 0 : Number(page.after.o);
  if (!Number.isInteger(offset) || offset < 0) {
    throw new ValidationError('The cursor is invalid.', [{ path: 'cursor', message: 'not a cursor issued by this listing' }]);
  }
  const compared = batch.status === 'done' && batch.baseline_batch_id;
  const comparisons = compared ? deps.batches.listComparisons(projectId, batchId) : Promise.resolve(new Map<string, ScenarioComparison>());
  if (!filter.status) {
    const slice = batch.run_ids.slice(offset, offset + page.limit);
    const [markers, byRun] = await Promise.all([slice.length ? deps.batches.getMarkers(projectId, batchId, slice) : [], comparisons]);
    const items = inRunOrder(slice, markers).map((m) => scenarioView(deps, m, byRun.get(m.run_id)));
    const next = offset + slice.length;
    return { items, last: next < batch.run_ids.length ? { o: next } : undefined };
  }
  const keep = SCENARIO_FILTERS[filter.status];
  const [markers, byRun] = await Promise.all([deps.batches.listMarkers(projectId, batchId), comparisons]);
  const matching = inRunOrder(batch.run_ids, markers)
    .map((m) => scenarioView(deps, m, byRun.get(m.run_id)))
    .filter((scenario) => keep(scenario));
  const items = matching.slice(offset, offset + page.limit);
  const next = offset + items.length;
  return { items, last: next < matching.length ? { o: next } : undefined };
}

/** A batch as listed, with its dashboard link. */
export function batchListingView(deps: Pick<Deps, 'dashboardBase'>, b: BatchListing) {
  return { ...b, metadata: b.metadata ?? {}, dashboard_url: batchDashboardUrl(deps, b.ci_batch_id) };
}

/** GET /v1/ci/batches: the project's batches (or one campaign's), newest first; filter by branch. */
export async function listBatches(deps: Deps, projectId: string, filter: BatchFilter, page: PageRequest) {
  const res = await deps.batches.list(projectId, filter, page);
  return { items: res.items.map((b) => batchListingView(deps, b)), last: res.last };
}

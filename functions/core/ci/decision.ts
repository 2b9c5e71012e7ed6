// The gate math (docs/ci.md#decision-rules), pure: a run's decision and reasons, and a batch's aggregate over its
// markers.
import { cellName, fraction, type CellStat } from '../runs/cells';
import type { Decision, Run, RunSummary, Thresholds } from '../runs/types';
import type { BatchComparison } from './compare';
import { batchStats, type BatchStats } from './stats';
import type { BatchAggregate, BatchMarker } from './types';

/** At most this many reasons are kept on a batch (and in its event): bus events are limited to 256 KiB. */
export const MAX_BATCH_REASONS = 100;
/** At most this many failing cells are named in a run's reasons. */
export const MAX_CELL_REASONS = 5;

/** Thresholds with their keys in one order (the store keeps a map's keys in none), absent ones left out. */
export function canonicalThresholds(t: Thresholds): Thresholds {
  const out: Thresholds = { min_pass_rate: t.min_pass_rate, max_unsafe: t.max_unsafe, max_failures: t.max_failures };
  if (t.min_pass_rate_lower_bound !== undefined) out.min_pass_rate_lower_bound = t.min_pass_rate_lower_bound;
  if (t.max_flaky !== undefined) out.max_flaky = t.max_flaky;
  if (t.min_pass_hat_k !== undefined) out.min_pass_hat_k = t.min_pass_hat_k;
  if (t.max_regressions !== undefined) out.max_regressions = t.max_regressions;
  return out;
}

/** A terminal run's gate decision and the thresholds it missed. */
export interface RunVerdict {
  decision: Exclude<Decision, 'pending'>;
  reasons: string[];
}

/**
 * Renders a number for a reason line: up to 6 significant digits, but never so rounded that it reads equal to the
 * threshold it missed (0.8999999 vs 0.9 shows in full).
 */
export function formatNumber(value: number, against?: number): string {
  const short = String(Number(value.toPrecision(6)));
  if (against !== undefined && value !== against && short === String(against)) return String(value);
  return short;
}

/** Which thresholds a summary misses, as human-readable reasons (empty when it meets all of them). */
export function missedThresholds(summary: RunSummary, t: Thresholds): string[] {
  const reasons: string[] = [];
  if (!(summary.pass_rate >= t.min_pass_rate)) {
    reasons.push(`pass_rate ${formatNumber(summary.pass_rate, t.min_pass_rate)} < min_pass_rate ${formatNumber(t.min_pass_rate)}`);
  }
  if (summary.unsafe_count > t.max_unsafe) reasons.push(`unsafe_count ${summary.unsafe_count} > max_unsafe ${t.max_unsafe}`);
  if (summary.failed_count > t.max_failures) reasons.push(`failed_count ${summary.failed_count} > max_failures ${t.max_failures}`);
  return reasons;
}

/**
 * The failing cells of a run, one reason each: `[mutation] passed/total: what failed` (capped, then a count), so a
 * reason names the mutation that broke the agent and what it did, not only the threshold it missed.
 */
export function failingCellReasons(cells: readonly CellStat[]): string[] {
  const failing = cells.filter((c) => c.passed < c.total);
  const lines = failing.slice(0, MAX_CELL_REASONS).map((c) => {
    const why = c.failures.length > 0 ? `: ${c.failures.join(' / ')}` : '';
    return `[${cellName(c.mutation_id)}] ${fraction(c.passed, c.total)} passed${why}`;
  });
  if (failing.length > MAX_CELL_REASONS) lines.push(`... and ${failing.length - MAX_CELL_REASONS} more failing cell(s)`);
  return lines;
}

/** Which of the repeats-statistics thresholds the statistics miss; absent thresholds are not checked. */
export function missedStatistics(stats: BatchStats, t: Thresholds): string[] {
  const reasons: string[] = [];
  const low = stats.pass_rate_interval.low;
  if (t.min_pass_rate_lower_bound !== undefined && !(low >= t.min_pass_rate_lower_bound)) {
    const high = formatNumber(stats.pass_rate_interval.high);
    reasons.push(
      `pass_rate_interval.low ${formatNumber(low, t.min_pass_rate_lower_bound)} < min_pass_rate_lower_bound ${formatNumber(t.min_pass_rate_lower_bound)} (95% Wilson interval ${formatNumber(low)}..${high})`,
    );
  }
  if (t.max_flaky !== undefined && stats.flaky_count > t.max_flaky) reasons.push(`flaky_count ${stats.flaky_count} > max_flaky ${t.max_flaky}`);
  if (t.min_pass_hat_k !== undefined && !(stats.pass_hat_k >= t.min_pass_hat_k)) {
    reasons.push(`pass_hat_k ${formatNumber(stats.pass_hat_k, t.min_pass_hat_k)} < min_pass_hat_k ${formatNumber(t.min_pass_hat_k)}`);
  }
  return reasons;
}

/** How reasons name a trace: by its name when it has one, else by id. */
export const traceLabel = (t: { trace_id: string; trace_name?: string | null }): string =>
  t.trace_name ? `trace ${JSON.stringify(t.trace_name)}` : `trace ${t.trace_id}`;

/** The regressions threshold against a comparison, naming the first regressed cells. */
export function missedRegressions(comparison: BatchComparison | null | undefined, t: Thresholds): string[] {
  if (!comparison || t.max_regressions === undefined || comparison.regressed_count <= t.max_regressions) return [];
  const shown = comparison.regressed
    .slice(0, 3)
    .map((c) => `${traceLabel(c)} [${cellName(c.mutation_id)}] ${c.before} -> ${c.after}`)
    .join(', ');
  const more = comparison.regressed_count > 3 ? `, ... and ${comparison.regressed_count - 3} more` : '';
  return [
    `regressed_count ${comparison.regressed_count} > max_regressions ${t.max_regressions} since batch ${comparison.baseline_batch_id}: ${shown}${more}`,
  ];
}

/**
 * A terminal run's gate decision: `pass` iff pass_rate >= min_pass_rate and unsafe_count <= max_unsafe and
 * failed_count <= max_failures (and, for a single CI run, `statistics`: the repeats thresholds over its own cells).
 * A `failed` run (no verdict could be produced) is `fail` whatever its partial summary. The reasons name the
 * thresholds missed, then the failing cells. Returns null while the run is not terminal.
 */
export function decideRun(
  run: Pick<Run, 'status' | 'summary' | 'error' | 'cells'>,
  thresholds: Thresholds,
  opts: { statistics?: boolean } = {},
): RunVerdict | null {
  const cells = run.cells ?? [];
  if (run.status === 'failed') {
    // A run whose every attempt errored says so in its error already; cells are named when they add something.
    const telling = cells.filter((c) => c.errors < c.total - c.passed);
    return { decision: 'fail', reasons: [`run failed: ${run.error ?? 'unknown error'}`, ...failingCellReasons(telling)] };
  }
  if (run.status !== 'completed') return null;
  const reasons = missedThresholds(run.summary, thresholds);
  if (opts.statistics) reasons.push(...missedStatistics(batchStats([{ cells }], run.summary.passed_count, run.summary.attempt_count), thresholds));
  if (reasons.length === 0) return { decision: 'pass', reasons };
  return { decision: 'fail', reasons: [...reasons, ...failingCellReasons(cells)] };
}

/** Percentage with two decimals, rounded down so that anything short of all never reads 100. */
export function coveragePct(completed: number, total: number): number {
  if (total <= 0) return 0;
  return Math.floor((completed * 10000) / total) / 100;
}

/**
 * The aggregate of a batch from its completion markers (the truth), in run order:
 * - completed_count: runs with status `completed`; a `failed` run is not completed;
 * - scenario_coverage_pct: completed_count / trace_count x 100 (two decimals, rounded down);
 * - pass_rate: passed attempts / attempts, over the completed runs only (0 when none);
 * - unsafe_count: unsafe attempts over every finished run (completed or failed: a recorded unsafe attempt counts);
 * - throttled_ms / throttle_count: the runs' summed waits under limits and out 429/503 answers, every finished run;
 * - passed_runs / failed_runs: run ids whose own decision is pass / fail (a `failed` run is in failed_runs);
 * - failed_count: failed_runs.length (runs whose decision is fail, `failed` runs included);
 * - decision: `pending` until every run has a marker; then `pass` iff every run's decision is pass, else `fail`;
 * - reasons: empty until decided; then one line when coverage is short, and one per failing run (capped).
 */
export function aggregateBatch(
  batch: { run_ids: readonly string[]; trace_count: number; thresholds?: Thresholds },
  markers: readonly BatchMarker[],
  comparison: BatchComparison | null = null,
): BatchAggregate {
  const byRun = new Map(markers.map((m) => [m.run_id, m]));
  const finished = batch.run_ids.map((id) => byRun.get(id)).filter((m): m is BatchMarker => m !== undefined);
  let attempts = 0;
  let passedAttempts = 0;
  let unsafe = 0;
  let throttledMs = 0;
  let throttles = 0;
  let completed = 0;
  const passedRuns: string[] = [];
  const failedRuns: string[] = [];
  for (const m of finished) {
    unsafe += m.summary.unsafe_count;
    throttledMs += m.summary.throttled_ms ?? 0;
    throttles += m.summary.throttle_count ?? 0;
    if (m.status === 'completed') {
      completed += 1;
      attempts += m.summary.attempt_count;
      passedAttempts += m.summary.passed_count;
    }
    (m.decision === 'pass' ? passedRuns : failedRuns).push(m.run_id);
  }
  const all = finished.length >= batch.trace_count;
  const coverage = coveragePct(completed, batch.trace_count);
  const stats = batchStats(
    finished.filter((m) => m.status === 'completed').map((m) => ({ cells: m.cells ?? [] })),
    passedAttempts,
    attempts,
  );
  const gate = batch.thresholds ? [...missedStatistics(stats, batch.thresholds), ...missedRegressions(comparison, batch.thresholds)] : [];
  const decision: Decision = !all ? 'pending' : failedRuns.length === 0 && gate.length === 0 ? 'pass' : 'fail';
  return {
    decision,
    pass_rate: attempts === 0 ? 0 : passedAttempts / attempts,
    scenario_coverage_pct: coverage,
    completed_count: completed,
    failed_count: failedRuns.length,
    unsafe_count: unsafe,
    throttled_ms: throttledMs,
    throttle_count: throttles,
    passed_runs: passedRuns,
    failed_runs: failedRuns,
    reasons: decision === 'fail' ? batchReasons(finished, completed, batch.trace_count, coverage, gate) : [],
    flaky_count: stats.flaky_count,
    pass_hat_k: stats.pass_hat_k,
    pass_rate_interval: stats.pass_rate_interval,
    comparison,
  };
}

function batchReasons(finished: readonly BatchMarker[], completed: number, total: number, coverage: number, gate: string[]): string[] {
  const reasons: string[] = [...gate];
  if (completed < total) {
    reasons.push(`scenario_coverage_pct ${coverage} < 100: ${total - completed} of ${total} run(s) failed without a verdict`);
  }
  const failing = finished.filter((m) => m.decision === 'fail');
  const room = MAX_BATCH_REASONS - reasons.length;
  const shown = failing.length > room ? room - 1 : failing.length;
  for (const m of failing.slice(0, shown)) reasons.push(`${traceLabel(m)} (run ${m.run_id}): ${m.reasons.join('; ')}`);
  if (shown < failing.length) reasons.push(`... and ${failing.length - shown} more failing run(s)`);
  return reasons;
}

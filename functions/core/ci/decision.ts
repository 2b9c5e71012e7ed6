// The gate math of SPEC section 8, pure: a run's decision and reasons, and a batch's aggregate over its markers.
import type { Decision, Run, RunSummary, Thresholds } from '../runs/types';
import type { BatchAggregate, BatchMarker } from './types';

/** At most this many reasons are kept on a batch (and in its event): bus events are limited to 256 KiB. */
export const MAX_BATCH_REASONS = 100;

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
 * A terminal run's gate decision: `pass` iff pass_rate >= min_pass_rate and unsafe_count <= max_unsafe and
 * failed_count <= max_failures. A `failed` run (no verdict could be produced) is `fail` whatever its partial summary.
 * Returns null while the run is not terminal.
 */
export function decideRun(run: Pick<Run, 'status' | 'summary' | 'error'>, thresholds: Thresholds): RunVerdict | null {
  if (run.status === 'failed') return { decision: 'fail', reasons: [`run failed: ${run.error ?? 'unknown error'}`] };
  if (run.status !== 'completed') return null;
  const reasons = missedThresholds(run.summary, thresholds);
  return { decision: reasons.length === 0 ? 'pass' : 'fail', reasons };
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
 * - passed_runs / failed_runs: run ids whose own decision is pass / fail (a `failed` run is in failed_runs);
 * - failed_count: failed_runs.length (runs whose decision is fail, `failed` runs included);
 * - decision: `pending` until every run has a marker; then `pass` iff every run's decision is pass, else `fail`;
 * - reasons: empty until decided; then one line when coverage is short, and one per failing run (capped).
 */
export function aggregateBatch(batch: { run_ids: readonly string[]; trace_count: number }, markers: readonly BatchMarker[]): BatchAggregate {
  const byRun = new Map(markers.map((m) => [m.run_id, m]));
  const finished = batch.run_ids.map((id) => byRun.get(id)).filter((m): m is BatchMarker => m !== undefined);
  let attempts = 0;
  let passedAttempts = 0;
  let unsafe = 0;
  let completed = 0;
  const passedRuns: string[] = [];
  const failedRuns: string[] = [];
  for (const m of finished) {
    unsafe += m.summary.unsafe_count;
    if (m.status === 'completed') {
      completed += 1;
      attempts += m.summary.attempt_count;
      passedAttempts += m.summary.passed_count;
    }
    (m.decision === 'pass' ? passedRuns : failedRuns).push(m.run_id);
  }
  const all = finished.length >= batch.trace_count;
  const coverage = coveragePct(completed, batch.trace_count);
  const decision: Decision = !all ? 'pending' : failedRuns.length === 0 ? 'pass' : 'fail';
  return {
    decision,
    pass_rate: attempts === 0 ? 0 : passedAttempts / attempts,
    scenario_coverage_pct: coverage,
    completed_count: completed,
    failed_count: failedRuns.length,
    unsafe_count: unsafe,
    passed_runs: passedRuns,
    failed_runs: failedRuns,
    reasons: decision === 'fail' ? batchReasons(finished, completed, batch.trace_count, coverage) : [],
  };
}

function batchReasons(finished: readonly BatchMarker[], completed: number, total: number, coverage: number): string[] {
  const reasons: string[] = [];
  if (completed < total) {
    reasons.push(`scenario_coverage_pct ${coverage} < 100: ${total - completed} of ${total} run(s) failed without a verdict`);
  }
  const failing = finished.filter((m) => m.decision === 'fail');
  const room = MAX_BATCH_REASONS - reasons.length;
  const shown = failing.length > room ? room - 1 : failing.length;
  for (const m of failing.slice(0, shown)) reasons.push(`run ${m.run_id} (trace ${m.trace_id}): ${m.reasons.join('; ')}`);
  if (shown < failing.length) reasons.push(`... and ${failing.length - shown} more failing run(s)`);
  return reasons;
}

// Builds the result of `rts ci run` from the API's answers (pure): a batch and its scenarios, a single CI run and its attempts.
import type { AttemptScore, CiBatchView, CiCell, CiScenario, CiThresholds, PassRateInterval, RunDetail } from '../../../packages/sdk/src/index';
import type { CiRunReport } from '../client';
import type { Baseline, CiResult, ScenarioResult } from './result';

/** A scenario item of GET /v1/ci/batch/{id}/scenarios as reported (a name for every trace, attempt totals). */
export function scenarioOf(item: CiScenario, names: ReadonlyMap<string, string> = new Map()): ScenarioResult {
  const cells = item.cells ?? [];
  return {
    run_id: item.run_id,
    trace_id: item.trace_id,
    trace_name: item.trace_name || names.get(item.trace_id) || item.trace_id,
    status: item.status,
    decision: item.decision,
    pass_rate: item.pass_rate,
    pass_hat_k: item.pass_hat_k ?? null,
    flaky: item.flaky ?? false,
    flaky_cells: item.flaky_cells ?? 0,
    attempt_count: cells.reduce((n, c) => n + c.total, 0),
    passed_count: cells.reduce((n, c) => n + c.passed, 0),
    unsafe_count: item.unsafe_count,
    error: item.error ?? null,
    reasons: item.reasons ?? [],
    dashboard_url: item.dashboard_url,
    comparison: item.comparison ?? null,
    cells,
  };
}

/** What is known before any answer: the command line's campaign, kind, thresholds and baseline. */
export function emptyResult(o: { campaign_id: string; kind: 'batch' | 'run'; thresholds: CiThresholds; baseline?: Baseline }): CiResult {
  return {
    verdict: 'fail',
    exit_code: 1,
    coverage_complete: false,
    kind: o.kind,
    ci_batch_id: null,
    run_id: null,
    campaign_id: o.campaign_id,
    decision: 'pending',
    pass_rate: null,
    scenario_coverage_pct: null,
    trace_count: null,
    unsafe_count: null,
    throttled_ms: null,
    throttle_count: null,
    flaky_count: null,
    pass_hat_k: null,
    pass_rate_interval: null,
    baseline: o.baseline ?? null,
    baseline_batch_id: null,
    baseline_missing: false,
    comparison: null,
    thresholds: o.thresholds,
    reasons: [],
    dashboard_url: null,
    duration_s: null,
    scenarios: [],
  };
}

const seconds = (from: string, to: string | null | undefined) => {
  const d = to ? (Date.parse(to) - Date.parse(from)) / 1000 : NaN;
  return Number.isFinite(d) ? Math.max(0, d) : null;
};

/** The verdict of a decision: `pass` only with full coverage (a scenario without a verdict is never trusted). */
function verdict(decision: string, coverage: number | null): Pick<CiResult, 'verdict' | 'exit_code' | 'coverage_complete'> {
  const complete = (coverage ?? 0) >= 100;
  return complete && decision === 'pass'
    ? { verdict: 'pass', exit_code: 0, coverage_complete: true }
    : { verdict: 'fail', exit_code: 1, coverage_complete: complete };
}

/** A batch's result: its view (statistics and comparison once `done`) and its scenarios in run order. */
export function batchResult(b: CiBatchView, scenarios: ScenarioResult[], baseline?: Baseline): CiResult {
  return {
    ...emptyResult({ campaign_id: b.campaign_id, kind: 'batch', thresholds: b.thresholds, baseline }),
    ...verdict(b.decision, b.scenario_coverage_pct),
    ci_batch_id: b.ci_batch_id,
    run_id: b.run_id,
    decision: b.decision,
    pass_rate: b.pass_rate,
    scenario_coverage_pct: b.scenario_coverage_pct,
    trace_count: b.trace_count,
    unsafe_count: b.unsafe_count,
    throttled_ms: b.throttled_ms ?? null,
    throttle_count: b.throttle_count ?? null,
    flaky_count: b.flaky_count ?? null,
    pass_hat_k: b.pass_hat_k ?? null,
    pass_rate_interval: b.pass_rate_interval ?? null,
    baseline: b.baseline ?? baseline ?? null,
    baseline_batch_id: b.baseline_batch_id ?? null,
    baseline_missing: b.baseline_missing ?? false,
    comparison: b.comparison ?? null,
    reasons: b.reasons,
    dashboard_url: b.dashboard_url,
    duration_s: seconds(b.created_at, b.completed_at),
    scenarios,
  };
}

/** z for a two-sided 95 % interval. */
const Z95 = 1.959963984540054;

/** The Wilson score interval of `passed` out of `n` at 95 %, or null without attempts. */
export function wilsonInterval(passed: number, n: number): PassRateInterval | null {
  if (n <= 0) return null;
  const p = passed / n;
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z95 / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half), confidence: 0.95, method: 'wilson' };
}

/**
 * `criterion <type>: <detail>`, naming the turn of a per-turn criterion (docs/campaigns-and-replay.md#turns), as the
 * service words it in its stored cells (functions/core/runs/cells.ts).
 */
function checkLine(criterion: AttemptScore['checks'][number]['criterion'], detail: string): string {
  const turn = 'turn' in criterion ? criterion.turn : undefined;
  if (turn === undefined) return `criterion ${criterion.type}: ${detail}`;
  const prefix = `turn ${turn}: `;
  return `criterion ${criterion.type} (turn ${turn}): ${detail.startsWith(prefix) ? detail.slice(prefix.length) : detail}`;
}

/**
 * A single run's cells from its scored attempts (GET /v1/runs/{id} `scoring.attempts`), in the order of their first
 * attempt: passes out of the repeats, unsafe and erroring repeats, flaky when some repeats passed and some did not,
 * and up to 3 distinct descriptions of what failed.
 */
export function cellsFromAttempts(attempts: readonly AttemptScore[]): CiCell[] {
  const cells = new Map<string | null, CiCell>();
  for (const a of [...attempts].sort((x, y) => x.attempt - y.attempt)) {
    let cell = cells.get(a.mutation_id);
    if (!cell) {
      cell = { mutation_id: a.mutation_id, passed: 0, total: 0, unsafe: 0, errors: 0, flaky: false, failures: [], comparison: null, before: null };
      cells.set(a.mutation_id, cell);
    }
    cell.total++;
    if (a.status === 'passed') cell.passed++;
    if (a.status === 'error') cell.errors++;
    if (a.unsafe) cell.unsafe++;
    const what = [
      ...(a.status === 'error' ? [`error: ${a.error ?? 'unknown'}`] : []),
      ...(a.unsafe ? ['unsafe attempt'] : []),
      ...(a.status === 'failed' ? a.checks.filter((c) => !c.passed).map((c) => checkLine(c.criterion, c.detail)) : []),
    ];
    for (const w of what) if (cell.failures.length < 3 && !cell.failures.includes(w)) cell.failures.push(w);
  }
  for (const cell of cells.values()) cell.flaky = cell.passed > 0 && cell.passed < cell.total;
  return [...cells.values()];
}

/** A single CI run's result: its CI view, and its detail (cells from its attempts, the run's error) when it could be read. */
export function runResult(run: CiRunReport, detail: RunDetail | null, name: string | undefined, baseline?: Baseline): CiResult {
  const cells = run.cells ?? (detail ? cellsFromAttempts(detail.scoring?.attempts ?? []) : []);
  const flakyCells = cells.filter((c) => c.flaky).length;
  const passHatK = cells.length ? cells.filter((c) => c.passed === c.total).length / cells.length : null;
  const coverage = run.status === 'completed' ? 100 : 0;
  const scenario: ScenarioResult = {
    run_id: run.run_id,
    trace_id: run.trace_id,
    trace_name: run.trace_name || detail?.trace_name || name || run.trace_id,
    status: run.status,
    decision: run.decision,
    pass_rate: run.summary.pass_rate,
    pass_hat_k: passHatK,
    flaky: flakyCells > 0,
    flaky_cells: flakyCells,
    attempt_count: run.summary.attempt_count,
    passed_count: run.summary.passed_count,
    unsafe_count: run.summary.unsafe_count,
    error: detail?.error ?? null,
    reasons: run.reasons,
    dashboard_url: run.dashboard_url,
    comparison: null,
    cells,
  };
  return {
    ...emptyResult({ campaign_id: run.campaign_id, kind: 'run', thresholds: run.thresholds, baseline }),
    ...verdict(run.decision, coverage),
    run_id: run.run_id,
    decision: run.decision,
    pass_rate: run.summary.pass_rate,
    scenario_coverage_pct: coverage,
    trace_count: 1,
    unsafe_count: run.summary.unsafe_count,
    throttled_ms: run.summary.throttled_ms ?? null,
    throttle_count: run.summary.throttle_count ?? null,
    flaky_count: detail ? (flakyCells > 0 ? 1 : 0) : null,
    pass_hat_k: passHatK,
    pass_rate_interval: wilsonInterval(run.summary.passed_count, run.summary.attempt_count),
    reasons: run.reasons,
    dashboard_url: run.dashboard_url,
    duration_s: seconds(run.created_at, run.completed_at),
    scenarios: [scenario],
  };
}

/** A result after an error: what was known by then, marked as an error (exit 2, never a trusted verdict). */
export function errorResult(known: CiResult, error: NonNullable<CiResult['error']>): CiResult {
  return { ...known, verdict: 'error', exit_code: 2, coverage_complete: false, error };
}

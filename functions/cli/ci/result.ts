// The gate's result as `rts ci run` reports it (what --json prints), and the small formatters every report shares.
import type { CiBatchView, CiComparison, CiDecision, CiRunView, CiScenario, CiThresholds, PassRateInterval } from '../../../packages/sdk/src/index';

/** The baseline a batch is compared with: a batch id or a branch, as the command line and the batch view give it. */
export type Baseline = NonNullable<CiBatchView['baseline']>;

/**
 * One scenario (trace) as reported: an item of GET /v1/ci/batch/{id}/scenarios (or a single CI run seen as one), its
 * name never empty, with its attempt totals.
 */
export type ScenarioResult = Omit<CiScenario, 'trace_name' | 'status' | 'decision' | 'pass_hat_k'> & {
  /** The trace's name, its id when the API has none. */
  trace_name: string;
  status: CiScenario['status'] | CiRunView['status'];
  decision: CiScenario['decision'] | CiDecision;
  /** null for a single CI run without cells. */
  pass_hat_k: number | null;
  attempt_count: number;
  passed_count: number;
};

/** The gate's outcome: what --json prints and what the reports are built from (partial, with `error`, after an error). */
export interface CiResult {
  verdict: 'pass' | 'fail' | 'error';
  exit_code: 0 | 1 | 2;
  /** false when some scenario run produced no verdict (coverage < 100): the verdict is not trusted. */
  coverage_complete: boolean;
  kind: 'batch' | 'run';
  ci_batch_id: string | null;
  run_id: string | null;
  campaign_id: string;
  decision: CiDecision;
  pass_rate: number | null;
  scenario_coverage_pct: number | null;
  trace_count: number | null;
  unsafe_count: number | null;
  /** Waits under the targets' limits and out 429/503 answers, summed over the runs (ms, and 429/503 retries). */
  throttled_ms: number | null;
  throttle_count: number | null;
  flaky_count: number | null;
  pass_hat_k: number | null;
  pass_rate_interval: PassRateInterval | null;
  /** The baseline as requested, what it resolved to, and whether a requested branch had no `done` batch. */
  baseline: Baseline | null;
  baseline_batch_id: string | null;
  baseline_missing: boolean;
  comparison: CiComparison | null;
  thresholds: CiThresholds;
  reasons: string[];
  dashboard_url: string | null;
  /** Seconds from submission to the verdict, when known. */
  duration_s: number | null;
  scenarios: ScenarioResult[];
  /** Set when the command could not finish (timeout, API or network error): the rest is what was known by then. */
  error?: { message: string; status?: number; code?: string; timeout?: boolean };
}

/** A rate with two decimals; `-` when it is not a finite number. */
export const fmtRate = (n: number | null | undefined) => (typeof n === 'number' && Number.isFinite(n) ? n.toFixed(2) : '-');

/** `throttled for 4m12s (312 retries)`, or null when nothing waited. */
export function fmtThrottled(r: Pick<CiResult, 'throttled_ms' | 'throttle_count'>): string | null {
  const ms = r.throttled_ms ?? 0;
  const retries = r.throttle_count ?? 0;
  if (ms <= 0 && retries <= 0) return null;
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const time = h > 0 ? `${h}h${m}m${s % 60}s` : m > 0 ? `${m}m${s % 60}s` : `${s}s`;
  return `throttled for ${time} (${retries} ${retries === 1 ? 'retry' : 'retries'})`;
}

/** The Wilson interval as `0.41..0.62`, or null. */
export const fmtInterval = (i: PassRateInterval | null) => (i ? `${fmtRate(i.low)}..${fmtRate(i.high)}` : null);

/** What the batch was compared with: the baseline branch, else the baseline batch id. */
export const baselineLabel = (r: CiResult) =>
  r.comparison?.baseline_branch ??
  (r.baseline && 'branch' in r.baseline ? r.baseline.branch : (r.comparison?.baseline_batch_id ?? r.baseline_batch_id ?? 'the baseline'));

/** The thresholds as sent back by the API, in a stable order. */
/** The order thresholds are shown in, whatever order a store kept the map's keys in (DynamoDB keeps none). */
const THRESHOLD_ORDER = [
  'min_pass_rate',
  'max_unsafe',
  'max_failures',
  'min_pass_rate_lower_bound',
  'max_flaky',
  'min_pass_hat_k',
  'max_regressions',
];
const thresholdRank = (k: string) => (THRESHOLD_ORDER.indexOf(k) + THRESHOLD_ORDER.length + 1) % (THRESHOLD_ORDER.length + 1);

export const fmtThresholds = (t: CiThresholds) =>
  Object.entries(t)
    .filter(([, v]) => v !== undefined && v !== null)
    .sort(([a], [b]) => thresholdRank(a) - thresholdRank(b) || a.localeCompare(b))
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');

/** The comparison in one line: counts since the baseline, or that none was found; null without a baseline. */
export function baselineLine(r: CiResult): string | null {
  const c = r.comparison;
  if (c) {
    const delta = `${c.pass_rate_delta >= 0 ? '+' : ''}${fmtRate(c.pass_rate_delta)}`;
    const branch = c.baseline_branch ? ` (branch ${c.baseline_branch})` : '';
    const cells = cellCounts(c);
    const versions = versionNote(c);
    return `Since baseline batch ${c.baseline_batch_id}${branch}: ${c.regressed_count} regressed, ${c.fixed_count} fixed, ${c.new_unsafe_count} new unsafe, ${c.new_count} new, ${c.dropped_count} dropped${cells ? `, ${cells}` : ''}, pass_rate ${delta}${versions ? `; ${versions}` : ''}`;
  }
  if (r.baseline_missing) return `Baseline: no baseline found for branch ${baselineLabel(r)}`;
  if (r.baseline_batch_id) return `Baseline: batch ${r.baseline_batch_id} (comparison not available yet)`;
  return null;
}

/** `baseline ran campaign version 1, this batch version 2`, or null when both ran the same version. */
export function versionNote(c: Pick<CiComparison, 'campaign_version' | 'baseline_campaign_version'>): string | null {
  if (typeof c.baseline_campaign_version !== 'number' || c.baseline_campaign_version === c.campaign_version) return null;
  return `baseline ran campaign version ${c.baseline_campaign_version}, this batch version ${c.campaign_version}`;
}

/** `1 new cell(s), 2 dropped cell(s)` (mutations one campaign version only has), or null when there are none. */
export function cellCounts(c: Pick<CiComparison, 'new_cells_count' | 'dropped_cells_count'>): string | null {
  const parts = [
    ...((c.new_cells_count ?? 0) > 0 ? [`${c.new_cells_count} new cell(s)`] : []),
    ...((c.dropped_cells_count ?? 0) > 0 ? [`${c.dropped_cells_count} dropped cell(s)`] : []),
  ];
  return parts.length ? parts.join(', ') : null;
}

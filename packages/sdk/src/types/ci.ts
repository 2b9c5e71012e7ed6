// CI gating (docs/ci.md): submissions, CI runs, batches with their statistics and baseline comparison.
import type { RunSummary } from './runs';

/** CI thresholds; absent optional ones are not checked (`max_regressions` defaults to 0 when a baseline is given). */
export interface CiThresholds {
  min_pass_rate?: number;
  max_unsafe?: number;
  max_failures?: number;
  min_pass_rate_lower_bound?: number;
  max_flaky?: number;
  min_pass_hat_k?: number;
  max_regressions?: number;
}

export interface CiMetadata {
  commit?: string;
  branch?: string;
  pipeline_url?: string;
}

/** What a batch is compared with: a batch, or the latest `done` batch of the same campaign on a branch. */
export type CiBaseline = { batch_id: string } | { branch: string };

export interface CiRunRequest {
  campaign_id: string;
  thresholds?: CiThresholds;
  trace_id?: string;
  metadata?: CiMetadata;
  baseline?: CiBaseline;
}

/** The 202 answer of POST /v1/ci/runs: a batch (`ci_batch_id` set) or a single CI run (`ci_batch_id: null`). */
export interface CiSubmission {
  run_id: string;
  status: string;
  ci_batch_id: string | null;
  dashboard_url: string;
  run_ids?: string[];
  trace_count?: number;
  trace_id?: string;
  campaign_id?: string;
  baseline_batch_id?: string | null;
  baseline_missing?: boolean;
}

export type CiDecision = 'pending' | 'pass' | 'fail';

export interface CiRunView {
  run_id: string;
  status: 'queued' | 'running' | 'completed' | 'failed';
  decision: CiDecision;
  thresholds: CiThresholds;
  summary: RunSummary;
  reasons: string[];
  dashboard_url: string;
  ci_batch_id: string | null;
  trace_id: string;
  trace_name?: string | null;
  campaign_id: string;
  metadata?: CiMetadata | null;
  created_at: string;
  completed_at: string | null;
  /** The run's cells: how the repeats of the baseline and of each mutation ended. */
  cells?: CiRunCell[];
}

/** A cell of the comparison with the baseline: "passed/total" before and after. */
export interface CiChange {
  trace_id: string;
  trace_name: string | null;
  mutation_id: string | null;
  before: string;
  after: string;
  /** new_unsafe entries only: "unsafe/total" before and after. */
  unsafe_before?: string;
  unsafe_after?: string;
}

export interface CiComparison {
  baseline_batch_id: string;
  baseline_branch: string | null;
  pass_rate_delta: number;
  regressed_count: number;
  fixed_count: number;
  new_unsafe_count: number;
  new_count: number;
  dropped_count: number;
  /** The first 50 of each. */
  regressed: CiChange[];
  fixed: CiChange[];
  new_unsafe: CiChange[];
  /** Baseline scenarios with no run now (first 50), when the API lists them. */
  dropped?: { trace_id: string; trace_name: string | null }[];
}

export interface PassRateInterval {
  low: number;
  high: number;
  confidence: number;
  method: string;
}

export interface CiBatchView {
  ci_batch_id: string;
  run_id: string;
  campaign_id: string;
  status: 'queued' | 'running' | 'done';
  decision: CiDecision;
  pass_rate: number;
  scenario_coverage_pct: number;
  trace_count: number;
  completed_count: number;
  failed_count: number;
  unsafe_count: number;
  passed_runs: string[];
  failed_runs: string[];
  run_ids: string[];
  thresholds: CiThresholds;
  reasons: string[];
  dashboard_url: string;
  created_at: string;
  completed_at: string | null;
  metadata?: CiMetadata | null;
  baseline?: CiBaseline | null;
  baseline_batch_id?: string | null;
  baseline_missing?: boolean;
  flaky_count?: number | null;
  pass_hat_k?: number | null;
  pass_rate_interval?: PassRateInterval | null;
  comparison?: CiComparison | null;
}

export type CiComparisonMark = 'regressed' | 'fixed' | 'unchanged' | 'new' | null;

/** One (trace, mutation) cell of a run: how its k repeats ended (`mutation_id` null = the unmutated attempt). */
export interface CiCellStat {
  mutation_id: string | null;
  passed: number;
  total: number;
  unsafe: number;
  errors: number;
  /** Up to 3 distinct one-line descriptions of what failed. */
  failures: string[];
}

/** A cell of a CI run (GET /v1/ci/runs/{id}): its repeats and whether they disagree. */
export interface CiRunCell extends CiCellStat {
  /** Some repeats passed and some did not. */
  flaky: boolean;
}

/** A cell of a batch scenario: its repeats, whether they disagree, and what the baseline comparison says. */
export interface CiCell extends CiRunCell {
  comparison: CiComparisonMark;
  /** "passed/total" in the baseline batch. */
  before: string | null;
}

/** One scenario (trace) of a batch. */
export interface CiScenario {
  trace_id: string;
  trace_name: string | null;
  run_id: string;
  status: 'completed' | 'failed';
  decision: 'pass' | 'fail';
  pass_rate: number;
  pass_hat_k: number | null;
  flaky: boolean;
  flaky_cells: number;
  unsafe_count: number;
  error: string | null;
  reasons: string[];
  dashboard_url: string;
  comparison: CiComparisonMark;
  cells: CiCell[];
}

export interface CiBatchListItem {
  ci_batch_id: string;
  campaign_id: string;
  status: 'queued' | 'running' | 'done';
  decision: CiDecision;
  pass_rate: number | null;
  trace_count: number;
  metadata: CiMetadata | null;
  baseline_batch_id: string | null;
  flaky_count: number | null;
  pass_hat_k: number | null;
  regressed_count: number | null;
  created_at: string;
  completed_at: string | null;
  dashboard_url: string;
}

/** GET /v1/ci/batch/{batch_id}/scenarios: one page of the batch's scenarios, in run order. */
export interface CiScenarioPage {
  ci_batch_id: string;
  items: CiScenario[];
  next_cursor: string | null;
}

/** Filters of GET /v1/ci/batch/{batch_id}/scenarios. */
export interface CiScenarioQuery {
  status?: 'regressed' | 'fixed' | 'flaky' | 'failed' | 'passed';
  limit?: number;
  cursor?: string;
}

/** Filters of GET /v1/ci/batches. */
export interface CiBatchListQuery {
  campaign_id?: string;
  branch?: string;
  limit?: number;
  cursor?: string;
}

// Records of CI gating (docs/ci.md): the batch and its per-run completion markers.
import type { CellStat } from '../runs/cells';
import type { CiInfo, Decision, RunStatus, RunSummary, Thresholds } from '../runs/types';
import type { BatchComparison } from './compare';
import type { PassRateInterval } from './stats';

/** Batch states: `running` is set lazily (first completion marker) and also derived on read; `done` is set once. */
export type BatchStatus = 'queued' | 'running' | 'done';

/** The aggregate of a batch over its completion markers (docs/ci.md#decision-rules; definitions in aggregate.ts). */
export interface BatchAggregate {
  decision: Decision;
  pass_rate: number;
  scenario_coverage_pct: number;
  completed_count: number;
  failed_count: number;
  unsafe_count: number;
  /** Summed waits under limits and out 429/503 answers (absent on batches done before they were recorded). */
  throttled_ms?: number;
  throttle_count?: number;
  passed_runs: string[];
  failed_runs: string[];
  reasons: string[];
  /** Scenarios with a flaky cell, over the completed runs (absent on batches done before repeats statistics). */
  flaky_count?: number;
  pass_hat_k?: number;
  pass_rate_interval?: PassRateInterval;
  /** The comparison with the baseline batch; null without one. */
  comparison?: BatchComparison | null;
}

/** The baseline a submission asked for: a batch by id, or the latest done batch of a branch. */
export type BaselineRequest = { batch_id: string } | { branch: string };

/** The batch META item. The aggregate fields are stored once, when the batch flips to `done`. */
export interface CiBatch {
  ci_batch_id: string;
  project_id: string;
  campaign_id: string;
  /** The campaign version its runs run with, fixed at submission (absent on batches created before versions: 1). */
  campaign_version?: number;
  /** One run per eval-set trace, in pool order; run_ids[0] is the batch's `run_id`. */
  run_ids: string[];
  trace_count: number;
  thresholds: Thresholds;
  metadata: CiInfo['metadata'] | null;
  status: BatchStatus;
  decision: Decision;
  created_at: string;
  completed_at: string | null;
  /** The final aggregate, present once done. */
  result: BatchAggregate | null;
  /** Number of completion markers counted so far (an atomic ADD; a hint only: the markers are the truth). */
  done_hint: number;
  /** true once the ci.decision event of the batch has been handed to the bus. */
  decision_published: boolean;
  /** The baseline asked for (absent on older batches). */
  baseline?: BaselineRequest | null;
  /** The baseline batch resolved at submission; null when none was asked for or none was found. */
  baseline_batch_id?: string | null;
  /** A baseline was asked for and no done batch matched it. */
  baseline_missing?: boolean;
}

/** DONE#<run_id> in the batch partition: written once per run when it becomes terminal. */
export interface BatchMarker {
  run_id: string;
  trace_id: string;
  status: Extract<RunStatus, 'completed' | 'failed'>;
  summary: RunSummary;
  decision: Exclude<Decision, 'pending'>;
  reasons: string[];
  error: string | null;
  completed_at: string;
  trace_name?: string | null;
  /** The run's cells (absent on markers written before repeats statistics). */
  cells?: CellStat[];
}

/** The CI state stored on a run (`run.ci`): the public CiInfo plus the publication mark of a single CI run's decision. */
export interface CiRunState extends CiInfo {
  decision_published?: boolean;
}

/** A batch as listed (GET /v1/ci/batches): an index entry kept beside the META, without the run ids. */
export interface BatchListing {
  ci_batch_id: string;
  campaign_id: string;
  campaign_version: number;
  status: BatchStatus;
  decision: Decision;
  pass_rate: number | null;
  trace_count: number;
  metadata: CiInfo['metadata'] | null;
  baseline_batch_id: string | null;
  flaky_count: number | null;
  pass_hat_k: number | null;
  regressed_count: number | null;
  created_at: string;
  completed_at: string | null;
}

/** Filters of the batch listing. */
export interface BatchFilter {
  campaign_id?: string;
  branch?: string;
}

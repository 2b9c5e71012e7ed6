// Records of CI gating (SPEC section 8): the batch, its per-run completion markers, and run-packs.
import type { CiInfo, Decision, RunStatus, RunSummary, Thresholds } from '../runs/types';

/** Batch states: `running` is set lazily (first completion marker) and also derived on read; `done` is set once. */
export type BatchStatus = 'queued' | 'running' | 'done';

/** The aggregate of a batch over its completion markers (SPEC 8; definitions in aggregate.ts). */
export interface BatchAggregate {
  decision: Decision;
  pass_rate: number;
  scenario_coverage_pct: number;
  completed_count: number;
  failed_count: number;
  unsafe_count: number;
  passed_runs: string[];
  failed_runs: string[];
  reasons: string[];
}

/** The batch META item. The aggregate fields are stored once, when the batch flips to `done`. */
export interface CiBatch {
  ci_batch_id: string;
  project_id: string;
  campaign_id: string;
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
}

/** The CI state stored on a run (`run.ci`): the public CiInfo plus the publication mark of a single CI run's decision. */
export interface CiRunState extends CiInfo {
  decision_published?: boolean;
}

/** The PACK item of a run-pack request. */
export interface RunPack {
  pack_id: string;
  project_id: string;
  campaign_id: string;
  run_ids: string[];
  trace_ids: string[];
  trace_count: number;
  created_at: string;
}

// Records of a run and what it produces: attempts, policy events, security events (docs/campaigns-and-replay.md); and
// the run-packs that queue runs together.
import type { z } from 'zod';
import type { Criterion } from '../campaigns/schema';
import type { thresholdsSchema } from '../ci/schema';
import type { ToolCall } from '../traces/schema';
import type { CellStat } from './cells';
import type { policyEventSchema, runSummarySchema, securityEventSchema } from './response-schemas';

export type RunStatus = 'queued' | 'running' | 'completed' | 'failed';
export type RunSource = 'replay' | 'ci' | 'pack';
export type AttemptStatus = 'passed' | 'failed' | 'error';
export type Decision = 'pending' | 'pass' | 'fail';

/**
 * A CI gate's thresholds as validated (the Thresholds request schema, defaults applied). Absent optional ones are not
 * checked, but max_regressions is 0 whenever a baseline is given.
 */
export type Thresholds = z.output<typeof thresholdsSchema>;

/** Counts over a run's finished attempts: the RunSummary schema of the OpenAPI document. */
export type RunSummary = z.infer<typeof runSummarySchema>;

export interface CheckResult {
  criterion: Criterion;
  passed: boolean;
  detail: string;
}

/** The scoring view of one attempt (`scoring.attempts[]` of GET /v1/runs/{id}). */
export interface AttemptScore {
  attempt: number;
  mutation_id: string | null;
  repeat: number;
  status: AttemptStatus;
  unsafe: boolean;
  checks: CheckResult[];
  steps: number;
  duration_ms: number;
  error: string | null;
  /**
   * Why the attempt is an `error`: `target_unavailable` (the agent), `judge_unavailable` (the llm_judge model),
   * `user_simulator_unavailable` (the simulated user's model), `run_deadline_exceeded` (the run's deadline passed before the attempt ended) or `rate_limited` (the agent, model
   * or judge stayed throttled past its `limits.max_wait_s`); null otherwise.
   */
  error_code?: 'target_unavailable' | 'judge_unavailable' | 'user_simulator_unavailable' | 'run_deadline_exceeded' | 'rate_limited' | null;
  /** Time the attempt spent waiting for its turn under the limits and out 429/503 answers, ms (not in duration_ms). */
  throttled_ms?: number;
  /** 429/503 answers it tried again after waiting. */
  throttle_count?: number;
}

/** One entry of an attempt's transcript. */
export type TranscriptEntry =
  | {
      type: 'message';
      role: 'system' | 'user' | 'assistant';
      content: string | null;
      tool_calls?: ToolCall[];
      /** What the engine had to repair in the agent's answer (e.g. unparseable tool arguments). */
      notes?: string[];
      /** The user turn this message belongs to, from 1; only on traces of several turns (docs/campaigns-and-replay.md#turns). */
      turn?: number;
      /** true on a user message the simulated user wrote (docs/campaigns-and-replay.md#simulated-user). */
      simulated?: true;
    }
  | {
      type: 'tool_result';
      step: number;
      tool_call_id: string;
      tool: string;
      arguments: Record<string, unknown>;
      served: 'recorded' | 'denied' | 'unrecorded';
      mutation_id: string | null;
      result: unknown;
      error: string | null;
    };

/** A policy decision on one tool call (the PolicyEvent schema of the OpenAPI document). */
export type PolicyEvent = z.infer<typeof policyEventSchema>;

/** What a detector found in one step (the SecurityEvent schema of the OpenAPI document). */
export type SecurityEvent = z.infer<typeof securityEventSchema>;
export type RiskLevel = SecurityEvent['risk']['level'];

/** A finished attempt as stored: its score, transcript and events. */
export interface AttemptRecord extends AttemptScore {
  run_id: string;
  started_at: string;
  completed_at: string;
  output: string | null;
  transcript: TranscriptEntry[];
  policy_events: PolicyEvent[];
  security_events: SecurityEvent[];
  /** llm_judge calls made and verdicts served from the cache for this attempt (absent without llm_judge criteria). */
  judge_calls?: number;
  judge_cache_hits?: number;
  /** Simulated-user messages asked of its model and served from the cache (absent when the simulator was not asked). */
  user_simulator_calls?: number;
  user_simulator_cache_hits?: number;
  /**
   * The agent's output for each turn it answered, turn 1 first; only on traces of several turns
   * (docs/campaigns-and-replay.md#turns).
   */
  turn_outputs?: string[];
}

export interface CiInfo {
  thresholds: Thresholds;
  metadata?: { commit?: string; branch?: string; pipeline_url?: string };
  decision: Decision;
  reasons: string[];
}

export interface Run {
  run_id: string;
  project_id: string;
  trace_id: string;
  campaign_id: string;
  /** The campaign version the run runs with, fixed at creation (absent on runs created before versions: 1). */
  campaign_version?: number;
  source: RunSource;
  status: RunStatus;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  summary: RunSummary;
  error: string | null;
  ci_batch_id: string | null;
  pack_id: string | null;
  ci: CiInfo | null;
  /** Attempt plan size, fixed when the run starts. */
  attempt_total: number | null;
  /** The trace's name, copied when the run starts (absent on runs that have not started, and on older runs). */
  trace_name?: string | null;
  /** Per-(mutation) cell statistics over the finished attempts, stored when the run becomes terminal. */
  cells?: CellStat[];
}

/** The PACK item of a run-pack request (POST /v1/campaigns/{id}/run-pack): the runs it queued together. */
export interface RunPack {
  pack_id: string;
  project_id: string;
  campaign_id: string;
  run_ids: string[];
  trace_ids: string[];
  trace_count: number;
  created_at: string;
}

export const EMPTY_SUMMARY: RunSummary = {
  attempt_count: 0,
  passed_count: 0,
  failed_count: 0,
  unsafe_count: 0,
  pass_rate: 0,
  policy_events_count: 0,
  security_events_count: 0,
  throttled_ms: 0,
  throttle_count: 0,
};

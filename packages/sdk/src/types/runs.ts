// Runs (docs/campaigns-and-replay.md): queued runs, run details with their scoring context, attempts, policy and
// security events.
import type { Criterion, DetectorKind, Policy } from './campaigns';
import type { JsonObject } from './common';
import type { ToolCall } from './traces';

export type RunStatus = 'queued' | 'running' | 'completed' | 'failed';

/** The body of POST /v1/runs. */
export interface RunRequest {
  trace_id: string;
  campaign_id: string;
}

/** 202 of POST /v1/runs. */
export interface RunQueued {
  run_id: string;
  status: 'queued';
  trace_id: string;
  campaign_id: string;
  created_at: string;
}

/** Counts over the attempts finished so far. */
export interface RunSummary {
  attempt_count: number;
  passed_count: number;
  /** Everything not passed, errors included. */
  failed_count: number;
  unsafe_count: number;
  /** passed / attempts, 0 when none. */
  pass_rate: number;
  /** Always present in answers (optional for summaries built by hand). */
  policy_events_count?: number;
  /** Always present in answers (optional for summaries built by hand). */
  security_events_count?: number;
}

/** Filters of GET /v1/runs. */
export interface RunListQuery {
  campaign_id?: string;
  trace_id?: string;
  status?: RunStatus;
  limit?: number;
  cursor?: string;
}

/** A run as listed. */
export interface Run {
  run_id: string;
  trace_id: string;
  trace_name: string | null;
  campaign_id: string;
  source: 'replay' | 'ci' | 'pack';
  status: RunStatus;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  summary: RunSummary;
  /** Why a run failed (no verdict could be produced). */
  error: string | null;
  ci_batch_id: string | null;
  pack_id: string | null;
}

/** One criterion's verdict on an attempt (`criterion` is one of the campaign's, as Criterion describes). */
export interface CheckResult {
  criterion: { type: string } & Record<string, unknown>;
  passed: boolean;
  detail: string;
}

/** One attempt's score in a run's scoring context. */
export interface AttemptScore {
  attempt: number;
  /** null for the baseline attempt. */
  mutation_id: string | null;
  repeat: number;
  status: 'passed' | 'failed' | 'error';
  unsafe: boolean;
  checks: CheckResult[];
  steps: number;
  duration_ms: number;
  error: string | null;
  /**
   * Why an attempt is an error: the agent or the llm_judge model could not be driven, or the run's deadline passed
   * before the attempt ended; null otherwise.
   */
  error_code?: 'target_unavailable' | 'judge_unavailable' | 'run_deadline_exceeded' | null;
}

/**
 * GET /v1/runs/{run_id}: the run, its summary and its scoring context. The API's answers carry every field of Run
 * and of `scoring`; those marked optional here are so only that run details built by hand (in tests) need not.
 */
export interface RunDetail extends Partial<Omit<Run, 'run_id' | 'trace_id' | 'campaign_id' | 'status' | 'summary' | 'error'>> {
  run_id: string;
  trace_id: string;
  campaign_id: string;
  status: RunStatus;
  summary: RunSummary;
  error: string | null;
  /** Attempt plan size, fixed when the run starts. */
  attempt_total?: number | null;
  scoring: {
    criteria?: Criterion[];
    policies?: Policy[];
    detectors?: DetectorKind[];
    attempts: AttemptScore[];
    judge_calls?: number;
    judge_cache_hits?: number;
    judge_prompt_version?: string | null;
  };
}

export interface PolicyEvent {
  event_id: string;
  run_id: string;
  attempt: number;
  sequence: number;
  step: number;
  policy_id: string;
  policy_type: Policy['type'] | 'unrecorded_tool_call';
  decision: 'allow' | 'deny' | 'flag';
  tool: string;
  arguments: JsonObject;
  reason: string;
  created_at: string;
}

export interface SecurityEvent {
  event_id: string;
  run_id: string;
  attempt: number;
  sequence: number;
  step: number;
  kind: DetectorKind;
  action: 'detected' | 'blocked' | 'allowed';
  risk: { score: number; level: 'low' | 'medium' | 'high' | 'critical' };
  source: { type: 'tool_result' | 'tool_call' | 'output'; tool?: string };
  /** A short excerpt, secrets masked. */
  evidence: string;
  mutation_id: string | null;
  created_at: string;
}

/** One entry of an attempt's transcript: a message, or a tool call with the result served to the agent. */
export type TranscriptEntry =
  | {
      type: 'message';
      role: 'system' | 'user' | 'assistant';
      content: string | null;
      tool_calls?: ToolCall[];
      /** What the engine had to repair in the agent's answer. */
      notes?: string[];
      /** In a listing: a value of this entry was cut (see AttemptDetail.truncated). */
      truncated?: true;
    }
  | {
      type: 'tool_result';
      step: number;
      tool_call_id: string;
      tool: string;
      arguments: JsonObject;
      served: 'recorded' | 'denied' | 'unrecorded';
      mutation_id: string | null;
      result?: unknown;
      error: string | null;
      /** In a listing: a value of this entry was cut (see AttemptDetail.truncated). */
      truncated?: true;
    };

/** A finished attempt with its transcript and events. */
export interface AttemptDetail extends AttemptScore {
  /**
   * true when the listing cut values of this attempt to bound its page: a cut string keeps its start and a marker, cut
   * tool arguments become `{rts_truncated: "..."}`. `getRunAttempt(runId, attempt)` returns it whole (false there).
   */
  truncated: boolean;
  started_at: string;
  completed_at: string;
  output: string | null;
  transcript: TranscriptEntry[];
  policy_events: PolicyEvent[];
  security_events: SecurityEvent[];
  judge_calls?: number;
  judge_cache_hits?: number;
}

/** GET /v1/runs/{run_id}/attempts: a page of attempts by number, large values cut to size. */
export interface RunAttempts {
  run_id: string;
  items: AttemptDetail[];
  next_cursor: string | null;
}

/** GET /v1/runs/{run_id}/policy-events: ordered by attempt, then sequence. */
export interface PolicyEventPage {
  run_id: string;
  items: PolicyEvent[];
  next_cursor: string | null;
}

/** GET /v1/runs/{run_id}/security-events: every planned attempt, those without events with `events: []`. */
export interface SecurityEventsByAttempt {
  run_id: string;
  attempts: { attempt: number; mutation_id: string | null; unsafe: boolean; events: SecurityEvent[] }[];
}

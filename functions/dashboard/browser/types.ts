// The parts of the API's answers the dashboard reads, all optional where the page copes without them.

export interface Page<T> {
  items?: T[];
}

export interface RunSummary {
  attempt_count?: number;
  passed_count?: number;
  failed_count?: number;
  unsafe_count?: number;
  pass_rate?: number;
  policy_events_count?: number;
  security_events_count?: number;
}

export interface Check {
  passed?: boolean;
  criterion?: unknown;
  detail?: string;
}

export interface ScoredAttempt {
  attempt: number;
  mutation_id?: string | null;
  repeat?: number;
  status?: string;
  unsafe?: boolean;
  error?: string | null;
  checks?: Check[];
  steps?: number;
  duration_ms?: number;
}

/** GET /v1/runs/{run_id} (and the items of GET /v1/runs). */
export interface Run {
  run_id: string;
  status?: string;
  source?: string;
  campaign_id?: string;
  trace_id?: string;
  ci_batch_id?: string | null;
  pack_id?: string | null;
  attempt_total?: number;
  error?: string | null;
  summary?: RunSummary;
  scoring?: { attempts?: ScoredAttempt[] };
  created_at?: string;
  started_at?: string | null;
  completed_at?: string | null;
}

/** Items of GET /v1/campaigns. */
export interface Campaign {
  campaign_id: string;
  name?: string;
  target?: { type?: string };
  mutations?: unknown[];
  policies?: unknown[];
  eval_set?: { trace_count?: number } | null;
  created_at?: string;
}

export interface PolicyEvent {
  decision?: string;
  policy_id?: string;
  tool?: string;
  reason?: string;
}

export interface ToolCall {
  id?: string;
  name?: string;
  arguments?: unknown;
}

/** One transcript entry: a message (role, content, tool calls) or a served tool result. */
export interface TranscriptEntry {
  type?: string;
  role?: string;
  content?: unknown;
  tool_calls?: ToolCall[];
  notes?: string[];
  served?: string;
  tool?: string;
  mutation_id?: string | null;
  step?: number;
  tool_call_id?: string;
  arguments?: unknown;
  error?: string | null;
  result?: unknown;
}

/** Items of GET /v1/runs/{run_id}/attempts. */
export interface AttemptDetail {
  attempt: number;
  transcript?: TranscriptEntry[];
  output?: unknown;
  policy_events?: PolicyEvent[];
}

export interface SecurityEvent {
  kind?: string;
  action?: string;
  risk?: { level?: string; score?: number };
  source?: { type?: string; tool?: string };
  evidence?: string;
}

/** GET /v1/runs/{run_id}/security-events. */
export interface SecurityEvents {
  attempts?: { attempt?: number; mutation_id?: string | null; events?: SecurityEvent[] }[];
}

export interface Thresholds {
  min_pass_rate?: number;
  max_unsafe?: number;
  max_failures?: number;
}

/** GET /v1/ci/runs/{run_id}. */
export interface CiRun {
  status?: string;
  decision?: string;
  reasons?: string[];
  thresholds?: Thresholds;
  ci_batch_id?: string | null;
  metadata?: { commit?: string; branch?: string; pipeline_url?: string };
  summary?: RunSummary;
}

/** GET /v1/ci/batch/{batch_id}. */
export interface CiBatch {
  ci_batch_id: string;
  status?: string;
  decision?: string;
  reasons?: string[];
  thresholds?: Thresholds;
  campaign_id?: string;
  run_id?: string | null;
  run_ids?: string[];
  passed_runs?: string[];
  failed_runs?: string[];
  pass_rate?: number;
  scenario_coverage_pct?: number;
  trace_count?: number;
  completed_count?: number;
  failed_count?: number;
  unsafe_count?: number;
  created_at?: string;
  completed_at?: string | null;
}

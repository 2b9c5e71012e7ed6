// The parts of the API's answers the dashboard reads, all optional where the page copes without them.

export interface Page<T> {
  items?: T[];
  next_cursor?: string | null;
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
  /** Why an `error` attempt is one: target_unavailable or judge_unavailable. */
  error_code?: string | null;
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
  /** The trace's name, set when the run starts (null before). */
  trace_name?: string | null;
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

/** Items of GET /v1/campaigns and GET /v1/campaigns/{id}. */
export interface Campaign {
  campaign_id: string;
  name?: string;
  target?: { type?: string; url?: string; base_url?: string; model?: string; timeout_ms?: number };
  include_baseline?: boolean;
  repeats?: number;
  max_steps?: number;
  mutations?: { id?: string; type?: string }[];
  policies?: { id?: string; type?: string; action?: string }[];
  criteria?: unknown[];
  security?: { detectors?: string[] };
  eval_set?: { trace_count?: number; min_scenarios?: number } | null;
  created_at?: string;
}

/** GET /v1/campaigns/{id}/eval-set. */
export interface EvalSet {
  trace_ids?: string[];
  trace_count?: number;
  min_scenarios?: number;
}

/** A policy decision on one tool call (allowed calls leave none): items of GET /v1/runs/{id}/policy-events. */
export interface PolicyEvent {
  attempt?: number;
  sequence?: number;
  step?: number;
  decision?: string;
  policy_id?: string;
  policy_type?: string;
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
  /** The listing cut some of its values; GET /v1/runs/{run_id}/attempts/{attempt} has it whole. */
  truncated?: boolean;
  mutation_id?: string | null;
  steps?: number;
  transcript?: TranscriptEntry[];
  output?: unknown;
  policy_events?: PolicyEvent[];
  security_events?: SecurityEvent[];
}

export interface SecurityEvent {
  step?: number;
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
  min_pass_rate_lower_bound?: number;
  max_flaky?: number;
  min_pass_hat_k?: number;
  max_regressions?: number;
}

/** A CI run's or batch's metadata from the pipeline. */
export interface CiMetadata {
  commit?: string;
  branch?: string;
  pipeline_url?: string;
}

/** How a scenario or cell compares with the baseline batch. */
export type Comparison = 'regressed' | 'fixed' | 'unchanged' | 'new';

/** One changed cell in a batch's comparison: passes `before` (baseline) and `after` (this batch), as "passed/total". */
export interface Change {
  trace_id: string;
  trace_name?: string | null;
  mutation_id?: string | null;
  before?: string;
  after?: string;
  unsafe_before?: string;
  unsafe_after?: string;
}

/** A done batch's comparison with its baseline batch. */
export interface BatchComparison {
  baseline_batch_id?: string;
  baseline_branch?: string | null;
  pass_rate_delta?: number;
  regressed_count?: number;
  fixed_count?: number;
  new_unsafe_count?: number;
  new_count?: number;
  dropped_count?: number;
  regressed?: Change[];
  fixed?: Change[];
  new_unsafe?: Change[];
}

/** The Wilson score interval of a batch's pass rate. */
export interface PassRateInterval {
  low: number;
  high: number;
  confidence?: number;
  method?: string;
}

/** One (trace, mutation) cell of a scenario: passes out of its repeats and what failed. */
export interface ScenarioCell {
  mutation_id?: string | null;
  passed?: number;
  total?: number;
  unsafe?: number;
  errors?: number;
  flaky?: boolean;
  failures?: string[];
  comparison?: Comparison | null;
  before?: string | null;
}

/** Items of GET /v1/ci/batch/{id}/scenarios: one per trace of the batch. */
export interface Scenario {
  trace_id: string;
  trace_name?: string | null;
  run_id: string;
  status?: string;
  decision?: string;
  pass_rate?: number;
  pass_hat_k?: number;
  flaky?: boolean;
  flaky_cells?: number;
  unsafe_count?: number;
  error?: string | null;
  reasons?: string[];
  comparison?: Comparison | null;
  cells?: ScenarioCell[];
}

/** GET /v1/ci/runs/{run_id}. */
export interface CiRun {
  status?: string;
  decision?: string;
  reasons?: string[];
  thresholds?: Thresholds;
  ci_batch_id?: string | null;
  metadata?: CiMetadata;
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
  metadata?: CiMetadata | null;
  baseline?: { batch_id?: string; branch?: string } | null;
  baseline_batch_id?: string | null;
  baseline_missing?: boolean;
  flaky_count?: number | null;
  pass_hat_k?: number | null;
  pass_rate_interval?: PassRateInterval | null;
  comparison?: BatchComparison | null;
  created_at?: string;
  completed_at?: string | null;
}

/** Items of GET /v1/ci/batches. */
export interface BatchListItem {
  ci_batch_id: string;
  campaign_id?: string;
  status?: string;
  decision?: string;
  pass_rate?: number | null;
  trace_count?: number;
  metadata?: CiMetadata | null;
  baseline_batch_id?: string | null;
  flaky_count?: number | null;
  pass_hat_k?: number | null;
  regressed_count?: number | null;
  created_at?: string;
  completed_at?: string | null;
}

/** Items of GET /v1/webhooks, and GET /v1/webhooks/{id}: never a secret (the API returns it on create and rotate only). */
export interface Webhook {
  webhook_id: string;
  url?: string;
  events?: string[];
  is_enabled?: boolean;
  description?: string | null;
  last_error?: string | null;
  last_error_at?: string | null;
  last_delivery_at?: string | null;
  last_status?: number | null;
  created_at?: string;
}

/** One try of a delivery: the receiver's status (null when none came back), the error text, when and how long. */
export interface DeliveryTry {
  at?: string;
  status_code?: number | null;
  error?: string | null;
  duration_ms?: number;
}

/** Items of GET /v1/webhooks/{id}/deliveries: resends and recoveries append their tries to the same entry. */
export interface Delivery {
  delivery_id: string;
  event_type?: string;
  created_at?: string;
  outcome?: string;
  attempts?: DeliveryTry[];
}

/** 202 of a resend or a test event. */
export interface DeliveryQueued {
  webhook_id?: string;
  delivery_id?: string;
  event_type?: string;
}

/** 202 of a recover. */
export interface RecoverQueued {
  queued?: number;
}

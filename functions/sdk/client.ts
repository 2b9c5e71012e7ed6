// Typed API client for rts (what users and the CLI import): credentials from arguments or RTS_* variables, JSON errors as RtsApiError.
import { randomUUID } from 'node:crypto';
import { checkBaseUrl, networkError, RtsApiError, type ApiErrorBody } from './errors';

export { RtsApiError, type ApiErrorBody } from './errors';

export interface ClientOptions {
  /** Base URL, e.g. http://127.0.0.1:8787. Default: RTS_API_URL. */
  baseUrl?: string;
  /** Default: RTS_API_KEY. */
  apiKey?: string;
  /** Default: RTS_PROJECT_ID. */
  projectId?: string;
  /** Per-request timeout in ms. Default 30000. */
  timeoutMs?: number;
  /** Retries for network errors, 429 and 5xx (POSTs only with an Idempotency-Key). Default 2. */
  retries?: number;
}

export interface RequestOptions {
  idempotencyKey?: string;
  query?: Record<string, string | number | undefined>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class RtsClient {
  readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly projectId: string;
  private readonly timeoutMs: number;
  private readonly retries: number;

  constructor(opts: ClientOptions = {}) {
    const baseUrl = opts.baseUrl ?? process.env.RTS_API_URL;
    const apiKey = opts.apiKey ?? process.env.RTS_API_KEY;
    const projectId = opts.projectId ?? process.env.RTS_PROJECT_ID;
    const missing = [!baseUrl && 'RTS_API_URL', !apiKey && 'RTS_API_KEY', !projectId && 'RTS_PROJECT_ID'].filter(Boolean);
    if (missing.length) throw new Error(`missing configuration: ${missing.join(', ')}`);
    // Named as the user set it: the CLI passes the environment's value through baseUrl.
    const fromEnv = opts.baseUrl === undefined || opts.baseUrl === process.env.RTS_API_URL;
    this.baseUrl = checkBaseUrl(baseUrl!, fromEnv ? 'RTS_API_URL' : 'baseUrl');
    this.apiKey = apiKey!;
    this.projectId = projectId!;
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.retries = opts.retries ?? 2;
  }

  /** Sends one request; retries transient failures (GETs always, POSTs only with an idempotency key). */
  async request<T>(method: string, path: string, body?: unknown, opts: RequestOptions = {}): Promise<{ status: number; body: T }> {
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { 'X-API-Key': this.apiKey, 'X-Project-Id': this.projectId, Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (opts.idempotencyKey) headers['Idempotency-Key'] = opts.idempotencyKey;
    const retryable = method === 'GET' || method === 'DELETE' || !!opts.idempotencyKey;
    let lastErr: unknown;
    for (let attempt = 0; attempt <= (retryable ? this.retries : 0); attempt++) {
      if (attempt > 0) await sleep(500 * 2 ** (attempt - 1));
      let res: Response;
      try {
        res = await fetch(url, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(this.timeoutMs),
        });
      } catch (err) {
        lastErr = networkError(url, err, this.timeoutMs);
        continue;
      }
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      if (res.ok) return { status: res.status, body: parsed as T };
      const errBody = parsed as ApiErrorBody | undefined;
      lastErr = new RtsApiError(res.status, errBody?.error?.code ?? 'http_error', errBody?.error?.message ?? `HTTP ${res.status}`, errBody);
      if (!(res.status === 429 || res.status >= 500)) break;
    }
    throw lastErr;
  }

  get<T>(path: string, query?: RequestOptions['query']) {
    return this.request<T>('GET', path, undefined, { query }).then((r) => r.body);
  }

  post<T>(path: string, body: unknown, idempotencyKey?: string) {
    return this.request<T>('POST', path, body, { idempotencyKey }).then((r) => r.body);
  }

  /** Uploads a trace (native or OTLP/JSON); an idempotency key is generated so the upload can be retried safely. */
  uploadTrace<T = Record<string, unknown>>(trace: unknown, idempotencyKey: string = randomUUID()) {
    return this.request<T>('POST', '/v1/traces', trace, { idempotencyKey });
  }

  /** POST /v1/ci/runs: a batch over the campaign's eval-set, or a single CI run on `trace_id` when the pool is empty. */
  submitCiRun(body: CiRunRequest, idempotencyKey?: string) {
    return this.post<CiSubmission>('/v1/ci/runs', body, idempotencyKey);
  }

  /** GET /v1/ci/runs/{run_id}: one CI run's decision. */
  getCiRun(runId: string) {
    return this.get<CiRunView>(`/v1/ci/runs/${encodeURIComponent(runId)}`);
  }

  /** GET /v1/ci/batch/{batch_id}: the batch's aggregate, statistics and comparison (statistics null until `done`). */
  getCiBatch(batchId: string) {
    return this.get<CiBatchView>(`/v1/ci/batch/${encodeURIComponent(batchId)}`);
  }

  /** GET /v1/ci/batch/{batch_id}/scenarios: one page of the batch's scenarios (finished runs only until `done`). */
  listCiBatchScenarios(batchId: string, query: PageQuery & { status?: 'regressed' | 'fixed' | 'flaky' | 'failed' | 'passed' } = {}) {
    return this.get<Page<CiScenario>>(`/v1/ci/batch/${encodeURIComponent(batchId)}/scenarios`, query);
  }

  /** GET /v1/ci/batches: batches newest first, optionally of one campaign and/or branch. */
  listCiBatches(query: PageQuery & { campaign_id?: string; branch?: string } = {}) {
    return this.get<Page<CiBatchListItem>>('/v1/ci/batches', query);
  }

  /** GET /v1/runs/{run_id}: a run with its summary and scoring context (attempts with their checks). */
  getRun(runId: string) {
    return this.get<RunDetail>(`/v1/runs/${encodeURIComponent(runId)}`);
  }

  /**
   * Every item of a paginated listing, following `next_cursor` (at most `maxPages` pages, default 1000).
   * Example: `await client.allPages((cursor) => client.listCiBatchScenarios(id, { limit: 100, cursor }))`.
   */
  async allPages<T>(page: (cursor: string | undefined) => Promise<Page<T>>, maxPages = 1000): Promise<T[]> {
    const items: T[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < maxPages; i++) {
      const res = await page(cursor);
      items.push(...res.items);
      if (!res.next_cursor) return items;
      cursor = res.next_cursor;
    }
    return items;
  }
}

/** `?limit=` (1-100, default 50) and the opaque `?cursor=` of every list route. */
export interface PageQuery {
  limit?: number;
  cursor?: string;
  [key: string]: string | number | undefined;
}

/** One page of a list route. */
export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

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

export interface RunSummary {
  attempt_count: number;
  passed_count: number;
  failed_count: number;
  unsafe_count: number;
  pass_rate: number;
  policy_events_count?: number;
  security_events_count?: number;
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
  /** The run's cells, when the API serves them (else they are built from GET /v1/runs/{id}). */
  cells?: CiCell[];
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

/** One (trace, mutation) cell of a scenario: its k repeats (`mutation_id` null = the unmutated attempt). */
export interface CiCell {
  mutation_id: string | null;
  passed: number;
  total: number;
  unsafe: number;
  errors: number;
  flaky: boolean;
  /** Up to 3 distinct one-line descriptions of what failed. */
  failures: string[];
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

/** One attempt's score in a run's scoring context. */
export interface AttemptScore {
  attempt: number;
  mutation_id: string | null;
  repeat: number;
  status: 'passed' | 'failed' | 'error';
  unsafe: boolean;
  checks: { criterion: { type: string } & Record<string, unknown>; passed: boolean; detail: string }[];
  steps: number;
  duration_ms: number;
  error: string | null;
}

export interface RunDetail {
  run_id: string;
  trace_id: string;
  trace_name?: string | null;
  campaign_id: string;
  status: 'queued' | 'running' | 'completed' | 'failed';
  summary: RunSummary;
  error: string | null;
  scoring: { attempts: AttemptScore[] };
}

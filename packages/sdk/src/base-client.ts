// The client's transport: credentials, base URL, JSON in and out, timeouts, and retries that honour Retry-After.
import { checkBaseUrl, networkError, RtsApiError, type ApiErrorBody } from './errors';
import { backoffMs, parseRetryAfter, retryableStatus } from './retry';
import { SDK_VERSION } from './version';

/** The part of a fetch Response the client reads. */
export interface FetchResponseLike {
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

/** What the client passes to fetch besides the URL. */
export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** An AbortSignal that fires after `timeoutMs`. */
  signal?: unknown;
}

/** A fetch-compatible function: the global fetch, undici's, or a test double. */
export type FetchLike = { bivariance(url: string, init: FetchInit): Promise<FetchResponseLike> }['bivariance'];

export interface ClientOptions {
  /** Base URL, e.g. `http://127.0.0.1:8787` or the stack's `ApiUrl` (`https://.../prod/`). @default process.env.RTS_API_URL */
  baseUrl?: string;
  /** The project's API key (`rts_...`). @default process.env.RTS_API_KEY */
  apiKey?: string;
  /** @default process.env.RTS_PROJECT_ID */
  projectId?: string;
  /** Per-try timeout in milliseconds. @default 30000 */
  timeoutMs?: number;
  /**
   * Further tries after a network error, a 429 or a 5xx, for GET, PATCH and DELETE requests and for POSTs that carry
   * an Idempotency-Key (every typed POST method sends one). @default 2
   */
  retries?: number;
  /**
   * The longest wait between two tries, in milliseconds. A 429 or 503 whose `Retry-After` asks for longer is not
   * retried: its RtsApiError carries `retryAfterMs` so the caller can decide. @default 30000
   */
  maxRetryDelayMs?: number;
  /** The fetch to use. @default globalThis.fetch */
  fetch?: FetchLike;
  /** How the client waits between tries (tests pass their own). @default setTimeout */
  sleep?: (ms: number) => Promise<void>;
  /** The clock in epoch milliseconds, for `Retry-After` dates (tests pass their own). @default Date.now */
  now?: () => number;
}

export type QueryValue = string | number | boolean | undefined;

export interface RequestOptions {
  /** Sent as `Idempotency-Key`; makes a POST safe to retry (the API replays the first answer for 24 h). */
  idempotencyKey?: string;
  /** Query parameters; undefined values are left out. */
  query?: Record<string, QueryValue>;
  /** Further request headers (`If-Match`). */
  headers?: Record<string, string>;
}

/** An answer: the HTTP status and the parsed JSON body (undefined for 204). */
export interface ApiResponse<T> {
  status: number;
  body: T;
}

/** PATCH is retried like GET: both PATCH routes set values (eval-set add/remove, webhook fields), so a repeat is harmless. */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE']);
const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The low-level client: `request`, `get` and `post` on any path; RtsClient adds a typed method per route. */
export class BaseClient {
  readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly projectId: string;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly maxRetryDelayMs: number;
  private readonly fetchFn: FetchLike;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;

  constructor(opts: ClientOptions = {}) {
    const env = typeof process === 'undefined' ? {} : process.env;
    const baseUrl = opts.baseUrl ?? env.RTS_API_URL;
    const apiKey = opts.apiKey ?? env.RTS_API_KEY;
    const projectId = opts.projectId ?? env.RTS_PROJECT_ID;
    const missing = [!baseUrl && 'RTS_API_URL', !apiKey && 'RTS_API_KEY', !projectId && 'RTS_PROJECT_ID'].filter(Boolean);
    if (missing.length) throw new Error(`missing configuration: ${missing.join(', ')}`);
    // Named as the user set it: the CLI passes the environment's value through baseUrl.
    const fromEnv = opts.baseUrl === undefined || opts.baseUrl === env.RTS_API_URL;
    this.baseUrl = checkBaseUrl(baseUrl!, fromEnv ? 'RTS_API_URL' : 'baseUrl');
    this.apiKey = apiKey!;
    this.projectId = projectId!;
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.retries = Math.max(0, opts.retries ?? 2);
    this.maxRetryDelayMs = opts.maxRetryDelayMs ?? 30_000;
    this.fetchFn = opts.fetch ?? ((url, init) => fetch(url, init as RequestInit));
    this.sleep = opts.sleep ?? defaultSleep;
    this.now = opts.now ?? Date.now;
  }

  /**
   * Sends one request and parses the JSON answer; a non-2xx answer or a request without an answer throws RtsApiError.
   * Network errors, 429 and 5xx are tried again (`retries` times) for GET, PATCH and DELETE, and for POSTs with an
   * idempotency key: after `Retry-After` on 429/503 (seconds or an HTTP date, at most `maxRetryDelayMs`), else after
   * 0.5 s, 1 s, 2 s, ...
   */
  async request<T>(method: string, path: string, body?: unknown, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = {
      'X-API-Key': this.apiKey,
      'X-Project-Id': this.projectId,
      Accept: 'application/json',
      'User-Agent': `rts-sdk-js/${SDK_VERSION}`,
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (opts.idempotencyKey) headers['Idempotency-Key'] = opts.idempotencyKey;
    Object.assign(headers, opts.headers);
    const tries = IDEMPOTENT_METHODS.has(method) || opts.idempotencyKey ? this.retries + 1 : 1;
    const payload = body === undefined ? undefined : JSON.stringify(body);
    for (let attempt = 1; ; attempt++) {
      let failure: RtsApiError;
      let retryAfterMs: number | undefined;
      try {
        const res = await this.fetchFn(url.toString(), { method, headers, body: payload, signal: AbortSignal.timeout(this.timeoutMs) });
        const text = await res.text();
        const parsed = parseJson(text);
        if (res.status >= 200 && res.status < 300) return { status: res.status, body: parsed as T };
        if (res.status === 429 || res.status === 503) retryAfterMs = parseRetryAfter(res.headers.get('retry-after'), this.now());
        failure = apiError(res.status, parsed, retryAfterMs);
        if (!retryableStatus(res.status)) throw failure;
      } catch (err) {
        if (err instanceof RtsApiError) throw err;
        failure = networkError(url, err, this.timeoutMs);
      }
      const wait = retryAfterMs ?? backoffMs(attempt, this.maxRetryDelayMs);
      if (attempt >= tries || wait > this.maxRetryDelayMs) throw failure;
      await this.sleep(wait);
    }
  }

  /** GET `path` (with `query`), the parsed body. */
  get<T>(path: string, query?: RequestOptions['query']): Promise<T> {
    return this.request<T>('GET', path, undefined, { query }).then((r) => r.body);
  }

  /** POST `body` to `path`; retried on transient failures only when `idempotencyKey` is given. */
  post<T>(path: string, body: unknown, idempotencyKey?: string): Promise<T> {
    return this.request<T>('POST', path, body, { idempotencyKey }).then((r) => r.body);
  }
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

function apiError(status: number, parsed: unknown, retryAfterMs: number | undefined): RtsApiError {
  const body = parsed as ApiErrorBody | undefined;
  const error = body?.error;
  return new RtsApiError(
    status,
    typeof error?.code === 'string' ? error.code : 'http_error',
    typeof error?.message === 'string' ? error.message : `HTTP ${status}`,
    typeof error === 'object' && error !== null ? body : undefined,
    { retryAfterMs },
  );
}

// Typed API client for rts (what users and the CLI import): credentials from arguments or RTS_* variables, JSON errors as RtsApiError.
import { randomUUID } from 'node:crypto';

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

export interface ApiErrorBody {
  error: { code: string; message: string; details?: { path?: string; message: string }[]; request_id: string };
}

export class RtsApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body?: ApiErrorBody,
  ) {
    super(message);
    this.name = 'RtsApiError';
  }
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
    this.baseUrl = baseUrl!.replace(/\/+$/, '');
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
        lastErr = new RtsApiError(0, 'network_error', `request to ${url.origin} failed: ${(err as Error).message}`);
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
}

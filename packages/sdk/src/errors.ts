// The SDK's errors: the API's error body as RtsApiError, base URLs checked up front, network failures that say what failed.
import type { components } from './generated/api';

/** Every non-2xx answer of the API has this body (`details` on validation errors, e.g. `[{path: "url", message}]`). */
export type ApiErrorBody = components['schemas']['Error'];

/** What an RtsApiError may carry besides status, code and message. */
export interface RtsApiErrorOptions {
  /** The wait the answer's `Retry-After` asked for, in milliseconds (429 and 503 only). */
  retryAfterMs?: number;
  /** The error that caused this one (network errors: fetch's own). */
  cause?: unknown;
}

/**
 * A non-2xx answer (`status`, the body's `code`), or a request that got no answer (`status` 0, code `network_error`,
 * the original error as `cause`). `body` is the API's error body when there was one; `requestId` is its `request_id`
 * (quote it when reporting a problem); `retryAfterMs` is the wait a 429 or 503 asked for with `Retry-After`.
 */
export class RtsApiError extends Error {
  readonly requestId?: string;
  readonly retryAfterMs?: number;

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body?: ApiErrorBody,
    options: RtsApiErrorOptions = {},
  ) {
    super(message);
    this.name = 'RtsApiError';
    this.requestId = body?.error?.request_id;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
    if (options.cause !== undefined) (this as { cause?: unknown }).cause = options.cause;
  }
}

/**
 * The base URL as the client will use it (no trailing slash), or an Error naming where the value came from (`source`,
 * e.g. RTS_API_URL) when it is not an absolute http(s) URL the paths can be appended to.
 */
export function checkBaseUrl(value: string, source: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  const credentials = !!url && (!!url.username || !!url.password);
  let problem = '';
  if (!url || !/^https?:$/.test(url.protocol) || !url.hostname) problem = 'is not an absolute http(s) URL';
  else if (credentials) problem = 'must not carry a user name or password';
  else if (url.search || url.hash) problem = 'must not carry a query or a fragment';
  if (!problem) return value.replace(/\/+$/, '');
  const shown = credentials ? `${url!.protocol}//***@${url!.host}${url!.pathname}` : value.length > 100 ? `${value.slice(0, 97)}...` : value;
  throw new Error(`${source} ${problem}: ${JSON.stringify(shown)} (expected e.g. http://127.0.0.1:8787)`);
}

interface SocketError {
  code?: string;
  message?: string;
  address?: string;
  port?: number;
  hostname?: string;
  errors?: SocketError[];
}

const HINTS: Record<string, string> = {
  ECONNREFUSED: 'nothing accepts connections there: is the service running, and is the URL right?',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved for now',
  ECONNRESET: 'the connection was closed by the other side',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host cannot be reached',
  ENETUNREACH: 'the network cannot be reached',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
};

/**
 * A request that got no answer, as an RtsApiError (status 0, code `network_error`) whose message names the system
 * error and the address (`connect ECONNREFUSED 127.0.0.1:8787`) instead of fetch's bare `fetch failed`; the original
 * error is its `cause`.
 */
export function networkError(url: { origin: string; host: string; port: string }, err: unknown, timeoutMs: number): RtsApiError {
  const e = err as Error & { cause?: SocketError };
  let detail: string;
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') {
    detail = `no answer within ${timeoutMs} ms`;
  } else {
    const cause = e?.cause;
    const first = cause?.errors?.find((x) => x.code) ?? cause;
    const code = cause?.code ?? first?.code;
    const addresses = (cause?.errors?.length ? cause.errors : cause ? [cause] : [])
      .map((x) => (x.address ? `${x.address.includes(':') ? `[${x.address}]` : x.address}:${x.port ?? url.port}` : x.hostname))
      .filter((a): a is string => !!a);
    const where = [...new Set(addresses)].join(', ') || url.host;
    // Node's socket messages already read `connect ECONNREFUSED 127.0.0.1:8787`; an AggregateError's is empty.
    const said = cause?.message && code && cause.message.includes(code) ? cause.message : code ? `${code} ${where}` : (cause?.message ?? e?.message);
    detail = `${said}${code && HINTS[code] ? ` (${HINTS[code]})` : ''}`;
  }
  return new RtsApiError(0, 'network_error', `request to ${url.origin} failed: ${detail}`, undefined, { cause: err });
}

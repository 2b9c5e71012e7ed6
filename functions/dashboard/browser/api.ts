// Calls to the rts API from the browser: the signed-in credentials as headers, same origin, errors as ApiError; POSTs
// carry an Idempotency-Key.
import { API_BASE, FETCH_CONCURRENCY } from './config';
import { creds } from './credentials';

/** One problem with a request field, as a 422's `details` lists it. */
export interface FieldProblem {
  path?: string;
  message?: string;
}

/** A failed API call: the HTTP status (0 when unreachable) and the error body's code, message, request id and details. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | null = null,
    readonly details: FieldProblem[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The API's error body (docs/api.md#errors). */
interface ErrorBody {
  error?: { code?: string; message?: string; request_id?: string; details?: FieldProblem[] };
}

/** An answer of the API: its status and JSON body (null when it had none). */
export interface Answer<T> {
  status: number;
  body: T;
}

/** Sends one request with the signed-in credentials; throws ApiError on no credentials, network or HTTP errors. */
async function call<T>(method: 'GET' | 'POST', path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer<T>> {
  const c = creds();
  if (!c) throw new ApiError(401, 'unauthorized', 'Enter a project id and an API key.');
  let res: Response;
  try {
    res = await fetch(API_BASE + path, {
      method,
      headers: { 'X-API-Key': c.key, 'X-Project-Id': c.project, Accept: 'application/json', ...headers },
      body,
      cache: 'no-store',
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
    });
  } catch (e) {
    const reason = e instanceof Error && e.message ? e.message : 'network error';
    throw new ApiError(0, 'network_error', `The API could not be reached (${reason}).`);
  }
  let parsed: unknown = null;
  try {
    parsed = await res.json();
  } catch {
    parsed = null;
  }
  if (!res.ok) {
    const err: NonNullable<ErrorBody['error']> = (parsed && (parsed as ErrorBody).error) || {};
    const details = Array.isArray(err.details) ? err.details : [];
    throw new ApiError(res.status, err.code || `http_${res.status}`, err.message || `The API answered HTTP ${res.status}.`, err.request_id, details);
  }
  return { status: res.status, body: parsed as T };
}

/** GETs `path` (below the API base) and answers its JSON body; throws ApiError on no credentials, network or HTTP errors. */
export async function api<T>(path: string): Promise<T> {
  return (await call<T>('GET', path)).body;
}

/** A fresh Idempotency-Key, a random UUID (crypto.randomUUID needs a secure context; getRandomValues does not). */
export function newIdempotencyKey(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * POSTs `body` as JSON (no body when undefined) with `idempotencyKey`, and answers the status and body. A network
 * failure is tried once more with the same key: if the first request did reach the service, the service answers the
 * second with the first one's answer instead of acting twice.
 */
export async function post<T>(path: string, body: unknown, idempotencyKey: string): Promise<Answer<T>> {
  const headers: Record<string, string> = { 'Idempotency-Key': idempotencyKey };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const send = () => call<T>('POST', path, headers, body === undefined ? undefined : JSON.stringify(body));
  try {
    return await send();
  } catch (e) {
    if (e instanceof ApiError && e.status === 0) return send();
    throw e;
  }
}

/** The outcome of one of many calls. */
export type Settled<T> = { ok: true; value: T } | { ok: false; error: ApiError };

/** Fetches many paths with at most FETCH_CONCURRENCY requests in flight; results in the order of `paths`. */
export async function fetchAll<T>(paths: readonly string[]): Promise<Settled<T>[]> {
  const out: Settled<T>[] = new Array(paths.length);
  let next = 0;
  async function worker(): Promise<void> {
    while (next < paths.length) {
      const i = next++;
      try {
        out[i] = { ok: true, value: await api<T>(paths[i]) };
      } catch (e) {
        out[i] = { ok: false, error: e as ApiError };
      }
    }
  }
  const workers: Promise<void>[] = [];
  for (let w = 0; w < Math.min(FETCH_CONCURRENCY, paths.length); w++) workers.push(worker());
  await Promise.all(workers);
  return out;
}

/** The items of every page of a paginated list (`{items, next_cursor}`), following `next_cursor` up to `maxPages` pages. */
export async function allPages<T>(path: string, maxPages = 100): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null | undefined = null;
  for (let n = 0; n < maxPages; n++) {
    const sep = path.includes('?') ? '&' : '?';
    const page: { items?: T[]; next_cursor?: string | null } = await api(cursor ? `${path}${sep}cursor=${encodeURIComponent(cursor)}` : path);
    items.push(...(page.items || []));
    cursor = page.next_cursor;
    if (!cursor) break;
  }
  return items;
}

/** The items of a paginated list loaded so far, how many pages they fill, and the next page's cursor (null: none). */
export interface Pages<T> {
  items: T[];
  pages: number;
  next: string | null;
}

function pagePath(path: string, cursor: string | null): string {
  return cursor ? `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}` : path;
}

/** Loads the first `pages` pages of the list at `path` (query included), so a refresh keeps what "Load more" added. */
export async function loadPages<T>(path: string, pages: number): Promise<Pages<T>> {
  const out: Pages<T> = { items: [], pages: 0, next: null };
  do {
    await loadNextPage(path, out);
  } while (out.next && out.pages < pages);
  return out;
}

/** Adds the page after `st` to it (the first page when `st` has none; nothing when the list has no more). */
export async function loadNextPage<T>(path: string, st: Pages<T>): Promise<void> {
  if (st.pages > 0 && !st.next) return;
  const page: { items?: T[]; next_cursor?: string | null } = await api(pagePath(path, st.next));
  st.items.push(...(page.items || []));
  st.pages += 1;
  st.next = page.next_cursor || null;
}

// Calls to the rts API from the browser: the signed-in credentials as headers, same origin, errors as ApiError.
import { API_BASE, FETCH_CONCURRENCY } from './config';
import { creds } from './credentials';

/** A failed API call: the HTTP status (0 when unreachable) and the error body's code, message and request id. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The error body of SPEC section 2. */
interface ErrorBody {
  error?: { code?: string; message?: string; request_id?: string };
}

/** GETs `path` (below the API base) and answers its JSON body; throws ApiError on no credentials, network or HTTP errors. */
export async function api<T>(path: string): Promise<T> {
  const c = creds();
  if (!c) throw new ApiError(401, 'unauthorized', 'Enter a project id and an API key.');
  let res: Response;
  try {
    res = await fetch(API_BASE + path, {
      headers: { 'X-API-Key': c.key, 'X-Project-Id': c.project, Accept: 'application/json' },
      cache: 'no-store',
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
    });
  } catch (e) {
    const reason = e instanceof Error && e.message ? e.message : 'network error';
    throw new ApiError(0, 'network_error', `The API could not be reached (${reason}).`);
  }
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  if (!res.ok) {
    const err: NonNullable<ErrorBody['error']> = (body && (body as ErrorBody).error) || {};
    throw new ApiError(res.status, err.code || `http_${res.status}`, err.message || `The API answered HTTP ${res.status}.`, err.request_id);
  }
  return body as T;
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

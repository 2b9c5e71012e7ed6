// Idempotency-Key helpers of the HTTP chain: the request fingerprint a key is bound to, what a replay record may keep
// (never a secret), and how a kept answer is replayed. The claim and completion themselves run in http.ts.
import type { APIGatewayProxyResult, Context } from 'aws-lambda';
import { ConflictError } from '../core/errors';
import { canonicalJson, sha256Hex } from '../core/json';
import type { Deps, IdempotencyRecord } from '../core/ports';

/** A completed response is kept (and replayed for the same key and request) this long. */
export const IDEMPOTENCY_TTL_S = 24 * 3600;
/** An in-progress claim without a Lambda context to bound it (tests, scripts) expires after this long. */
const IN_PROGRESS_FALLBACK_MS = 30_000;

/**
 * Prefix of the current fingerprint format. Records written before it (a bare hash of the route name and the body,
 * without the path parameters) cannot tell which resource they answered for, so they are never replayed.
 */
export const FINGERPRINT_PREFIX = 'v2:';

/** Everything that makes two requests the same request for an Idempotency-Key. */
export interface IdempotentRequest {
  projectId: string;
  /** The HTTP method actually used. */
  method: string;
  /** The route's name, e.g. "POST /v1/webhooks/{webhook_id}/rotate-secret". */
  route: string;
  /** The concrete path parameters: with `route`, the concrete path. */
  params: Record<string, string>;
  query: Record<string, string>;
  /** The parsed body (null when the route has none). */
  body: unknown;
}

/**
 * The fingerprint a key is bound to: the project, the method, the concrete path (route and path parameters), the
 * query string and the canonical body. Two requests share it exactly when replaying one's answer to the other is right.
 */
export function requestFingerprint(req: IdempotentRequest): string {
  const canonical = canonicalJson({
    project_id: req.projectId,
    method: req.method.toUpperCase(),
    route: req.route,
    params: req.params ?? {},
    query: req.query ?? {},
    body: req.body ?? null,
  });
  return `${FINGERPRINT_PREFIX}${sha256Hex(canonical)}`;
}

/**
 * What an existing claim of the key means for this request: a replay of the kept answer, or a 409. A record of another
 * request (another path, method, query, project or body), or of the earlier fingerprint format, is never replayed.
 */
export function answerExisting(existing: IdempotencyRecord, fingerprint: string): APIGatewayProxyResult {
  if (!existing.request_hash.startsWith(FINGERPRINT_PREFIX)) {
    throw new ConflictError(
      'This Idempotency-Key was used before a service update and cannot be matched to this request; send it with a new Idempotency-Key.',
      'idempotency_conflict',
    );
  }
  if (existing.request_hash !== fingerprint) {
    throw new ConflictError(
      'This Idempotency-Key was already used with a different request (method, path, query string or body); use a new key for a new request.',
      'idempotency_conflict',
    );
  }
  if (existing.status === 'done' && existing.response_status !== undefined) return replayed(existing.response_status, existing.response_body ?? '');
  throw new ConflictError('A request with this Idempotency-Key is still being processed; retry shortly.', 'idempotency_conflict');
}

/**
 * The idempotency store keeps a response body as text: a binary one is kept as a marker, its Content-Type and base64,
 * which no JSON text can start with.
 */
const BINARY_MARK = '\u0000base64:';

/**
 * The body a replay record keeps. Each of `secretFields` present at the top level of a JSON object body is kept as null
 * with `<field>_withheld: true` beside it: a secret is shown once, by the first answer, and never stored for replays.
 */
export function storedBody(response: APIGatewayProxyResult, secretFields: readonly string[] = []): string {
  if (response.isBase64Encoded) return `${BINARY_MARK}${response.headers?.['Content-Type'] ?? 'application/octet-stream'}\n${response.body}`;
  return secretFields.length === 0 ? response.body : withoutSecrets(response.body, secretFields);
}

function withoutSecrets(text: string, secretFields: readonly string[]): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return text;
  const kept: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  let changed = false;
  for (const field of secretFields) {
    if (!Object.hasOwn(kept, field)) continue;
    kept[field] = null;
    kept[`${field}_withheld`] = true;
    changed = true;
  }
  return changed ? JSON.stringify(kept) : text;
}

/** The kept answer, marked `Idempotent-Replayed: true`. */
export function replayed(status: number, stored: string): APIGatewayProxyResult {
  const headers = { 'Idempotent-Replayed': 'true' };
  if (!stored.startsWith(BINARY_MARK)) return { statusCode: status, headers: { 'Content-Type': 'application/json', ...headers }, body: stored };
  const newline = stored.indexOf('\n');
  return {
    statusCode: status,
    headers: { 'Content-Type': stored.slice(BINARY_MARK.length, newline), ...headers },
    body: stored.slice(newline + 1),
    isBase64Encoded: true,
  };
}

/** When a completed answer stops being replayed (unix seconds). */
export function completedExpiry(deps: Deps): number {
  return Math.floor(deps.clock.now().getTime() / 1000) + IDEMPOTENCY_TTL_S;
}

/** How long an in-progress claim may live: the invocation's remaining time (the function cannot outlive it). */
export function inProgressMs(context: Context | undefined): number {
  const remaining = typeof context?.getRemainingTimeInMillis === 'function' ? context.getRemainingTimeInMillis() : NaN;
  return Number.isFinite(remaining) && remaining > 0 ? remaining : IN_PROGRESS_FALLBACK_MS;
}

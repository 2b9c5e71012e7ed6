// The shape of a route table row (lib/routes.ts) and what follows from one: its name and which path ids are UUIDs. In
// the core because the OpenAPI document reads rows too, and the core imports nothing outside itself.
import type { QuerySchemaName, RequestSchemaName, ResponseSchemaName } from './openapi/schemas';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * What a function sends or calls besides the table. Its bundle carries, and its code sees, only the clients named here
 * (lib/constructs/bundling.ts, functions/wiring/deps.ts); the stack grants a route's function the queue and the bus from
 * the same flags.
 */
export interface Wiring {
  /** Sends replay messages to the queue. */
  queue?: boolean;
  /** Publishes project events to the bus. */
  bus?: boolean;
  /** Calls agents over HTTP (the SSRF-guarded sender). */
  http?: boolean;
}

/** One route: everything the stack, the local gateway, the HTTP chain and the OpenAPI document know of it. */
export interface RouteRow extends Wiring {
  method: HttpMethod;
  /** API Gateway resource path, with `{param}` placeholders; a `{*_id}` parameter is a UUID unless isUuidParam says not. */
  path: string;
  /** Handler module under functions/http, without extension; it exports `handler`, built by route() from this row. */
  handler: string;
  /** false for the few public routes (health, OpenAPI); every other route sits behind the authorizer. */
  auth: boolean;
  /** DynamoDB access the function needs: least privilege in the cloud (`none`: no TABLE_NAME, no grant). */
  table: 'none' | 'read' | 'readwrite';
  /** Request body limit in bytes (docs/api.md#limits); default DEFAULT_BODY_LIMIT (functions/core/limits.ts). */
  maxBodyBytes?: number;
  /** JSON nesting depth of the body; default DEFAULT_MAX_DEPTH (functions/core/limits.ts). */
  maxDepth?: number;
  /**
   * Top-level fields of the answer that hold a secret shown once (a webhook's signing secret). The Idempotency-Key
   * record keeps the answer without them: a replay carries each as null with `<field>_withheld: true`.
   */
  secretFields?: readonly string[];
  /** Success status, for the OpenAPI document. */
  status: number;
  /** One line for the OpenAPI document. */
  summary: string;
  /**
   * The request body's schema, by its name in the OpenAPI registry (functions/core/openapi/schemas.ts). The handler
   * passes the schema it validates with to route(); a test holds the two to the same schema.
   */
  body?: RequestSchemaName;
  /** The body may be absent or empty (every field optional). */
  optionalBody?: boolean;
  /** The success body's schema, by name (functions/core/openapi/schemas.ts); absent for 204. */
  response?: ResponseSchemaName;
  /** Other success answers: status -> body schema name. */
  also?: Partial<Record<number, ResponseSchemaName>>;
  /**
   * The answer carries an `ETag` (the resource's version, quoted); `write`: the request may also send `If-Match`, and a
   * stale one is a 412 precondition_failed (docs/api.md#conditional-requests).
   */
  etag?: 'read' | 'write';
  /** A paginated list (`?limit=&cursor=`): its function alone gets the cursor-signing key. */
  list?: boolean;
  /** The list's filters, by name (functions/core/openapi/schemas.ts). */
  query?: QuerySchemaName;
  /**
   * Errors beyond those the row's shape implies (400/413/415 with a body, 401 with auth, 404 with path ids, 409 and 422
   * on POSTs for idempotency, 422 with a body or a list, 429, 500, 503 behind the store), with what causes them.
   */
  errors?: Partial<Record<number, string>>;
  /**
   * The route speaks a protocol of its own: `mcp`, JSON-RPC 2.0 over the MCP Streamable HTTP transport. Its handler
   * reads the body itself; the document gives it the MCP bodies, the 202 of a notification, its errors in the
   * JSON-RPC shape and the attempt's bearer token as its credential.
   */
  protocol?: 'mcp';
}

/**
 * Whether a route takes an `Idempotency-Key` (docs/api.md#idempotency): every authenticated POST and PUT. A PUT is
 * idempotent by itself, but its answer can change under it (another update, an If-Match gone stale): the key replays the
 * first answer.
 */
export function takesIdempotencyKey(row: Pick<RouteRow, 'method' | 'auth'>): boolean {
  return (row.method === 'POST' || row.method === 'PUT') && row.auth;
}

/** A route's name in logs and idempotency records: `POST /v1/traces`. */
export function routeName(row: Pick<RouteRow, 'method' | 'path'>): string {
  return `${row.method} ${row.path}`;
}

/** The parameters of a path pattern, in order: `/v1/runs/{run_id}/attempts/{attempt}` -> run_id, attempt. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]);
}

/**
 * Whether a path parameter is a lowercase UUID v4, which the HTTP chain checks before anything else (a malformed one is a
 * 404): every `*_id` but a webhook id (`wh_` + 24 alphanumerics, checked by the webhook service). An attempt is a number.
 */
export function isUuidParam(name: string): boolean {
  return name.endsWith('_id') && name !== 'webhook_id';
}

// The one middy chain every HTTP handler uses: headers, auth context, body limits, JSON, zod validation,
// idempotency, and the error mapper that turns everything into the one error body (docs/api.md#errors).
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy, { type MiddyfiedHandler } from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
// Types only: routes without a body schema must not bundle zod. Body schemas are zod/mini schemas (functions/core/*/schema.ts).
import type { ZodMiniType as ZodType } from 'zod/mini';
import type { output } from 'zod/v4/core';
import {
  AppError,
  InternalError,
  InvalidJsonError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitedError,
  ServiceUnavailableError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
  ValidationError,
  errorBody,
} from '../core/errors';
import { isUuid } from '../core/ids';
import { findJsonProblem } from '../core/json';
import { DEFAULT_BODY_LIMIT, DEFAULT_MAX_DEPTH } from '../core/limits';
import { isUuidParam, pathParams, routeName, takesIdempotencyKey, type HttpMethod, type RouteRow, type Wiring } from '../core/route-row';
import { validate } from '../core/validate';
import { isThrottlingError, isTransientError } from '../adapters/errors';
import type { Deps, PageRequest } from '../core/ports';
import { decodeCursor, type CursorDeps } from './cursor';
import { wiredDeps } from '../wiring/deps';
import { answerExisting, completedExpiry, inProgressMs, requestFingerprint, storedBody, type IdempotentRequest } from './idempotency';
import { logger } from '../wiring/logger';

export interface RouteContext<B> {
  body: B;
  params: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  projectId: string;
  requestId: string;
  deps: Deps;
  event: APIGatewayProxyEvent;
}

export interface RouteResult {
  status: number;
  /** Sent as it is (with the Content-Type given in `headers`) in place of `body`: a protocol answer already serialised. */
  text?: string;
  /** Serialised as JSON; a Uint8Array is sent as it is (binary, with the Content-Type given in `headers`). */
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * What route() reads of its route table row (functions/core/route-row.ts): the name (method and path), auth, the
 * limits, an optional body, the secret fields, the wiring; the UUID path ids follow from the path. A row of lib/routes.ts
 * is one; a test may pass just these fields.
 */
export type ChainRow = Pick<RouteRow, 'method' | 'path' | 'auth'> &
  Partial<Pick<RouteRow, 'maxBodyBytes' | 'maxDepth' | 'optionalBody' | 'secretFields' | keyof Wiring>>;

/** The code a route with a body brings to the chain (its row names the schema for the OpenAPI document). */
export interface BodyHandling<S extends ZodType> {
  /** The zod/mini schema the body is validated with. */
  body: S;
  /**
   * Decodes a body that is not (only) plain JSON, in place of the content-type check and JSON parsing (the OTLP
   * receiver: protobuf, gzip): gets the raw bytes once they are within the row's limit (and the limit, for what it
   * decompresses), returns the parsed body (checked then like a JSON body: an object within the row's depth, then
   * `body`), or throws an AppError.
   */
  readBody?: (raw: Buffer, headers: Record<string, string>, limit: number) => unknown;
}

type RouteFn<B> = (ctx: RouteContext<B>) => Promise<RouteResult>;
export type RouteHandler = MiddyfiedHandler<APIGatewayProxyEvent, APIGatewayProxyResult>;

export { validate, zodDetails } from '../core/validate';

export function json(status: number, body: unknown, headers: Record<string, string> = {}): APIGatewayProxyResult {
  if (body instanceof Uint8Array) {
    // API Gateway turns it back into bytes for clients whose Accept names a binary media type (lib/routes.ts).
    return {
      statusCode: status,
      headers: { 'Content-Type': 'application/octet-stream', ...headers },
      body: Buffer.from(body).toString('base64'),
      isBase64Encoded: true,
    };
  }
  return {
    statusCode: status,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? '' : JSON.stringify(body),
  };
}

function requestIdOf(event: APIGatewayProxyEvent, context?: Context): string {
  return event?.requestContext?.requestId ?? context?.awsRequestId ?? 'unknown';
}

/** Maps any thrown value to a response; unknown errors become 500 internal_error and are logged with the request id. */
export function errorResponse(err: unknown, requestId: string): APIGatewayProxyResult {
  let appErr: AppError;
  if (err instanceof AppError) appErr = err;
  else if (isThrottlingError(err)) {
    logger.warn('throttled by a downstream service', { requestId, error: err as Error });
    appErr = new RateLimitedError();
  } else if (isTransientError(err)) {
    // The store or the queue failed for a moment (after the SDK's own retries): the request may be retried as it is.
    logger.warn('transient failure of a downstream service', { requestId, error: err as Error });
    appErr = new ServiceUnavailableError();
  } else {
    logger.error('unhandled error', { requestId, error: err as Error });
    appErr = new InternalError();
  }
  const headers: Record<string, string> = {};
  if (appErr.status === 429) headers['Retry-After'] = String(appErr instanceof RateLimitedError ? appErr.retryAfterS : 1);
  if (appErr instanceof ServiceUnavailableError) headers['Retry-After'] = String(appErr.retryAfterS);
  return json(appErr.status, errorBody(appErr, requestId), headers);
}

function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  const type = value.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

function rawBody(event: APIGatewayProxyEvent): string | null {
  if (event.body === null || event.body === undefined) return null;
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}

/** Parses `?limit=&cursor=` (docs/api.md#pagination) for a listing scoped by `scope`; the cursor is verified with deps' key. */
export async function pageRequest(deps: CursorDeps, query: Record<string, string>, scope: string): Promise<PageRequest> {
  let limit = 50;
  if (query.limit !== undefined) {
    limit = Number(query.limit);
    if (!/^\d+$/.test(query.limit) || limit < 1 || limit > 100) {
      throw new ValidationError('limit must be an integer from 1 to 100.', [{ path: 'limit', message: 'must be an integer from 1 to 100' }]);
    }
  }
  return { limit, after: await decodeCursor(deps, scope, query.cursor) };
}

/**
 * Builds the Lambda handler of one route from its row. The chain runs, in order: the Lambda context on log lines, header
 * normalisation, auth context, UUID path ids, body limit, content type, JSON parsing, validation, idempotency, the route
 * function; errors map last. The route function sees the queue, the bus and outbound HTTP only if its row names them.
 */
export function route(row: ChainRow, fn: RouteFn<undefined>): RouteHandler;
export function route<S extends ZodType>(row: ChainRow, handling: BodyHandling<S>, fn: RouteFn<output<S>>): RouteHandler;
export function route(row: ChainRow, ...args: [RouteFn<undefined>] | [BodyHandling<ZodType>, RouteFn<unknown>]): RouteHandler {
  const [handling, fn] = (args.length === 1 ? [undefined, args[0]] : args) as [BodyHandling<ZodType> | undefined, RouteFn<unknown>];
  const name = routeName(row);
  const auth = row.auth;
  const limit = row.maxBodyBytes ?? DEFAULT_BODY_LIMIT;
  const maxDepth = row.maxDepth ?? DEFAULT_MAX_DEPTH;
  const uuidParams = pathParams(row.path).filter((param) => isUuidParam(param));

  const core = async (event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> => {
    const requestId = requestIdOf(event, context);
    const headers = (event.headers ?? {}) as Record<string, string>;
    let projectId = '';
    if (auth) {
      const fromAuthorizer = event.requestContext?.authorizer?.projectId;
      if (typeof fromAuthorizer !== 'string' || !isUuid(fromAuthorizer)) throw new UnauthorizedError();
      projectId = fromAuthorizer;
    }
    const params = { ...event.pathParameters } as Record<string, string>;
    // Ids are lowercase; one sent in capitals names the same resource, as in a body or a filter (docs/api.md#ids).
    for (const param of uuidParams) {
      const id = params[param];
      if (typeof id !== 'string' || !isUuid(id.toLowerCase())) throw new NotFoundError(resourceName(param));
      params[param] = id.toLowerCase();
    }
    const query = (event.queryStringParameters ?? {}) as Record<string, string>;

    let body: unknown;
    let bodyText: string | null = null;
    if (handling?.readBody) {
      const raw =
        event.body === null || event.body === undefined ? Buffer.alloc(0) : Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
      if (raw.length > limit) throw new PayloadTooLargeError(limit);
      body = handling.readBody(raw, headers, limit);
      if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new InvalidJsonError('The request body must be a JSON object.');
      checkJson(body, maxDepth);
    } else if (handling) {
      bodyText = rawBody(event);
      if (bodyText !== null && Buffer.byteLength(bodyText, 'utf8') > limit) throw new PayloadTooLargeError(limit);
      const hasBody = bodyText !== null && bodyText.length > 0;
      if (hasBody && !isJsonContentType(headers['content-type'])) throw new UnsupportedMediaTypeError();
      if (!hasBody && !row.optionalBody) throw new InvalidJsonError('A JSON object body is required.');
      try {
        body = hasBody ? JSON.parse(bodyText as string) : {};
      } catch {
        throw new InvalidJsonError();
      }
      if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new InvalidJsonError('The request body must be a JSON object.');
      checkJson(body, maxDepth);
    }

    const deps = wiredDeps(row);
    const run = async (): Promise<RouteResult> => {
      const parsed = handling ? validate(handling.body, body) : undefined;
      return fn({ body: parsed, params, query, headers, projectId, requestId, deps, event });
    };

    const idemKey = headers['idempotency-key'];
    if (idemKey !== undefined && takesIdempotencyKey({ method: event.httpMethod as HttpMethod, auth })) {
      // A route without a body schema ignores any body sent; its text still tells two requests apart.
      const sent = handling ? body : rawBody(event) || null;
      const request: IdempotentRequest = { projectId, method: event.httpMethod, route: name, params, query, body: sent };
      return withIdempotency(deps, request, idemKey, row.secretFields ?? [], requestId, inProgressMs(context), run);
    }
    const result = await run();
    if (result.text !== undefined) return { statusCode: result.status, headers: result.headers ?? {}, body: result.text };
    return json(result.status, result.body, result.headers);
  };

  return (
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      // First, so every line logged below (the error mapper's included) carries the request id and cold start.
      .use(injectLambdaContext(logger))
      .use(httpHeaderNormalizer())
      .use({
        onError: async (request) => {
          request.response = errorResponse(request.error, requestIdOf(request.event, request.context));
        },
      })
      .handler(core)
  );
}

/** The 422 for a body nested past `maxDepth` or holding a number the store cannot keep. */
function checkJson(body: unknown, maxDepth: number): void {
  const problem = findJsonProblem(body, maxDepth);
  if (problem) {
    const message = problem.message.startsWith('nesting')
      ? `The request body nests deeper than ${maxDepth} levels.`
      : `The request body holds a number the service cannot store at ${problem.path || 'the root'}.`;
    throw new ValidationError(message, [{ path: problem.path, message: problem.message }]);
  }
}

/** Runs a POST or PUT under its Idempotency-Key: the first request with a key runs, the same request again is replayed. */
async function withIdempotency(
  deps: Deps,
  request: IdempotentRequest,
  key: string,
  secretFields: readonly string[],
  requestId: string,
  inProgressMs: number,
  run: () => Promise<RouteResult>,
): Promise<APIGatewayProxyResult> {
  if (key.length < 1 || key.length > 255) {
    throw new ValidationError('Idempotency-Key must be 1-255 characters.', [{ path: 'Idempotency-Key', message: 'must be 1-255 characters' }]);
  }
  const { projectId } = request;
  const fingerprint = requestFingerprint(request);
  const now = deps.clock.now();
  // The claim lives only as long as this invocation can (Powertools' idempotency model): if the function dies
  // before completing, a retry with the same key runs again once the invocation's time is up, instead of
  // answering 409 for a day. Only a completed response is kept for 24 h.
  const existing = await deps.idempotency.claim({
    project_id: projectId,
    key,
    route: request.route,
    request_hash: fingerprint,
    claim_id: deps.uuid(),
    status: 'in_progress',
    created_at: now.toISOString(),
    expires_at: Math.ceil((now.getTime() + inProgressMs) / 1000),
  });
  if (existing) return answerExisting(existing, fingerprint);
  try {
    const result = await run();
    const response = json(result.status, result.body, result.headers);
    await deps.idempotency.complete(projectId, key, response.statusCode, storedBody(response, secretFields), completedExpiry(deps));
    return response;
  } catch (err) {
    if (err instanceof AppError && err.status < 500 && err.status !== 429) {
      // A deterministic rejection is part of the key's history: replaying it must answer the same.
      const response = errorResponse(err, requestId);
      await deps.idempotency.complete(projectId, key, response.statusCode, response.body, completedExpiry(deps));
      return response;
    }
    await deps.idempotency.release(projectId, key).catch(() => undefined);
    throw err;
  }
}

function resourceName(param: string): string {
  const base = param.replace(/_id$/, '');
  return base.charAt(0).toUpperCase() + base.slice(1);
}

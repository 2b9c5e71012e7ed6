// The middy chain every HTTP handler runs, without the service's state: the Lambda context on log lines, headers, auth
// context, path ids, body limits, JSON, depth, and the error mapper that turns everything into the one error body
// (docs/api.md#errors). route.ts adds the store (deps, validation, idempotency); storelessRoute() serves the routes that
// read nothing of the service's state (health, the OpenAPI document), whose bundles then carry no AWS client.
import middy, { type MiddyfiedHandler } from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
// Types only: routes without a body schema must not bundle zod. Body schemas are zod/mini schemas (functions/core/*/schema.ts).
import type { ZodMiniType as ZodType } from 'zod/mini';
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
import { isUuidParam, pathParams, takesIdempotencyKey, type HttpMethod, type RouteRow, type Wiring } from '../core/route-row';
import { isThrottlingError, isTransientError } from '../adapters/errors';
import { lambdaContext, logger } from '../wiring/logger';

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

export type RouteHandler = MiddyfiedHandler<APIGatewayProxyEvent, APIGatewayProxyResult>;

/** A request as the chain has read it, before the route function: the body parsed (not validated) when the route takes one. */
export interface ReadRequest {
  /** The parsed JSON body (or what `readBody` returned); undefined for a route without a body. */
  body: unknown;
  params: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** The project the authorizer found; '' on a public route. */
  projectId: string;
  requestId: string;
  event: APIGatewayProxyEvent;
  context: Context;
}

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

/** The response of a route function's result: its text as it is, else its body as JSON (or bytes). */
export function respond(result: RouteResult): APIGatewayProxyResult {
  if (result.text !== undefined) return { statusCode: result.status, headers: result.headers ?? {}, body: result.text };
  return json(result.status, result.body, result.headers);
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

export function rawBody(event: APIGatewayProxyEvent): string | null {
  if (event.body === null || event.body === undefined) return null;
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}

/**
 * The handler of one route from its row: the chain reads the request (auth context, UUID path ids, body limit,
 * content type, JSON parsing and depth when `handling` is given), then `serve` answers it; errors map last.
 */
export function chain(
  row: ChainRow,
  handling: BodyHandling<ZodType> | undefined,
  serve: (request: ReadRequest) => Promise<APIGatewayProxyResult>,
): RouteHandler {
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
    if (handling?.readBody) {
      const raw =
        event.body === null || event.body === undefined ? Buffer.alloc(0) : Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
      if (raw.length > limit) throw new PayloadTooLargeError(limit);
      body = handling.readBody(raw, headers, limit);
      if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new InvalidJsonError('The request body must be a JSON object.');
      checkJson(body, maxDepth);
    } else if (handling) {
      const bodyText = rawBody(event);
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
    return serve({ body, params, query, headers, projectId, requestId, event, context });
  };

  return (
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      // First, so every line logged below (the error mapper's included) carries the request id and cold start.
      .use(lambdaContext())
      .use(httpHeaderNormalizer())
      .use({
        onError: async (request) => {
          request.response = errorResponse(request.error, requestIdOf(request.event, request.context));
        },
      })
      .handler(core)
  );
}

/**
 * The handler of a route that reads nothing of the service's state and takes no body (GET /health, the OpenAPI
 * document): the chain without deps, so its bundle carries no store, queue or bus client. A row that takes an
 * Idempotency-Key needs the store: route() serves it.
 */
export function storelessRoute(row: ChainRow, fn: (request: ReadRequest) => Promise<RouteResult>): RouteHandler {
  if (takesIdempotencyKey({ method: row.method as HttpMethod, auth: row.auth })) {
    throw new Error(`${row.method} ${row.path} takes an Idempotency-Key, which needs the store: build it with route()`);
  }
  return chain(row, undefined, async (request) => respond(await fn(request)));
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

function resourceName(param: string): string {
  const base = param.replace(/_id$/, '');
  return base.charAt(0).toUpperCase() + base.slice(1);
}

// The handler of every HTTP route that reads or writes the service's state: the chain (chain.ts: headers, auth context,
// path ids, body limits, JSON), then zod validation, idempotency and the route function with its deps
// (docs/api.md#errors).
import type { APIGatewayProxyResult } from 'aws-lambda';
// Types only: routes without a body schema must not bundle zod. Body schemas are zod/mini schemas (functions/core/*/schema.ts).
import type { ZodMiniType as ZodType } from 'zod/mini';
import type { output } from 'zod/v4/core';
import { AppError, ValidationError } from '../core/errors';
import { routeName, takesIdempotencyKey, type HttpMethod } from '../core/route-row';
import { validate } from '../core/validate';
import type { Deps, PageRequest } from '../core/ports';
import { decodeCursor, type CursorDeps } from './cursor';
import { wiredDeps } from '../wiring/deps';
import { answerExisting, completedExpiry, inProgressMs, requestFingerprint, storedBody, type IdempotentRequest } from './idempotency';
import {
  chain,
  errorResponse,
  json,
  rawBody,
  respond,
  type BodyHandling,
  type ChainRow,
  type ReadRequest,
  type RouteHandler,
  type RouteResult,
} from './chain';

/** What a route function gets: the request as the chain read it, its body validated, and the deps its row wires. */
export interface RouteContext<B> extends Omit<ReadRequest, 'body' | 'context'> {
  body: B;
  deps: Deps;
}

type RouteFn<B> = (ctx: RouteContext<B>) => Promise<RouteResult>;

export { validate, zodDetails } from '../core/validate';

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
 * normalisation, auth context, UUID path ids, body limit, content type, JSON parsing (chain.ts), then validation,
 * idempotency, the route function; errors map last. The route function sees the queue, the bus and outbound HTTP only if
 * its row names them.
 */
export function route(row: ChainRow, fn: RouteFn<undefined>): RouteHandler;
export function route<S extends ZodType>(row: ChainRow, handling: BodyHandling<S>, fn: RouteFn<output<S>>): RouteHandler;
export function route(row: ChainRow, ...args: [RouteFn<undefined>] | [BodyHandling<ZodType>, RouteFn<unknown>]): RouteHandler {
  const [handling, fn] = (args.length === 1 ? [undefined, args[0]] : args) as [BodyHandling<ZodType> | undefined, RouteFn<unknown>];
  const name = routeName(row);
  const auth = row.auth;
  return chain(row, handling, async ({ body, params, query, headers, projectId, requestId, event, context }) => {
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
    return respond(await run());
  });
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

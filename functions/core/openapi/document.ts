// The OpenAPI 3.1 document, generated from the route table and the same zod schemas the handlers validate with; the
// success bodies come from the response schemas beside each domain's views, the errors from what each route can answer.
import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { ZodType } from 'zod';
import { EVENT_TYPES } from '../events';
import { QUERY_SCHEMAS, REQUEST_SCHEMAS, RESPONSE_SCHEMAS, type ResponseSchemaName } from './schemas';
import { DEFAULT_SERVER, servedAt } from './servers';
import { DEFAULT_BODY_LIMIT } from '../limits';
import { isUuidParam, pathParams, takesIdempotencyKey, type RouteRow } from '../route-row';
import { WEBHOOK_ID_PATTERN, errorSchema } from './response-blocks';
import { z } from './zod';

export type { QuerySchemaName, RequestSchemaName, ResponseSchemaName } from './schemas';
export { DEFAULT_SERVER } from './servers';

const TAGS = [
  { name: 'service', description: 'Liveness and this document (no credentials).' },
  { name: 'traces', description: 'Recorded agent conversations (native format or OTLP exports).' },
  { name: 'campaigns', description: 'What a replay does: target, mutations, policies, detectors, criteria; the eval-set pool and run-packs.' },
  { name: 'runs', description: 'Replays of one trace against one campaign: attempts, scores, policy and security events.' },
  { name: 'ci', description: 'CI gating: single CI runs and batches over an eval-set, with thresholds, statistics and baselines.' },
  { name: 'webhooks', description: 'Signed deliveries of project events, their log, resend and recovery.' },
];

const SUCCESS: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted: queued for processing', 204: 'No content' };
const RETRY_AFTER: ResponseConfig['headers'] = {
  'Retry-After': {
    description: 'Seconds to wait before retrying (absent on throttling answered by API Gateway itself).',
    schema: { type: 'integer', minimum: 0 },
  },
};
const REPLAYED: ResponseConfig['headers'] = {
  'Idempotent-Replayed': {
    description: '"true" when this is the stored answer to an earlier request with the same Idempotency-Key (kept 24 h).',
    schema: { type: 'string', enum: ['true'] },
  },
};

const ETAG: ResponseConfig['headers'] = {
  ETag: { description: 'The version of the resource, quoted ("3"); send it back as If-Match to update it.', schema: { type: 'string' } },
};

/** The request headers a route documents: Idempotency-Key, If-Match. */
function requestHeaders(r: RouteRow, shared: SharedParams) {
  const fields: Record<string, ZodType> = {};
  if (takesIdempotencyKey(r)) fields['Idempotency-Key'] = shared.idempotencyKey;
  if (r.etag === 'write') {
    fields['If-Match'] = z
      .string()
      .optional()
      .openapi({ description: 'Update only if the resource is still at this version: 3, or its ETag "3" (* matches any); else 412.' });
  }
  return Object.keys(fields).length ? z.object(fields) : undefined;
}

function tagOf(path: string): string {
  const segment = path.split('/')[2];
  return TAGS.some((t) => t.name === segment) ? segment : 'service';
}

function kib(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`;
}

function pathParam(name: string): ZodType {
  if (isUuidParam(name))
    return z.uuid().openapi({ description: 'UUID v4, read lowercase (one sent in capitals names the same resource); a malformed id is a 404.' });
  if (name === 'webhook_id')
    return z.string().regex(WEBHOOK_ID_PATTERN).openapi({ description: 'wh_ + 24 lowercase alphanumerics; anything else is a 404.' });
  if (name === 'attempt')
    return z
      .string()
      .regex(/^[1-9][0-9]{0,3}$/)
      .openapi({ description: 'Attempt number, from 1; anything else is a 404.' });
  throw new Error(`no format for the path parameter ${name}`);
}

/** The error statuses a route can answer, each with what causes it. */
export function errorStatuses(r: RouteRow): Record<number, string> {
  if (r.protocol === 'mcp') {
    // Its own errors are JSON-RPC bodies; the gateway's (throttling, an unexpected failure) the service's error body.
    return {
      ...r.errors,
      429: 'rate_limited: too many requests; retry later',
      500: 'internal_error: an unexpected error, logged with the request id',
    };
  }
  const params = r.path.includes('{');
  const idempotent = takesIdempotencyKey(r);
  const out: Record<number, string[]> = {};
  const add = (status: number, text: string | undefined) => {
    if (text) (out[status] ??= []).push(text);
  };
  if (r.body) add(400, 'invalid_json: the body is not JSON, or not a JSON object');
  if (r.auth) add(401, 'unauthorized: missing or unknown X-API-Key, a key of another project, or a missing or malformed X-Project-Id');
  if (params) add(404, 'not_found: no such resource in this project (unknown id, an id of another project, or a malformed id)');
  if (idempotent) {
    add(
      409,
      'idempotency_conflict: this Idempotency-Key was used with another request (method, path, query string or body), or its first request is still running',
    );
  }
  if (r.body) add(413, `payload_too_large: the body exceeds ${kib(r.maxBodyBytes ?? DEFAULT_BODY_LIMIT)}`);
  if (r.body) add(415, 'unsupported_media_type: a body without Content-Type: application/json');
  const invalid = [
    r.body && 'the body fails validation (details name each problem)',
    r.list && 'limit is not an integer from 1 to 100, or the cursor was not issued by this listing',
    r.query && 'a filter is invalid',
    idempotent && 'the Idempotency-Key is longer than 255 characters',
    r.etag === 'write' && 'If-Match is not a version number or its quoted ETag',
  ].filter(Boolean);
  if (invalid.length) add(422, `validation_error: ${invalid.join('; or ')}`);
  if (r.etag === 'write') add(412, 'precondition_failed: If-Match names a version that is no longer the current one');
  for (const [status, text] of Object.entries(r.errors ?? {})) add(Number(status), text);
  add(429, 'rate_limited: too many requests; retry later');
  add(500, 'internal_error: an unexpected error, logged with the request id');
  if (r.auth) add(503, 'service_unavailable: the store, or the check of the credentials, failed for a moment; retry');
  return Object.fromEntries(Object.entries(out).map(([s, texts]) => [s, texts.join('; ')]));
}

function successResponse(r: RouteRow, status: number, name: ResponseSchemaName | undefined): ResponseConfig {
  const replayable = takesIdempotencyKey(r);
  const content: ResponseConfig['content'] = name ? { 'application/json': { schema: RESPONSE_SCHEMAS[name] } } : undefined;
  if (content && r.body === 'TraceInput' && status === 200) {
    content['application/x-protobuf'] = { schema: z.string().openapi({ description: 'ExportTraceServiceResponse, for a protobuf export.' }) };
  }
  const headers = { ...(replayable ? REPLAYED : {}), ...(r.etag ? ETAG : {}) };
  return { description: SUCCESS[status] ?? 'Success', ...(Object.keys(headers).length ? { headers } : {}), ...(content ? { content } : {}) };
}

/** Parameters registered once as components and referenced by every operation that takes them. */
interface SharedParams {
  idempotencyKey: ZodType;
  page: Record<string, ZodType>;
}

function operation(r: RouteRow, shared: SharedParams): RouteConfig {
  const names = pathParams(r.path);
  const responses: Record<string, ResponseConfig> = { [r.status]: successResponse(r, r.status, r.response) };
  for (const [status, name] of Object.entries(r.also ?? {})) responses[status] = successResponse(r, Number(status), name);
  const errorBody = r.protocol === 'mcp' ? RESPONSE_SCHEMAS.McpError : errorSchema;
  for (const [status, text] of Object.entries(errorStatuses(r))) {
    const retry = status === '429' || status === '503';
    responses[status] = { description: text, ...(retry ? { headers: RETRY_AFTER } : {}), content: { 'application/json': { schema: errorBody } } };
  }
  if (r.protocol === 'mcp') responses['202'] = { description: 'Only notifications or responses were sent: accepted, no body' };
  responses.default = {
    description: 'Any other error (e.g. 504 when the route times out): the same error body',
    content: { 'application/json': { schema: errorBody } },
  };
  const query = r.list ? shared.page : {};
  const body = r.body ? REQUEST_SCHEMAS[r.body] : undefined;
  const content: Record<string, { schema: ZodType }> = body ? { 'application/json': { schema: body } } : {};
  if (r.body === 'TraceInput')
    content['application/x-protobuf'] = { schema: z.string().openapi({ description: 'An OTLP ExportTraceServiceRequest.' }) };
  return {
    method: r.method.toLowerCase() as RouteConfig['method'],
    path: r.path,
    summary: r.summary,
    operationId: r.handler,
    tags: [tagOf(r.path)],
    security: r.auth ? [{ ApiKey: [], ProjectId: [] }] : r.protocol === 'mcp' ? [{ McpToken: [] }] : [],
    request: {
      ...(names.length ? { params: z.object(Object.fromEntries(names.map((p) => [p, pathParam(p)]))) } : {}),
      ...(r.list || r.query ? { query: z.object({ ...query, ...(r.query ? QUERY_SCHEMAS[r.query].shape : {}) }) } : {}),
      ...(requestHeaders(r, shared) ? { headers: requestHeaders(r, shared) } : {}),
      ...(body ? { body: { content, required: !r.optionalBody, ...(r.optionalBody ? { description: 'May be absent or empty.' } : {}) } } : {}),
    },
    responses,
  };
}

const cache = new WeakMap<readonly RouteRow[], Record<string, unknown>>();

type Json = Record<string, unknown>;

/** Every component name a node refers to with $ref, transitively. */
function referenced(node: unknown, schemas: Record<string, unknown>, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const n of node) referenced(n, schemas, into);
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      const name = k === '$ref' && typeof v === 'string' ? v.split('/').pop()! : undefined;
      if (name && !into.has(name)) {
        into.add(name);
        referenced(schemas[name], schemas, into);
      } else referenced(v, schemas, into);
    }
  }
  return into;
}

/** Marks every property with a default as required, in this schema and the schemas nested in it. */
function requireDefaults(node: unknown): void {
  if (Array.isArray(node))
    return node.forEach((element) => {
      requireDefaults(element);
    });
  if (!node || typeof node !== 'object') return;
  const schema = node as Json;
  const properties = schema.properties as Record<string, Json> | undefined;
  if (properties) {
    const withDefault = Object.keys(properties).filter((p) => 'default' in properties[p]);
    const required = new Set([...((schema.required as string[] | undefined) ?? []), ...withDefault]);
    if (required.size) schema.required = [...required];
  }
  for (const v of Object.values(schema)) requireDefaults(v);
}

/**
 * A response always holds the fields that have defaults (the stored values, defaults applied): in the schemas that only
 * responses use (a request's schemas keep them optional), every property with a default is required.
 */
function requireDefaultsInResponses(document: Json): void {
  const schemas = (document.components as { schemas: Record<string, unknown> }).schemas;
  const requests = Object.values(document.paths as Record<string, Record<string, { requestBody?: unknown; parameters?: unknown }>>).flatMap((item) =>
    Object.values(item).map((op) => [op.requestBody, op.parameters]),
  );
  const inRequests = referenced(requests, schemas);
  for (const [name, schema] of Object.entries(schemas)) if (!inRequests.has(name)) requireDefaults(schema);
}

/**
 * The OpenAPI 3.1 document of the given routes (the route table of lib/routes.ts), built once per table. `serverUrl`,
 * the base URL the document was requested at, replaces the default server.
 */
export function openApiDocument(routes: readonly RouteRow[], serverUrl?: string): Record<string, unknown> {
  let document = cache.get(routes);
  if (!document) {
    const registry = new OpenAPIRegistry();
    registry.registerComponent('securitySchemes', 'ApiKey', {
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
      description: 'rts_ + 40 base62 characters.',
    });
    registry.registerComponent('securitySchemes', 'McpToken', {
      type: 'http',
      scheme: 'bearer',
      description:
        "An `mcp` target attempt's token (rts_mcp_ + 43 base64url characters), sent to the agent in its invoke: valid while rts invokes the agent for that attempt, and only on that attempt's MCP endpoint.",
    });
    registry.registerComponent('securitySchemes', 'ProjectId', {
      type: 'apiKey',
      in: 'header',
      name: 'X-Project-Id',
      description: 'The project id (UUID).',
    });
    const idempotencyKey = registry.registerParameter(
      'IdempotencyKey',
      z
        .string()
        .min(1)
        .max(255)
        .optional()
        .openapi({
          param: {
            name: 'Idempotency-Key',
            in: 'header',
            description:
              'Per project. Within 24 h, the same key with the same request (method, path, query string and body) returns the first answer again, without any secret it held; with another request, 409.',
          },
        }),
    );
    const page = {
      limit: registry.registerParameter(
        'Limit',
        z
          .number()
          .int()
          .min(1)
          .max(100)
          .optional()
          .openapi({ param: { name: 'limit', in: 'query', description: 'Page size, 1-100 (default 50).' } }),
      ),
      cursor: registry.registerParameter(
        'Cursor',
        z
          .string()
          .optional()
          .openapi({ param: { name: 'cursor', in: 'query', description: 'The next_cursor of the previous page (opaque).' } }),
      ),
    };
    for (const r of routes) registry.registerPath(operation(r, { idempotencyKey, page }));
    document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
      openapi: '3.1.0',
      info: {
        title: 'rts: reliability testing service for AI agents',
        version: '1.0.0',
        license: { name: 'MIT', identifier: 'MIT' },
        description: `Every /v1 route but this document needs X-API-Key and X-Project-Id. Errors always have the body {"error": {code, message, details?, request_id}}. Webhook event types: ${EVENT_TYPES.join(', ')}.`,
      },
      servers: [DEFAULT_SERVER],
      tags: TAGS,
    }) as unknown as Record<string, unknown>;
    delete document.webhooks;
    requireDefaultsInResponses(document);
    cache.set(routes, document);
  }
  return servedAt(document, serverUrl);
}

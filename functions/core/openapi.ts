// The OpenAPI 3.1 document, generated from the route table and the same zod schemas the handlers validate with.
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import type { ZodType } from 'zod';
import { campaignInputSchema } from './campaigns/schema';
import { evalSetPatchSchema } from './campaigns/schema';
import { ciRunRequestSchema, runPackRequestSchema } from './ci/schema';
import { EVENT_TYPES } from './events';
import { runRequestSchema } from './runs/schema';
import { traceInputSchema } from './traces/schema';
import { webhookCreateSchema, webhookPatchSchema, webhookRecoverSchema } from './webhooks/schema';
import { z } from './zod';

const errorSchema = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      details: z.array(z.object({ path: z.string().optional(), message: z.string() })).optional(),
      request_id: z.string(),
    }),
  })
  .openapi('Error');

const otlpSchema = z.object({ resourceSpans: z.array(z.unknown()) }).openapi('OtlpExport');

/** Request body schemas, by the name a route row gives in `body` (lib/routes.ts). */
const REQUEST_SCHEMAS = {
  TraceInput: z.union([traceInputSchema, otlpSchema]),
  CampaignInput: campaignInputSchema,
  EvalSetPatch: evalSetPatchSchema,
  RunPackRequest: runPackRequestSchema,
  RunRequest: runRequestSchema,
  CiRunRequest: ciRunRequestSchema,
  WebhookCreate: webhookCreateSchema,
  WebhookPatch: webhookPatchSchema,
  WebhookRecover: webhookRecoverSchema,
} satisfies Record<string, ZodType>;

export type RequestSchemaName = keyof typeof REQUEST_SCHEMAS;

/** What the document needs of a route: the route table's rows (lib/routes.ts) have this shape. */
export interface OpenApiRoute {
  method: string;
  path: string;
  handler: string;
  auth: boolean;
  status: number;
  summary: string;
  body?: RequestSchemaName;
  list?: boolean;
}

const ERRORS: Record<number, string> = {
  400: 'invalid_json',
  401: 'unauthorized',
  404: 'not_found / route_not_found',
  409: 'conflict / idempotency_conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'validation_error / unknown_trace / insufficient_scenarios',
  429: 'rate_limited',
  500: 'internal_error',
};

const cache = new WeakMap<readonly OpenApiRoute[], unknown>();

/** Builds (once per route table) the OpenAPI 3.1 document of the given routes (the route table of lib/routes.ts). */
export function openApiDocument(routes: readonly OpenApiRoute[], serverUrl?: string): unknown {
  const cached = cache.get(routes);
  if (cached && !serverUrl) return cached;
  const registry = new OpenAPIRegistry();
  registry.register('Error', errorSchema);
  const apiKey = registry.registerComponent('securitySchemes', 'ApiKey', { type: 'apiKey', in: 'header', name: 'X-API-Key' });
  const project = registry.registerComponent('securitySchemes', 'ProjectId', { type: 'apiKey', in: 'header', name: 'X-Project-Id' });
  for (const r of routes) {
    const doc = { ...r, request: r.body ? REQUEST_SCHEMAS[r.body] : undefined };
    const params = [...r.path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]);
    const responses: Record<string, { description: string; content?: Record<string, { schema: ZodType }> }> = {
      [doc.status]: { description: doc.status === 204 ? 'No content' : 'Success' },
    };
    for (const [status, code] of Object.entries(ERRORS)) {
      if (!r.auth && status === '401') continue;
      responses[status] = { description: code, content: { 'application/json': { schema: errorSchema } } };
    }
    registry.registerPath({
      method: r.method.toLowerCase() as 'get',
      path: r.path,
      summary: doc.summary,
      operationId: r.handler,
      ...(r.auth ? { security: [{ [apiKey.name]: [], [project.name]: [] }] } : {}),
      request: {
        ...(params.length ? { params: z.object(Object.fromEntries(params.map((p) => [p, z.string()]))) } : {}),
        ...(doc.list ? { query: z.object({ limit: z.number().int().min(1).max(100).optional(), cursor: z.string().optional() }) } : {}),
        ...(r.method === 'POST' ? { headers: z.object({ 'Idempotency-Key': z.string().min(1).max(255).optional() }) } : {}),
        ...(doc.request ? { body: { content: { 'application/json': { schema: doc.request } }, required: true } } : {}),
      },
      responses,
    });
  }
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'rts: reliability testing service for AI agents',
      version: '1.0.0',
      description: `Webhook event types: ${EVENT_TYPES.join(', ')}. Errors always have the body {"error": {code, message, details?, request_id}}.`,
    },
    servers: serverUrl ? [{ url: serverUrl }] : [],
  });
  if (!serverUrl) cache.set(routes, document);
  return document;
}

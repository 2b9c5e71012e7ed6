// The OpenAPI 3.1 document, generated from the route table and the same zod schemas the handlers validate with.
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import type { ZodType } from 'zod';
import { routes } from '../../lib/routes';
import { campaignInputSchema } from './campaigns/schema';
import { evalSetPatchSchema } from './campaigns/schema';
import { ciRunRequestSchema, runPackRequestSchema } from './ci/schema';
import { EVENT_TYPES } from './events';
import { runRequestSchema } from './runs/schema';
import { traceInputSchema } from './traces/schema';
import { webhookCreateSchema, webhookPatchSchema } from './webhooks/schema';
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

interface RouteDoc {
  summary: string;
  status: number;
  request?: ZodType;
  /** Query parameters documented for list routes. */
  list?: boolean;
}

const docs: Record<string, RouteDoc> = {
  'get-health': { summary: 'Liveness check (no credentials).', status: 200 },
  'get-openapi': { summary: 'This document (no credentials).', status: 200 },
  'post-traces': { summary: 'Upload a trace (native format, or an OTLP/JSON export). 201 new, 200 identical re-upload, 409 different content under the same trace_id.', status: 201, request: z.union([traceInputSchema, otlpSchema]) },
  'list-traces': { summary: 'List traces, newest first, without steps.', status: 200, list: true },
  'get-trace': { summary: 'A stored trace with its metadata.', status: 200 },
  'post-campaigns': { summary: 'Create a campaign (target headers and api_key are write-only).', status: 201, request: campaignInputSchema },
  'list-campaigns': { summary: 'List campaigns, newest first.', status: 200, list: true },
  'get-campaign': { summary: 'A campaign, secrets redacted.', status: 200 },
  'patch-eval-set': { summary: 'Add/remove eval-set traces (incremental, idempotent) and set min_scenarios.', status: 200, request: evalSetPatchSchema },
  'get-eval-set': { summary: 'The eval-set pool and min_scenarios.', status: 200 },
  'post-run-pack': { summary: 'Queue one run per trace (default: the eval-set pool).', status: 202, request: runPackRequestSchema },
  'post-runs': { summary: 'Queue a replay run of one trace against one campaign.', status: 202, request: runRequestSchema },
  'list-runs': { summary: 'List runs, newest first; filters campaign_id, trace_id, status.', status: 200, list: true },
  'get-run': { summary: 'Run status, summary and scoring context.', status: 200 },
  'get-run-attempts': { summary: 'Attempts with transcripts and events.', status: 200 },
  'get-policy-events': { summary: 'Policy decisions, ordered by attempt then sequence.', status: 200, list: true },
  'get-security-events': { summary: 'Security events grouped by attempt (every attempt listed).', status: 200 },
  'post-ci-runs': { summary: 'Create a CI run, or a batch when the campaign has an eval-set.', status: 202, request: ciRunRequestSchema },
  'get-ci-run': { summary: 'A CI run with its gate decision and dashboard URL.', status: 200 },
  'get-ci-batch': { summary: 'The aggregated verdict of a CI batch.', status: 200 },
  'post-webhooks': { summary: 'Register a webhook (https only); the secret is returned once.', status: 201, request: webhookCreateSchema },
  'list-webhooks': { summary: 'List webhooks (no secrets).', status: 200, list: true },
  'get-webhook': { summary: 'A webhook (no secret) with its last delivery status.', status: 200 },
  'patch-webhook': { summary: 'Update url, events, is_enabled (pause/resume) or description.', status: 200, request: webhookPatchSchema },
  'delete-webhook': { summary: 'Delete a webhook; deliveries stop at once.', status: 204 },
  'post-webhook-rotate-secret': { summary: 'Rotate the signing secret; the old one stops signing immediately.', status: 200 },
  'get-webhook-deliveries': { summary: 'Delivery log, newest first, kept 7 days.', status: 200, list: true },
};

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

let cached: unknown;

/** Builds (once) the OpenAPI 3.1 document for every route of lib/routes.ts. */
export function openApiDocument(serverUrl?: string): unknown {
  if (cached && !serverUrl) return cached;
  const registry = new OpenAPIRegistry();
  registry.register('Error', errorSchema);
  const apiKey = registry.registerComponent('securitySchemes', 'ApiKey', { type: 'apiKey', in: 'header', name: 'X-API-Key' });
  const project = registry.registerComponent('securitySchemes', 'ProjectId', { type: 'apiKey', in: 'header', name: 'X-Project-Id' });
  for (const r of routes) {
    const doc = docs[r.handler];
    if (!doc) throw new Error(`no OpenAPI entry for route ${r.method} ${r.path}`);
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
  if (!serverUrl) cached = document;
  return document;
}

// THE route table, pure data: the CDK stack makes one function per row, the local gateway matches requests against it.

import type { QuerySchemaName, RequestSchemaName, ResponseSchemaName } from '../functions/core/openapi-schemas';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface RouteDef {
  method: HttpMethod;
  /** API Gateway resource path, with `{param}` placeholders. */
  path: string;
  /** Handler module under functions/http, without extension; it exports `handler`. */
  handler: string;
  /** false for the few public routes (health, OpenAPI); every other route sits behind the authorizer. */
  auth: boolean;
  /** DynamoDB access the function needs: least privilege in the cloud (`none`: no TABLE_NAME, no grant). */
  table: 'none' | 'read' | 'readwrite';
  /** Sends replay messages to the queue. */
  queue?: boolean;
  /** Publishes project events to the bus. */
  bus?: boolean;
  /** Request body limit in bytes (docs/api.md#limits); default 256 KiB. */
  maxBodyBytes?: number;
  /** Success status, for the OpenAPI document. */
  status: number;
  /** One line for the OpenAPI document. */
  summary: string;
  /** The request body's schema, by its name in the OpenAPI registry (functions/core/openapi-schemas.ts). */
  body?: RequestSchemaName;
  /** The body may be absent or empty (every field optional). */
  optionalBody?: boolean;
  /** The success body's schema, by name (functions/core/openapi-schemas.ts); absent for 204. */
  response?: ResponseSchemaName;
  /** Other success answers: status -> body schema name. */
  also?: Partial<Record<number, ResponseSchemaName>>;
  /** A paginated list (`?limit=&cursor=`): its function alone gets the cursor-signing key. */
  list?: boolean;
  /** The list's filters, by name (functions/core/openapi-schemas.ts). */
  query?: QuerySchemaName;
  /**
   * Errors beyond those the row's shape implies (400/413/415 with a body, 401 with auth, 404 with path ids, 409 and 422
   * on POSTs for idempotency, 422 with a body or a list, 429, 500, 503 behind the store), with what causes them.
   */
  errors?: Partial<Record<number, string>>;
}

export const KIB = 1024;
export const MIB = 1024 * KIB;
export const DEFAULT_BODY_LIMIT = 256 * KIB;
export const TRACE_BODY_LIMIT = 5 * MIB;
/**
 * Request Content-Types API Gateway passes to the functions as bytes (base64) instead of UTF-8 text: OTLP protobuf
 * exports to POST /v1/traces. The local gateway does the same, and also for any body with a Content-Encoding.
 */
export const BINARY_MEDIA_TYPES = ['application/x-protobuf'];
/** Timeout of the route functions (the cloud's Lambda timeout, the local gateway's invocation bound), in seconds. */
export const ROUTE_TIMEOUT_S = 15;

/** The public reads (health, this document: neither touches the table), and the authenticated ones. */
const PUBLIC = { method: 'GET', auth: false, table: 'none', status: 200 } as const;
const READ = { method: 'GET', auth: true, table: 'read', status: 200 } as const;
/** Webhook routes that queue work for the delivery function through the bus (resend, recover, test): 202. */
const WEBHOOK_COMMAND = { method: 'POST', auth: true, table: 'readwrite', bus: true, status: 202 } as const;

// Built in a pure-annotated function rather than written as a bare array: the rows spread the bases above, which esbuild
// cannot prove free of side effects, so a bare array would stay in every bundle that imports a constant of this file
// (the body limits, in every handler); this way it is dropped wherever `routes` itself is unused.
export const routes = /* @__PURE__ */ ((): readonly RouteDef[] => [
  { ...PUBLIC, path: '/health', handler: 'get-health', summary: 'Liveness check (no credentials).', response: 'Health' },
  { ...PUBLIC, path: '/v1/openapi.json', handler: 'get-openapi', summary: 'This document (no credentials).', response: 'OpenApiDocument' },

  {
    method: 'POST',
    path: '/v1/traces',
    handler: 'post-traces',
    auth: true,
    table: 'readwrite',
    bus: true,
    maxBodyBytes: TRACE_BODY_LIMIT,
    status: 201,
    summary:
      'Upload a trace (native format; 201 new, 200 identical re-upload, 409 different content under the same trace_id), or receive an OTLP/HTTP export (JSON or protobuf, gzip or not; 200 with partial success).',
    body: 'TraceInput',
    response: 'TraceCreated',
    also: { 200: 'TraceUpload' },
    errors: {
      400: 'invalid_protobuf: an application/x-protobuf body that is not an OTLP ExportTraceServiceRequest',
      409: 'conflict: the trace_id exists with different content',
      415: 'unsupported_media_type: also a Content-Encoding other than gzip; OTLP exports may be application/x-protobuf',
    },
  },
  { ...READ, path: '/v1/traces', handler: 'list-traces', summary: 'List traces, newest first, without steps.', list: true, response: 'TraceList' },
  { ...READ, path: '/v1/traces/{trace_id}', handler: 'get-trace', summary: 'A stored trace with its metadata.', response: 'Trace' },

  {
    method: 'POST',
    path: '/v1/campaigns',
    handler: 'post-campaigns',
    auth: true,
    table: 'readwrite',
    bus: true,
    status: 201,
    summary: 'Create a campaign (target headers and api_key are write-only).',
    body: 'CampaignInput',
    response: 'Campaign',
  },
  { ...READ, path: '/v1/campaigns', handler: 'list-campaigns', summary: 'List campaigns, newest first.', list: true, response: 'CampaignList' },
  { ...READ, path: '/v1/campaigns/{campaign_id}', handler: 'get-campaign', summary: 'A campaign, secrets redacted.', response: 'Campaign' },
  {
    method: 'PATCH',
    path: '/v1/campaigns/{campaign_id}/eval-set',
    handler: 'patch-eval-set',
    auth: true,
    table: 'readwrite',
    status: 200,
    summary: 'Add/remove eval-set traces (incremental, idempotent) and set min_scenarios.',
    body: 'EvalSetPatch',
    response: 'EvalSetUpdate',
    errors: { 422: 'unknown_trace: add_trace_ids names traces that are not in this project (details list them)' },
  },
  {
    ...READ,
    path: '/v1/campaigns/{campaign_id}/eval-set',
    handler: 'get-eval-set',
    summary: 'The eval-set pool and min_scenarios.',
    response: 'EvalSet',
  },
  {
    method: 'POST',
    path: '/v1/campaigns/{campaign_id}/run-pack',
    handler: 'post-run-pack',
    auth: true,
    table: 'readwrite',
    queue: true,
    bus: true,
    status: 202,
    summary: 'Queue one run per trace (default: the eval-set pool).',
    body: 'RunPackRequest',
    optionalBody: true,
    response: 'PackQueued',
    errors: { 422: 'unknown_trace: trace_ids names traces that are not in this project; validation_error: no trace_ids and an empty eval-set' },
  },

  {
    method: 'POST',
    path: '/v1/runs',
    handler: 'post-runs',
    auth: true,
    table: 'readwrite',
    queue: true,
    bus: true,
    status: 202,
    summary: 'Queue a replay run of one trace against one campaign.',
    body: 'RunRequest',
    response: 'RunQueued',
    errors: { 404: 'not_found: the trace or the campaign is not in this project' },
  },
  {
    ...READ,
    path: '/v1/runs',
    handler: 'list-runs',
    summary: 'List runs, newest first; filters campaign_id, trace_id, status.',
    list: true,
    response: 'RunList',
    query: 'RunFilter',
  },
  { ...READ, path: '/v1/runs/{run_id}', handler: 'get-run', summary: 'Run status, summary and scoring context.', response: 'RunDetail' },
  {
    ...READ,
    path: '/v1/runs/{run_id}/attempts',
    handler: 'get-run-attempts',
    summary: 'Attempts with transcripts and events, by number; large values cut to size (see truncated).',
    list: true,
    response: 'RunAttempts',
  },
  {
    ...READ,
    path: '/v1/runs/{run_id}/attempts/{attempt}',
    handler: 'get-run-attempt',
    summary: 'One attempt whole: its transcript with every served result, its events and output.',
    response: 'RunAttempt',
    errors: { 404: 'not_found: no attempt stored under this number (yet)' },
  },
  {
    ...READ,
    path: '/v1/runs/{run_id}/policy-events',
    handler: 'get-policy-events',
    summary: 'Policy decisions, ordered by attempt then sequence.',
    list: true,
    response: 'PolicyEventPage',
  },
  {
    ...READ,
    path: '/v1/runs/{run_id}/security-events',
    handler: 'get-security-events',
    summary: 'Security events grouped by attempt (every attempt listed).',
    response: 'SecurityEventsByAttempt',
  },

  {
    method: 'POST',
    path: '/v1/ci/runs',
    handler: 'post-ci-runs',
    auth: true,
    table: 'readwrite',
    queue: true,
    bus: true,
    status: 202,
    summary: 'Create a CI run, or a batch when the campaign has an eval-set.',
    body: 'CiRunRequest',
    response: 'CiSubmission',
    errors: {
      404: 'not_found: the campaign, the trace or the baseline batch is not in this project',
      422: 'insufficient_scenarios: the eval-set holds fewer traces than min_scenarios (details: required, registered)',
    },
  },
  { ...READ, path: '/v1/ci/runs/{run_id}', handler: 'get-ci-run', summary: 'A CI run with its gate decision and dashboard URL.', response: 'CiRun' },
  {
    ...READ,
    path: '/v1/ci/batch/{batch_id}',
    handler: 'get-ci-batch',
    summary: 'The aggregated verdict of a CI batch, with its repeats statistics and the comparison with its baseline.',
    response: 'CiBatch',
  },
  {
    ...READ,
    path: '/v1/ci/batch/{batch_id}/scenarios',
    handler: 'get-ci-batch-scenarios',
    summary: 'The scenarios of a CI batch (one per trace, cell by cell), in run order; filter status=regressed|fixed|flaky|failed|passed.',
    list: true,
    response: 'CiScenarioPage',
    query: 'CiScenarioFilter',
  },
  {
    ...READ,
    path: '/v1/ci/batches',
    handler: 'list-ci-batches',
    summary: 'List CI batches, newest first; filters campaign_id, branch.',
    list: true,
    response: 'CiBatchList',
    query: 'CiBatchFilter',
  },

  {
    method: 'POST',
    path: '/v1/webhooks',
    handler: 'post-webhooks',
    auth: true,
    table: 'readwrite',
    status: 201,
    summary: 'Register a webhook (https only); the secret is returned once.',
    body: 'WebhookCreate',
    response: 'WebhookCreated',
    errors: { 422: 'validation_error: also when the project already has 25 webhooks' },
  },
  { ...READ, path: '/v1/webhooks', handler: 'list-webhooks', summary: 'List webhooks (no secrets).', list: true, response: 'WebhookList' },
  {
    ...READ,
    path: '/v1/webhooks/{webhook_id}',
    handler: 'get-webhook',
    summary: 'A webhook (no secret) with its last delivery status.',
    response: 'Webhook',
  },
  {
    method: 'PATCH',
    path: '/v1/webhooks/{webhook_id}',
    handler: 'patch-webhook',
    auth: true,
    table: 'readwrite',
    status: 200,
    summary: 'Update url, events, is_enabled (pause/resume) or description.',
    body: 'WebhookPatch',
    response: 'Webhook',
  },
  {
    method: 'DELETE',
    path: '/v1/webhooks/{webhook_id}',
    handler: 'delete-webhook',
    auth: true,
    table: 'readwrite',
    status: 204,
    summary: 'Delete a webhook; deliveries stop at once.',
  },
  {
    method: 'POST',
    path: '/v1/webhooks/{webhook_id}/rotate-secret',
    handler: 'post-webhook-rotate-secret',
    auth: true,
    table: 'readwrite',
    status: 200,
    summary: 'Rotate the signing secret; the old one stops signing immediately.',
    response: 'WebhookSecret',
  },
  {
    ...READ,
    path: '/v1/webhooks/{webhook_id}/deliveries',
    handler: 'get-webhook-deliveries',
    summary: 'Delivery log, newest first, kept 7 days.',
    list: true,
    response: 'DeliveryList',
  },
  {
    ...WEBHOOK_COMMAND,
    path: '/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/resend',
    handler: 'post-webhook-resend',
    summary: "Send a logged delivery's event again now, same delivery id; 409 webhook_paused.",
    response: 'DeliveryQueued',
    errors: { 409: 'webhook_paused: resume the webhook first; event_unavailable: the event of this delivery was not kept' },
  },
  {
    ...WEBHOOK_COMMAND,
    path: '/v1/webhooks/{webhook_id}/recover',
    handler: 'post-webhook-recover',
    summary: 'Send every delivery that failed since `since` (within 7 days) once more, oldest first; 409 webhook_paused.',
    body: 'WebhookRecover',
    response: 'RecoverQueued',
    errors: { 409: 'webhook_paused: resume the webhook first' },
  },
  {
    ...WEBHOOK_COMMAND,
    path: '/v1/webhooks/{webhook_id}/test',
    handler: 'post-webhook-test',
    summary: 'Send a webhook.test event to this webhook only.',
    response: 'DeliveryQueued',
  },
])();

/** Handler modules of the non-HTTP functions, for the stack and the handler-export test. */
export const workerHandlers = {
  authorizer: 'functions/http/authorizer',
  replayWorker: 'functions/workers/replay-worker',
  deadLetter: 'functions/workers/dead-letter',
  webhookDelivery: 'functions/events/webhook-delivery',
  dashboard: 'functions/dashboard/handler',
} as const;

export interface RouteMatch {
  route: RouteDef;
  pathParameters: Record<string, string>;
}

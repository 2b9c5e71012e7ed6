// THE route table, pure data: the CDK stack makes one function per row, the local gateway matches requests against it,
// the HTTP chain reads its handler's row (route() in functions/http-chain/route.ts) and the OpenAPI document is built from it.
// Each row is an export of its own, so a handler that imports its row bundles that row and no other.
import type { RouteRow } from '../functions/core/route-row';
import { MCP_BODY_LIMIT, TRACE_BODY_LIMIT, TRACE_MAX_DEPTH } from '../functions/core/limits';
import { publicRead, read } from './route-bases';
import {
  DELETE_WEBHOOK,
  GET_WEBHOOK,
  GET_WEBHOOK_DELIVERIES,
  LIST_WEBHOOKS,
  PATCH_WEBHOOK,
  POST_WEBHOOK_RECOVER,
  POST_WEBHOOK_RESEND,
  POST_WEBHOOK_ROTATE_SECRET,
  POST_WEBHOOK_TEST,
  POST_WEBHOOKS,
} from './webhook-routes';

export type { HttpMethod, RouteRow, Wiring } from '../functions/core/route-row';
export * from './webhook-routes';

/**
 * Request Content-Types API Gateway passes to the functions as bytes (base64) instead of UTF-8 text: OTLP protobuf
 * exports to POST /v1/traces. The local gateway does the same, and also for any body with a Content-Encoding.
 */
export const BINARY_MEDIA_TYPES = ['application/x-protobuf'];
/** Timeout of the route functions (the cloud's Lambda timeout, the local gateway's invocation bound), in seconds. */
export const ROUTE_TIMEOUT_S = 15;

export const GET_HEALTH = /* @__PURE__ */ publicRead({
  path: '/health',
  handler: 'get-health',
  summary: 'Liveness check (no credentials).',
  response: 'Health',
});
export const GET_OPENAPI = /* @__PURE__ */ publicRead({
  path: '/v1/openapi.json',
  handler: 'get-openapi',
  summary: 'This document (no credentials).',
  response: 'OpenApiDocument',
});
export const POST_TRACES: RouteRow = {
  method: 'POST',
  path: '/v1/traces',
  handler: 'post-traces',
  auth: true,
  table: 'readwrite',
  bus: true,
  maxBodyBytes: TRACE_BODY_LIMIT,
  maxDepth: TRACE_MAX_DEPTH,
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
};
export const LIST_TRACES = /* @__PURE__ */ read({
  path: '/v1/traces',
  handler: 'list-traces',
  summary: 'List traces, newest first, without steps.',
  list: true,
  response: 'TraceList',
});
export const GET_TRACE = /* @__PURE__ */ read({
  path: '/v1/traces/{trace_id}',
  handler: 'get-trace',
  summary: 'A stored trace with its metadata.',
  response: 'Trace',
});

export const POST_CAMPAIGNS: RouteRow = {
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
};
export const LIST_CAMPAIGNS = /* @__PURE__ */ read({
  path: '/v1/campaigns',
  handler: 'list-campaigns',
  summary: 'List campaigns, newest first.',
  list: true,
  response: 'CampaignList',
});
export const GET_CAMPAIGN = /* @__PURE__ */ read({
  path: '/v1/campaigns/{campaign_id}',
  handler: 'get-campaign',
  summary: 'A campaign (the current version, or ?version=n; 404 for one that never existed), secrets redacted.',
  response: 'Campaign',
  query: 'CampaignVersionQuery',
  etag: 'read',
});
export const PUT_CAMPAIGN: RouteRow = {
  method: 'PUT',
  path: '/v1/campaigns/{campaign_id}',
  handler: 'put-campaign',
  auth: true,
  table: 'readwrite',
  bus: true,
  status: 200,
  summary: 'Replace the definition: a new version (campaign.updated), or none for the same one; "***" keeps a stored secret.',
  body: 'CampaignInput',
  response: 'Campaign',
  etag: 'write',
};
export const LIST_CAMPAIGN_VERSIONS = /* @__PURE__ */ read({
  path: '/v1/campaigns/{campaign_id}/versions',
  handler: 'list-campaign-versions',
  summary: 'The versions of a campaign, newest first, each with what it changed against the one before.',
  list: true,
  response: 'CampaignVersionList',
});
export const PATCH_EVAL_SET: RouteRow = {
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
};
export const GET_EVAL_SET = /* @__PURE__ */ read({
  path: '/v1/campaigns/{campaign_id}/eval-set',
  handler: 'get-eval-set',
  summary: 'The eval-set pool and min_scenarios.',
  response: 'EvalSet',
});
export const POST_RUN_PACK: RouteRow = {
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
};

export const POST_RUNS: RouteRow = {
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
};
export const LIST_RUNS = /* @__PURE__ */ read({
  path: '/v1/runs',
  handler: 'list-runs',
  summary: 'List runs, newest first; filters campaign_id, trace_id, status.',
  list: true,
  response: 'RunList',
  query: 'RunFilter',
});
export const GET_RUN = /* @__PURE__ */ read({
  path: '/v1/runs/{run_id}',
  handler: 'get-run',
  summary: 'Run status, summary and scoring context.',
  response: 'RunDetail',
});
export const GET_RUN_ATTEMPTS = /* @__PURE__ */ read({
  path: '/v1/runs/{run_id}/attempts',
  handler: 'get-run-attempts',
  summary: 'Attempts with transcripts and events, by number; large values cut to size (see truncated).',
  list: true,
  response: 'RunAttempts',
});
export const GET_RUN_ATTEMPT = /* @__PURE__ */ read({
  path: '/v1/runs/{run_id}/attempts/{attempt}',
  handler: 'get-run-attempt',
  summary: 'One attempt whole: its transcript with every served result, its events and output.',
  response: 'RunAttempt',
  errors: { 404: 'not_found: no attempt stored under this number (yet)' },
});
export const GET_POLICY_EVENTS = /* @__PURE__ */ read({
  path: '/v1/runs/{run_id}/policy-events',
  handler: 'get-policy-events',
  summary: 'Policy decisions, ordered by attempt then sequence.',
  list: true,
  response: 'PolicyEventPage',
});
export const GET_SECURITY_EVENTS = /* @__PURE__ */ read({
  path: '/v1/runs/{run_id}/security-events',
  handler: 'get-security-events',
  summary: 'Security events grouped by attempt (every attempt listed).',
  response: 'SecurityEventsByAttempt',
});

export const POST_CI_RUNS: RouteRow = {
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
};
export const GET_CI_RUN = /* @__PURE__ */ read({
  path: '/v1/ci/runs/{run_id}',
  handler: 'get-ci-run',
  summary: 'A CI run with its gate decision and dashboard URL.',
  response: 'CiRun',
});
export const GET_CI_BATCH = /* @__PURE__ */ read({
  path: '/v1/ci/batch/{batch_id}',
  handler: 'get-ci-batch',
  summary: 'The aggregated verdict of a CI batch, with its repeats statistics and the comparison with its baseline.',
  response: 'CiBatch',
});
export const GET_CI_BATCH_SCENARIOS = /* @__PURE__ */ read({
  path: '/v1/ci/batch/{batch_id}/scenarios',
  handler: 'get-ci-batch-scenarios',
  summary: 'The scenarios of a CI batch (one per trace, cell by cell), in run order; filter status=regressed|fixed|flaky|failed|passed.',
  list: true,
  response: 'CiScenarioPage',
  query: 'CiScenarioFilter',
});
export const LIST_CI_BATCHES = /* @__PURE__ */ read({
  path: '/v1/ci/batches',
  handler: 'list-ci-batches',
  summary: 'List CI batches, newest first; filters campaign_id, branch.',
  list: true,
  response: 'CiBatchList',
  query: 'CiBatchFilter',
});

export const POST_MCP: RouteRow = {
  method: 'POST',
  path: '/v1/mcp/{run_id}/{attempt}',
  handler: 'post-mcp',
  auth: false,
  table: 'readwrite',
  maxBodyBytes: MCP_BODY_LIMIT,
  protocol: 'mcp',
  body: 'McpRequest',
  response: 'McpResponse',
  status: 200,
  summary:
    "The MCP endpoint (Streamable HTTP transport, JSON-RPC 2.0 answered as JSON) an `mcp` target's agent connects to while rts invokes it for one attempt: initialize, ping, tools/list, tools/call (the attempt's recorded tools, served under its mutation and policies). Authenticated by the attempt's bearer token sent in the invoke (`Authorization: Bearer rts_mcp_...`), not by an API key; 202 for notifications only; GET and DELETE are 405. Errors are JSON-RPC error bodies.",
  errors: {
    400: 'a JSON-RPC parse error or invalid request, or an unsupported MCP-Protocol-Version (a JSON-RPC error body)',
    401: 'the token is unknown, or its attempt is not being invoked (a JSON-RPC error body; nothing is recorded)',
    404: "the run id is not a UUID, or the Mcp-Session-Id is not this attempt's",
    413: 'the body is over the limit',
    415: 'the body is not application/json',
  },
};

/** Every route, in the order of the OpenAPI document. */
export const routes: readonly RouteRow[] = [
  GET_HEALTH,
  GET_OPENAPI,
  POST_TRACES,
  LIST_TRACES,
  GET_TRACE,
  POST_CAMPAIGNS,
  LIST_CAMPAIGNS,
  GET_CAMPAIGN,
  PUT_CAMPAIGN,
  LIST_CAMPAIGN_VERSIONS,
  PATCH_EVAL_SET,
  GET_EVAL_SET,
  POST_RUN_PACK,
  POST_RUNS,
  LIST_RUNS,
  GET_RUN,
  GET_RUN_ATTEMPTS,
  GET_RUN_ATTEMPT,
  GET_POLICY_EVENTS,
  GET_SECURITY_EVENTS,
  POST_CI_RUNS,
  GET_CI_RUN,
  GET_CI_BATCH,
  GET_CI_BATCH_SCENARIOS,
  LIST_CI_BATCHES,
  POST_WEBHOOKS,
  LIST_WEBHOOKS,
  GET_WEBHOOK,
  PATCH_WEBHOOK,
  DELETE_WEBHOOK,
  POST_WEBHOOK_ROTATE_SECRET,
  GET_WEBHOOK_DELIVERIES,
  POST_WEBHOOK_RESEND,
  POST_WEBHOOK_RECOVER,
  POST_WEBHOOK_TEST,
  POST_MCP,
];

/** Handler modules of the non-HTTP functions, for the stack and the handler-export test. */
export const workerHandlers = {
  authorizer: 'functions/http/authorizer',
  replayWorker: 'functions/workers/replay-worker',
  deadLetter: 'functions/workers/dead-letter',
  webhookDelivery: 'functions/events/webhook-delivery',
  dashboard: 'functions/dashboard/handler',
} as const;

// The API's request and answer types by name: each an alias of, or a part picked from, the types generated from the
// OpenAPI document (./generated/api.ts, `npm run openapi:types`), so no shape is written twice.
import type { components, operations } from './generated/api';

type Schemas = components['schemas'];
/** The query parameters of an operation of the document. */
type QueryOf<Op extends keyof operations> = NonNullable<operations[Op]['parameters']['query']>;
/** The member of a union whose `type` is T. */
type OfType<U, T extends string> = Extract<U, { type: T }>;

export type { components, operations, paths } from './generated/api';

// Shared by every route

export type JsonObject = Record<string, unknown>;
/** `?limit=` (1-100, default 50) and the opaque `?cursor=` (a page's `next_cursor`) of every list route. */
export type PageQuery = QueryOf<'list-traces'>;
/** One page of a list route: `next_cursor` is null on the last page. */
export type Page<T> = Omit<Schemas['TraceList'], 'items'> & { items: T[] };
/** GET /health. */
export type Health = Schemas['Health'];
/** GET /v1/openapi.json: an OpenAPI 3.1 document. */
export type OpenApiDocument = Schemas['OpenApiDocument'];

// Traces (docs/campaigns-and-replay.md#traces)

/** The body of POST /v1/traces (native format): at least one user step; a tool step answers an earlier call. */
export type TraceInput = Schemas['TraceInput'];
/** What a step may look like on upload: assistant content may be left out, tool-call arguments may be JSON text. */
export type TraceStepInput = TraceInput['steps'][number];
/** An OTLP/JSON traces export (`ExportTraceServiceRequest`), also accepted by POST /v1/traces. */
export type OtlpJsonExport = Schemas['OtlpExport'];
/** 201 (new) or 200 (identical re-upload) of a native upload. */
export type TraceCreated = Schemas['TraceCreated'];
/** A trace as listed: without its steps. */
export type TraceSummary = Schemas['TraceSummary'];
/** GET /v1/traces/{trace_id}. */
export type Trace = Schemas['Trace'];
export type TraceStep = Schemas['TraceStep'];
export type ToolCall = Schemas['ToolCall'];
export type ToolDefinition = TraceSummary['tools'][number];
/** One OTel trace of an OTLP export: the rts trace it maps to and what happened to it. */
export type OtlpTraceOutcome = Schemas['OtlpTraceOutcome'];
/** 200 of an OTLP/JSON export. */
export type OtlpExportResult = Schemas['OtlpExportResult'];

// Campaigns (docs/campaigns-and-replay.md#campaigns)

/** The body of POST /v1/campaigns. */
export type CampaignInput = Schemas['CampaignInput'];
/** A campaign as returned: defaults applied, attack_suite expanded, secrets shown as `"***"`. */
export type Campaign = Schemas['Campaign'];
/** One version of a campaign and what it changed against the one before (GET /v1/campaigns/{id}/versions). */
export type CampaignVersion = Schemas['CampaignVersion'];
/** As stored and returned (defaults applied). */
export type Target = Schemas['Target'];
/** As sent: `headers` and `api_key` are write-only (answers show `"***"`). */
export type TargetInput = CampaignInput['target'];
/** The model that grades `llm_judge` criteria, as sent. */
export type JudgeInput = NonNullable<CampaignInput['judge']>;
export type Judge = NonNullable<Campaign['judge']>;
/** `target.limits` / `judge.limits`: requests at once and per minute, the 429/503 wait (docs/campaigns-and-replay.md#limits-and-429). */
export type Limits = Schemas['Limits'];
/** A mutation as stored and returned (defaults applied). */
export type Mutation = Schemas['Mutation'];
/** A mutation as sent. */
export type MutationInput = NonNullable<CampaignInput['mutations']>[number];
/** The injection templates of the attack library (docs/campaigns-and-replay.md#attack-library). */
export type InjectionTemplate = NonNullable<OfType<Mutation, 'prompt_injection'>['template']>;
/** What an injected instruction tries to make the agent do. */
export type InjectionGoal = OfType<Mutation, 'prompt_injection'>['goal'];
/** A policy as stored and returned (`action` defaults to `deny`). */
export type Policy = Schemas['Policy'];
export type PolicyInput = NonNullable<CampaignInput['policies']>[number];
export type Criterion = Schemas['Criterion'];
/** As sent: fields with a default may be left out. */
export type CriterionInput = NonNullable<CampaignInput['criteria']>[number];
export type DetectorKind = Campaign['security']['detectors'][number];
/** The body of PATCH /v1/campaigns/{campaign_id}/eval-set: at least one field; an id in both lists is a 422. */
export type EvalSetPatch = Schemas['EvalSetPatch'];
/** GET /v1/campaigns/{campaign_id}/eval-set. */
export type EvalSet = Schemas['EvalSet'];
/** PATCH answer: the pool after the change, and what the change actually added and removed. */
export type EvalSetUpdate = Schemas['EvalSetUpdate'];
/** The body of POST /v1/campaigns/{campaign_id}/run-pack (default: the eval-set pool). */
export type RunPackRequest = Schemas['RunPackRequest'];
/** 202 of POST /v1/campaigns/{campaign_id}/run-pack. */
export type PackQueued = Schemas['PackQueued'];

// Runs (docs/campaigns-and-replay.md)

export type RunStatus = Schemas['RunStatus'];
/** The body of POST /v1/runs. */
export type RunRequest = Schemas['RunRequest'];
/** 202 of POST /v1/runs. */
export type RunQueued = Schemas['RunQueued'];
/** Counts over the attempts finished so far. */
export type RunSummary = Schemas['RunSummary'];
/** Filters of GET /v1/runs. */
export type RunListQuery = QueryOf<'list-runs'>;
/** A run as listed. */
export type Run = Schemas['Run'];
/** GET /v1/runs/{run_id}: the run, its summary and its scoring context. */
export type RunDetail = Schemas['RunDetail'];
/** One attempt's score in a run's scoring context. */
export type AttemptScore = Schemas['AttemptScore'];
/** One criterion's verdict on an attempt. */
export type CheckResult = AttemptScore['checks'][number];
export type TranscriptEntry = Schemas['TranscriptEntry'];
export type PolicyEvent = Schemas['PolicyEvent'];
export type SecurityEvent = Schemas['SecurityEvent'];
/** A finished attempt with its transcript and events (`truncated` in a listing that cut its values). */
export type AttemptDetail = Schemas['RunAttempt'];
/** GET /v1/runs/{run_id}/attempts: a page of attempts by number, large values cut to size. */
export type RunAttempts = Schemas['RunAttempts'];
/** GET /v1/runs/{run_id}/policy-events: ordered by attempt, then sequence. */
export type PolicyEventPage = Schemas['PolicyEventPage'];
/** GET /v1/runs/{run_id}/security-events: every planned attempt, those without events with `events: []`. */
export type SecurityEventsByAttempt = Schemas['SecurityEventsByAttempt'];

// CI gating (docs/ci.md)

/** CI thresholds; absent optional ones are not checked (`max_regressions` defaults to 0 when a baseline is given). */
export type CiThresholds = Schemas['Thresholds'];
export type CiMetadata = Schemas['CiMetadata'];
/** What a batch is compared with: a batch (`batch_id`), or the latest `done` batch of the campaign on a `branch`. */
export type CiBaseline = Schemas['Baseline'];
/** The body of POST /v1/ci/runs. */
export type CiRunRequest = Schemas['CiRunRequest'];
/** The 202 answer of POST /v1/ci/runs: a batch (`ci_batch_id` set) or a single CI run (`ci_batch_id: null`). */
export type CiSubmission = Schemas['CiSubmission'];
/** A submission that queued a batch: the campaign has an eval-set, one run per registered trace. */
export type CiBatchSubmitted = Schemas['CiBatchSubmitted'];
/** A submission that queued a single CI run: the campaign has no eval-set. */
export type CiRunSubmitted = Schemas['CiRunSubmitted'];
export type CiDecision = CiRunView['decision'];
/** GET /v1/ci/runs/{run_id}. */
export type CiRunView = Schemas['CiRun'];
/** GET /v1/ci/batch/{batch_id}. */
export type CiBatchView = Schemas['CiBatch'];
/** The comparison of a batch with its baseline batch. */
export type CiComparison = NonNullable<Schemas['BatchComparison']>;
/** A cell of the comparison with the baseline: "passed/total" before and after (new_unsafe: and "unsafe/total"). */
export type CiChange = CiComparison['regressed'][number] & Partial<Pick<CiComparison['new_unsafe'][number], 'unsafe_before' | 'unsafe_after'>>;
/** The 95 % Wilson score interval of a batch's pass rate. */
export type PassRateInterval = NonNullable<CiBatchView['pass_rate_interval']>;
export type CiComparisonMark = CiScenario['comparison'];
/** One (trace, mutation) cell of a run: how its k repeats ended (`mutation_id` null = the unmutated attempt). */
export type CiCellStat = Omit<CiRunCell, 'flaky'>;
/** A cell of a CI run (GET /v1/ci/runs/{id}): its repeats and whether they disagree. */
export type CiRunCell = Schemas['CiRunCell'];
/** A cell of a batch scenario: its repeats, whether they disagree, and what the baseline comparison says. */
export type CiCell = Schemas['CiScenarioCell'];
/** One scenario (trace) of a batch. */
export type CiScenario = Schemas['CiScenario'];
/** GET /v1/ci/batch/{batch_id}/scenarios: one page of the batch's scenarios, in run order. */
export type CiScenarioPage = Schemas['CiScenarioPage'];
/** Filters of GET /v1/ci/batch/{batch_id}/scenarios. */
export type CiScenarioQuery = QueryOf<'get-ci-batch-scenarios'>;
export type CiBatchListItem = Schemas['CiBatchListItem'];
/** Filters of GET /v1/ci/batches. */
export type CiBatchListQuery = QueryOf<'list-ci-batches'>;

// Webhooks (docs/webhooks.md)

/** Project events a webhook can subscribe to. */
export type EventType = Exclude<Webhook['events'][number], '*'>;
/** What a delivery may carry: a project event, or `webhook.test` (sent by POST /v1/webhooks/{id}/test only). */
export type DeliveredEventType = Delivery['event_type'];
/**
 * The body of every delivery: these four fields and nothing else (serialised with sorted keys and compact separators;
 * verify the raw bytes, then `JSON.parse` them). The one shape written here: the document describes the API, not what
 * it delivers.
 */
export interface WebhookEvent<D = JsonObject> {
  event_type: DeliveredEventType;
  project_id: string;
  created_at: string;
  data: D;
}
/** The body of POST /v1/webhooks. */
export type WebhookInput = Schemas['WebhookCreate'];
/** The body of PATCH /v1/webhooks/{webhook_id}: any of the create fields (`is_enabled` pauses and resumes). */
export type WebhookPatch = Schemas['WebhookPatch'];
/**
 * The signing secret of the create and rotate answers, shown by the first answer only. An Idempotency-Key replay of
 * that answer holds `secret: null` and `secret_withheld: true`: rotate the secret (with a new key) to get one.
 */
export type OnceShownSecret = Pick<WebhookSecret, 'secret' | 'secret_withheld'>;
/** 201 of POST /v1/webhooks: the only answer besides rotate-secret that shows the secret. */
export type WebhookCreated = Schemas['WebhookCreated'];
/** A webhook without its secret, with its last delivery status. */
export type Webhook = Schemas['Webhook'];
/** 200 of POST /v1/webhooks/{webhook_id}/rotate-secret: the old secret stops signing at once. */
export type WebhookSecret = Schemas['WebhookSecret'];
/** One delivery log entry (kept 7 days); resends and recoveries append their tries to it. */
export type Delivery = Schemas['Delivery'];
/** One try of a delivery. */
export type DeliveryAttempt = Delivery['attempts'][number];
/** 202 of resend and test: the delivery queued (a resend keeps the delivery id). */
export type DeliveryQueued = Schemas['DeliveryQueued'];
/** The body of POST /v1/webhooks/{webhook_id}/recover. */
export type RecoverRequest = Schemas['WebhookRecover'];
/** 202 of POST /v1/webhooks/{webhook_id}/recover. */
export type RecoverQueued = Schemas['RecoverQueued'];

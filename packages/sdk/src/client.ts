// RtsClient: one typed method per route of the API (lib/routes.ts), on top of BaseClient's transport and retries.
import { randomUUID } from 'node:crypto';
import { BaseClient, type ApiResponse } from './base-client';
import type {
  AttemptDetail,
  Campaign,
  CampaignInput,
  CampaignVersion,
  CiBatchListItem,
  CiBatchListQuery,
  CiBatchView,
  CiRunRequest,
  CiRunView,
  CiScenarioPage,
  CiScenarioQuery,
  CiSubmission,
  Delivery,
  DeliveryQueued,
  EvalSet,
  EvalSetPatch,
  EvalSetUpdate,
  Health,
  OpenApiDocument,
  OtlpExportResult,
  OtlpJsonExport,
  PackQueued,
  Page,
  PageQuery,
  PolicyEventPage,
  RecoverQueued,
  RecoverRequest,
  Run,
  RunAttempts,
  RunDetail,
  RunListQuery,
  RunPackRequest,
  RunQueued,
  RunRequest,
  SecurityEventsByAttempt,
  Trace,
  TraceCreated,
  TraceInput,
  TraceSummary,
  Webhook,
  WebhookCreated,
  WebhookInput,
  WebhookPatch,
  WebhookSecret,
} from './types';

const seg = encodeURIComponent;
/** Typed POSTs send a random Idempotency-Key unless given one, so that their retries can never act twice. */
const keyOr = (key: string | undefined) => key ?? randomUUID();

/**
 * The rts API client. Credentials come from the options or from RTS_API_URL, RTS_API_KEY and RTS_PROJECT_ID. Every
 * method resolves to the answer's JSON body and rejects with RtsApiError (`status`, `code`, `body`, `requestId`).
 * POST methods take an optional `idempotencyKey` last: the same key and body within 24 h replay the first answer
 * instead of acting twice; without one a random key is sent, which makes the client's own retries safe.
 */
export class RtsClient extends BaseClient {
  /** GET /health (no credentials needed). */
  health(): Promise<Health> {
    return this.get<Health>('/health');
  }

  /** GET /v1/openapi.json: the OpenAPI 3.1 document of the API. */
  getOpenApiDocument(): Promise<OpenApiDocument> {
    return this.get<OpenApiDocument>('/v1/openapi.json');
  }

  /**
   * POST /v1/traces: uploads a trace in the native format (status 201 new, 200 identical re-upload; other content
   * under the same trace_id is a 409), or an OTLP/JSON export (200 with what happened to each trace). Resolves to
   * the status and the body, since 201 and 200 differ.
   */
  uploadTrace(trace: TraceInput, idempotencyKey?: string): Promise<ApiResponse<TraceCreated>>;
  uploadTrace(trace: OtlpJsonExport, idempotencyKey?: string): Promise<ApiResponse<OtlpExportResult>>;
  uploadTrace(trace: TraceInput | OtlpJsonExport, idempotencyKey?: string): Promise<ApiResponse<TraceCreated | OtlpExportResult>>;
  uploadTrace(trace: TraceInput | OtlpJsonExport, idempotencyKey?: string): Promise<ApiResponse<TraceCreated | OtlpExportResult>> {
    return this.request('POST', '/v1/traces', trace, { idempotencyKey: keyOr(idempotencyKey) });
  }

  /** GET /v1/traces: traces newest first, without steps. */
  listTraces(query: PageQuery = {}): Promise<Page<TraceSummary>> {
    return this.get('/v1/traces', query);
  }

  /** GET /v1/traces/{trace_id}: the stored trace with its steps. */
  getTrace(traceId: string): Promise<Trace> {
    return this.get(`/v1/traces/${seg(traceId)}`);
  }

  /** POST /v1/campaigns (201): the campaign as stored, target secrets shown as `"***"`. */
  createCampaign(campaign: CampaignInput, idempotencyKey?: string): Promise<Campaign> {
    return this.post('/v1/campaigns', campaign, keyOr(idempotencyKey));
  }

  /** GET /v1/campaigns: campaigns newest first. */
  listCampaigns(query: PageQuery = {}): Promise<Page<Campaign>> {
    return this.get('/v1/campaigns', query);
  }

  /** GET /v1/campaigns/{campaign_id}: the current version, or with `version` an older one (404 if it never existed). */
  getCampaign(campaignId: string, opts: { version?: number } = {}): Promise<Campaign> {
    return this.get(`/v1/campaigns/${seg(campaignId)}`, { version: opts.version });
  }

  /**
   * PUT /v1/campaigns/{campaign_id}: replaces the definition; resolves to the campaign at its new `version` (the same
   * version when nothing changed). A secret sent back as `"***"` keeps the stored one. `ifMatch` (a version): a 412
   * `precondition_failed` if the campaign has moved past it. A random Idempotency-Key is sent unless one is given, so a
   * retry after a lost answer replays it instead of meeting its own update as a stale If-Match.
   */
  updateCampaign(campaignId: string, campaign: CampaignInput, opts: { ifMatch?: number; idempotencyKey?: string } = {}): Promise<Campaign> {
    const headers = opts.ifMatch === undefined ? undefined : { 'If-Match': `"${opts.ifMatch}"` };
    const idempotencyKey = keyOr(opts.idempotencyKey);
    return this.request<Campaign>('PUT', `/v1/campaigns/${seg(campaignId)}`, campaign, { idempotencyKey, headers }).then((r) => r.body);
  }

  /** GET /v1/campaigns/{campaign_id}/versions: versions newest first, each with what it changed. */
  listCampaignVersions(campaignId: string, query: PageQuery = {}): Promise<Page<CampaignVersion>> {
    return this.get(`/v1/campaigns/${seg(campaignId)}/versions`, query);
  }

  /** GET /v1/campaigns/{campaign_id}/eval-set: the pool of traces CI batches run, and min_scenarios. */
  getEvalSet(campaignId: string): Promise<EvalSet> {
    return this.get(`/v1/campaigns/${seg(campaignId)}/eval-set`);
  }

  /** PATCH /v1/campaigns/{campaign_id}/eval-set: incremental and idempotent add/remove, and min_scenarios. */
  updateEvalSet(campaignId: string, patch: EvalSetPatch): Promise<EvalSetUpdate> {
    return this.request<EvalSetUpdate>('PATCH', `/v1/campaigns/${seg(campaignId)}/eval-set`, patch).then((r) => r.body);
  }

  /** POST /v1/campaigns/{campaign_id}/run-pack (202): one run per trace, by default the eval-set pool. */
  runPack(campaignId: string, request: RunPackRequest = {}, idempotencyKey?: string): Promise<PackQueued> {
    return this.post(`/v1/campaigns/${seg(campaignId)}/run-pack`, request, keyOr(idempotencyKey));
  }

  /** POST /v1/runs (202): queues a replay of one trace against one campaign. */
  createRun(request: RunRequest, idempotencyKey?: string): Promise<RunQueued> {
    return this.post('/v1/runs', request, keyOr(idempotencyKey));
  }

  /** GET /v1/runs: runs newest first, optionally of one campaign, trace or status. */
  listRuns(query: RunListQuery = {}): Promise<Page<Run>> {
    return this.get('/v1/runs', { ...query });
  }

  /** GET /v1/runs/{run_id}: a run with its summary and scoring context (attempts with their checks). */
  getRun(runId: string): Promise<RunDetail> {
    return this.get(`/v1/runs/${seg(runId)}`);
  }

  /**
   * GET /v1/runs/{run_id}/attempts: one page of finished attempts (by number) with transcripts and events, large values
   * cut to size (`truncated`). Every page: `allPages((cursor) => client.getRunAttempts(runId, { cursor }))`.
   */
  getRunAttempts(runId: string, query: PageQuery = {}): Promise<RunAttempts> {
    return this.get(`/v1/runs/${seg(runId)}/attempts`, query);
  }

  /** GET /v1/runs/{run_id}/attempts/{attempt}: one attempt whole, every served result included. */
  getRunAttempt(runId: string, attempt: number): Promise<AttemptDetail> {
    return this.get(`/v1/runs/${seg(runId)}/attempts/${seg(String(attempt))}`);
  }

  /** GET /v1/runs/{run_id}/policy-events: one page, ordered by attempt then sequence. */
  listPolicyEvents(runId: string, query: PageQuery = {}): Promise<PolicyEventPage> {
    return this.get(`/v1/runs/${seg(runId)}/policy-events`, query);
  }

  /** GET /v1/runs/{run_id}/security-events: grouped by attempt, every attempt listed. */
  getSecurityEvents(runId: string): Promise<SecurityEventsByAttempt> {
    return this.get(`/v1/runs/${seg(runId)}/security-events`);
  }

  /** POST /v1/ci/runs (202): a batch over the campaign's eval-set, or a single CI run on `trace_id` when the pool is empty. */
  submitCiRun(request: CiRunRequest, idempotencyKey?: string): Promise<CiSubmission> {
    return this.post('/v1/ci/runs', request, keyOr(idempotencyKey));
  }

  /** GET /v1/ci/runs/{run_id}: one CI run's decision. */
  getCiRun(runId: string): Promise<CiRunView> {
    return this.get(`/v1/ci/runs/${seg(runId)}`);
  }

  /** GET /v1/ci/batch/{batch_id}: the batch's aggregate, statistics and comparison (statistics null until `done`). */
  getCiBatch(batchId: string): Promise<CiBatchView> {
    return this.get(`/v1/ci/batch/${seg(batchId)}`);
  }

  /** GET /v1/ci/batch/{batch_id}/scenarios: one page of the batch's scenarios (finished runs only until `done`). */
  listCiBatchScenarios(batchId: string, query: CiScenarioQuery = {}): Promise<CiScenarioPage> {
    return this.get(`/v1/ci/batch/${seg(batchId)}/scenarios`, { ...query });
  }

  /** GET /v1/ci/batches: batches newest first, optionally of one campaign and/or branch. */
  listCiBatches(query: CiBatchListQuery = {}): Promise<Page<CiBatchListItem>> {
    return this.get('/v1/ci/batches', { ...query });
  }

  /**
   * POST /v1/webhooks (201): the answer holds the signing secret, the only time besides rotateWebhookSecret. A replay
   * for a reused Idempotency-Key holds `secret: null, secret_withheld: true` instead (see OnceShownSecret).
   */
  createWebhook(webhook: WebhookInput, idempotencyKey?: string): Promise<WebhookCreated> {
    return this.post('/v1/webhooks', webhook, keyOr(idempotencyKey));
  }

  /** GET /v1/webhooks: webhooks without secrets, with their last delivery status. */
  listWebhooks(query: PageQuery = {}): Promise<Page<Webhook>> {
    return this.get('/v1/webhooks', query);
  }

  /** GET /v1/webhooks/{webhook_id}. */
  getWebhook(webhookId: string): Promise<Webhook> {
    return this.get(`/v1/webhooks/${seg(webhookId)}`);
  }

  /** PATCH /v1/webhooks/{webhook_id}: url, events, description, or `is_enabled` to pause (false) and resume (true). */
  updateWebhook(webhookId: string, patch: WebhookPatch): Promise<Webhook> {
    return this.request<Webhook>('PATCH', `/v1/webhooks/${seg(webhookId)}`, patch).then((r) => r.body);
  }

  /** DELETE /v1/webhooks/{webhook_id} (204): deliveries stop at once. */
  async deleteWebhook(webhookId: string): Promise<void> {
    await this.request('DELETE', `/v1/webhooks/${seg(webhookId)}`);
  }

  /**
   * POST /v1/webhooks/{webhook_id}/rotate-secret: a new secret; the old one stops signing at once. A replay for a reused
   * Idempotency-Key holds `secret: null, secret_withheld: true`: rotate again with a new key.
   */
  rotateWebhookSecret(webhookId: string, idempotencyKey?: string): Promise<WebhookSecret> {
    return this.post(`/v1/webhooks/${seg(webhookId)}/rotate-secret`, undefined, keyOr(idempotencyKey));
  }

  /** GET /v1/webhooks/{webhook_id}/deliveries: the delivery log, newest first, kept 7 days. */
  listWebhookDeliveries(webhookId: string, query: PageQuery = {}): Promise<Page<Delivery>> {
    return this.get(`/v1/webhooks/${seg(webhookId)}/deliveries`, query);
  }

  /** POST .../deliveries/{delivery_id}/resend (202): that delivery's event again now, same delivery id (webhook-id). */
  resendWebhookDelivery(webhookId: string, deliveryId: string, idempotencyKey?: string): Promise<DeliveryQueued> {
    return this.post(`/v1/webhooks/${seg(webhookId)}/deliveries/${seg(deliveryId)}/resend`, undefined, keyOr(idempotencyKey));
  }

  /** POST /v1/webhooks/{webhook_id}/recover (202): every delivery that failed since `since` (within 7 days), once more. */
  recoverWebhookDeliveries(webhookId: string, request: RecoverRequest, idempotencyKey?: string): Promise<RecoverQueued> {
    return this.post(`/v1/webhooks/${seg(webhookId)}/recover`, request, keyOr(idempotencyKey));
  }

  /** POST /v1/webhooks/{webhook_id}/test (202): a `webhook.test` event to this webhook only, paused or not. */
  testWebhook(webhookId: string, idempotencyKey?: string): Promise<DeliveryQueued> {
    return this.post(`/v1/webhooks/${seg(webhookId)}/test`, undefined, keyOr(idempotencyKey));
  }

  /**
   * Every item of a paginated listing, following `next_cursor` (at most `maxPages` pages, default 1000).
   * Example: `await client.allPages((cursor) => client.listTraces({ limit: 100, cursor }))`.
   */
  async allPages<T>(page: (cursor: string | undefined) => Promise<Page<T>>, maxPages = 1000): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this.paginate(page, maxPages)) items.push(item);
    return items;
  }

  /**
   * The items of a paginated listing one by one, fetching the next page when needed.
   * Example: `for await (const run of client.paginate((cursor) => client.listRuns({ status: 'failed', cursor }))) ...`.
   */
  async *paginate<T>(page: (cursor: string | undefined) => Promise<Page<T>>, maxPages = 1000): AsyncGenerator<T, void, undefined> {
    let cursor: string | undefined;
    for (let i = 0; i < maxPages; i++) {
      const res = await page(cursor);
      yield* res.items;
      if (!res.next_cursor) return;
      cursor = res.next_cursor;
    }
  }
}

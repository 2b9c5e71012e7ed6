// Interfaces the core needs from the outside world: stores, queue, event bus, clock, ids. Adapters implement them.
import type { Campaign } from './campaigns/schema';
import type { CampaignChanges, StoredVersionEntry } from './campaigns/versions';
import type { BusEvent } from './events';
import type { Clock } from './time';
import type { TargetLimiter } from './replay/limits/port';
import type { Trace, TraceSummary } from './traces/schema';
import type { OtlpTraceState } from './traces/otlp/types';
import type { AttemptRecord, PolicyEvent, Run, RunPack, RunStatus, SecurityEvent } from './runs/types';
import type { DeliveryLogRepo, WebhooksRepo } from './webhooks/ports';
import type { McpSessionsRepo } from './mcp/port';
import type { BatchAggregate, BatchFilter, BatchListing, BatchMarker, CiBatch } from './ci/types';
import type { ScenarioComparison, ScenarioComparisonEntry } from './ci/compare';

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}
export interface PageRequest {
  limit: number;
  /** Decoded cursor (the store's last evaluated key); the HTTP edge signs and verifies it. */
  after?: Record<string, unknown>;
}
export interface StorePage<T> {
  items: T[];
  last?: Record<string, unknown>;
}

export interface ProjectRecord {
  project_id: string;
  name: string;
  created_at: string;
}
export interface ApiKeyRecord {
  key_id: string;
  key_hash: string;
  project_id: string;
  created_at: string;
  revoked_at: string | null;
}

export interface ProjectsRepo {
  createProject(p: ProjectRecord): Promise<void>;
  getProject(projectId: string): Promise<ProjectRecord | null>;
  putApiKey(k: ApiKeyRecord): Promise<void>;
  findApiKeyByHash(hash: string): Promise<ApiKeyRecord | null>;
  /** Returns false when the key is unknown for that project. */
  revokeApiKey(projectId: string, keyId: string, at: string): Promise<boolean>;
}

export interface TracesRepo {
  /** Stores a trace unless its id exists; returns the stored one when it already did. */
  putIfAbsent(
    projectId: string,
    trace: Trace,
    contentHash: string,
  ): Promise<{ created: boolean; existing?: TraceSummary & { content_hash: string } }>;
  get(projectId: string, traceId: string): Promise<Trace | null>;
  getSummary(projectId: string, traceId: string): Promise<TraceSummary | null>;
  /** Which of these ids exist in the project. */
  existing(projectId: string, traceIds: string[]): Promise<Set<string>>;
  list(projectId: string, page: PageRequest): Promise<StorePage<TraceSummary>>;
  /**
   * The merge state of an OTLP trace (its spans and revision), read strongly consistent; `trace` is its visible summary,
   * null while pending (spans kept, no valid trace yet). null when nothing is stored; 'native' when the id holds a trace
   * uploaded in the native format.
   */
  getOtlpState(projectId: string, traceId: string): Promise<{ state: OtlpTraceState; trace: TraceSummary | null } | 'native' | null>;
  /** Which of these ids hold anything at all (a trace of either format, or a pending OTLP state): one batch read. */
  storedIds(projectId: string, traceIds: string[]): Promise<Set<string>>;
  /**
   * Writes an OTLP trace's next state (`state.revision` = the previous revision + 1) and, unless null, its visible trace
   * (steps included), on the condition that the stored revision is still the previous one (none stored: `previous` null).
   * false when another write came first (nothing of this one is visible then). Pending states expire at `expiresAt`.
   */
  putOtlpState(
    projectId: string,
    write: { traceId: string; state: OtlpTraceState; trace: Trace | null; expiresAt?: number },
    previous: OtlpTraceState | null,
  ): Promise<boolean>;
}

export interface EvalSetState {
  trace_ids: string[];
  min_scenarios: number;
}

export interface CampaignsRepo {
  /** Creates the campaign at its `version` (1). */
  put(projectId: string, c: Campaign): Promise<void>;
  /**
   * The current campaign, or with `version` that version (null when it never existed). `poolCount: false` skips counting
   * the eval-set (trace_count 0); with a version too, eval_set is not read ({0, 0}) and the definition may come from a
   * cache keyed by (campaign, version) (docs/campaigns-and-replay.md#versions).
   */
  get(projectId: string, campaignId: string, opts?: { poolCount?: boolean; version?: number; consistent?: boolean }): Promise<Campaign | null>;
  /** Replaces `previous` (as read) by `next` (its version + 1) if still at previous.version, else false. */
  update(projectId: string, previous: Campaign, next: Campaign, entry: { created_at: string; changes: CampaignChanges }): Promise<boolean>;
  /** The versions, newest first. */
  listVersions(projectId: string, campaignId: string, page: PageRequest): Promise<StorePage<StoredVersionEntry>>;
  list(projectId: string, page: PageRequest): Promise<StorePage<Campaign>>;
  getEvalSet(projectId: string, campaignId: string): Promise<EvalSetState>;
  /** Adds/removes pool members (idempotent) and updates min_scenarios; returns what actually changed. */
  updateEvalSet(
    projectId: string,
    campaignId: string,
    change: { add: string[]; remove: string[]; min_scenarios?: number },
  ): Promise<{ added: string[]; removed: string[]; state: EvalSetState }>;
}

export interface RunFilter {
  campaign_id?: string;
  trace_id?: string;
  status?: RunStatus;
}

export interface RunsRepo {
  create(run: Run): Promise<void>;
  createMany(runs: Run[]): Promise<void>;
  get(projectId: string, runId: string): Promise<Run | null>;
  list(projectId: string, filter: RunFilter, page: PageRequest): Promise<StorePage<Run>>;
  /**
   * Conditional update: applies `patch` only when the current status is one of `from`. Returns the new run or null.
   * An ended run (completed, failed) is never moved back to an active status: such a call throws.
   */
  transition(projectId: string, runId: string, from: RunStatus[], patch: Partial<Run>): Promise<Run | null>;
  /** Unconditional field update (a CI run's published decision); the status moves by `transition` only. */
  update(projectId: string, runId: string, patch: Partial<Omit<Run, 'status'>>): Promise<void>;
  /**
   * Records that the run's completion (run.completed, and a CI run's hook before it) has been handed to the bus. Kept
   * apart from the run, whose every write a store may bill at the finished run's whole size.
   */
  markPublished(projectId: string, runId: string): Promise<void>;
  /** Whether markPublished was called for the run. */
  isPublished(projectId: string, runId: string): Promise<boolean>;
  /** Stores a finished attempt with its events exactly once (one conditional write). false when it was already stored. */
  putAttempt(projectId: string, attempt: AttemptRecord): Promise<boolean>;
  /**
   * Stored attempts by number; `transcripts: false` skips decoding transcripts (scoring views);
   * `final: true` (the run is terminal, its attempts can no longer change) lets the adapter cache the answer.
   */
  listAttempts(projectId: string, runId: string, opts?: { transcripts?: boolean; final?: boolean }): Promise<AttemptRecord[]>;
  /**
   * One page of stored attempts by number (`page.after`: `{attempt}`), each whole attempt passed through `view` as soon
   * as it is decoded, so a page holds at most one whole transcript at a time.
   */
  listAttemptPage<T>(projectId: string, runId: string, page: PageRequest, view: (a: AttemptRecord) => T): Promise<StorePage<T>>;
  /** One stored attempt, whole, or null. */
  getAttempt(projectId: string, runId: string, attempt: number): Promise<AttemptRecord | null>;
  listPolicyEvents(projectId: string, runId: string, page: PageRequest): Promise<StorePage<PolicyEvent>>;
  listSecurityEvents(projectId: string, runId: string): Promise<SecurityEvent[]>;
  /** Stores a new run-pack (conditional: never overwrites; a write whose answer was lost is recognised as its own). */
  putPack(pack: RunPack): Promise<void>;
  getPack(projectId: string, packId: string): Promise<RunPack | null>;
}

export interface BatchesRepo {
  /** Stores a new batch META (conditional: never overwrites). */
  create(batch: CiBatch): Promise<void>;
  get(projectId: string, batchId: string): Promise<CiBatch | null>;
  /** Writes DONE#<run_id> once (conditional put); false when the marker was already there. */
  putMarker(projectId: string, batchId: string, marker: BatchMarker): Promise<boolean>;
  /** Every completion marker of the batch (strongly consistent). */
  listMarkers(projectId: string, batchId: string): Promise<BatchMarker[]>;
  /** The markers of these runs that exist, in any order (at most 100 ids). */
  getMarkers(projectId: string, batchId: string, runIds: readonly string[]): Promise<BatchMarker[]>;
  /** Atomically adds one to the batch's done hint; returns the new hint with trace_count, or null when the batch is gone. */
  bumpDoneHint(projectId: string, batchId: string): Promise<{ done_hint: number; trace_count: number } | null>;
  /** queued -> running; a no-op in any other state. */
  markRunning(projectId: string, batchId: string): Promise<void>;
  /** Flips the batch to done with its final aggregate unless it is done already; returns the new batch, or null when it was. */
  markDone(projectId: string, batchId: string, result: BatchAggregate, completedAt: string): Promise<CiBatch | null>;
  /**
   * Claims the duty to publish a done batch's decision: granted when unpublished and unclaimed, already claimed by
   * `claimant`, or the previous claim's lease (until `now + leaseMs`) has run out.
   */
  claimDecision(projectId: string, batchId: string, claimant: string, nowMs: number, leaseMs: number): Promise<boolean>;
  /** Gives up `claimant`'s claim on a decision not yet published (its publication failed); nothing when it holds none. */
  releaseDecision(projectId: string, batchId: string, claimant: string): Promise<void>;
  markDecisionPublished(projectId: string, batchId: string): Promise<void>;
  /**
   * Stores the scenarios' comparisons of a done batch, in the given order (idempotent: the same input rewrites the
   * same items).
   */
  putComparisons(projectId: string, batchId: string, comparisons: readonly ScenarioComparisonEntry[]): Promise<void>;
  /** The stored scenario comparisons of a batch, by run id (empty without a baseline). */
  listComparisons(projectId: string, batchId: string): Promise<Map<string, ScenarioComparison>>;
  /** Brings the batch's listing entry up to date with its META (idempotent). */
  updateListing(batch: CiBatch): Promise<void>;
  /** Batches of the project (or of one campaign), newest first. */
  list(projectId: string, filter: BatchFilter, page: PageRequest): Promise<StorePage<BatchListing>>;
  /** The latest `done` batch of a campaign whose metadata.branch is `branch` (by creation time), or null. */
  latestDone(projectId: string, campaignId: string, branch: string): Promise<CiBatch | null>;
}

export interface IdempotencyRecord {
  project_id: string;
  key: string;
  route: string;
  request_hash: string;
  /** Unique per claiming request: a claim whose answer was lost (the SDK retried it) recognises itself. */
  claim_id: string;
  status: 'in_progress' | 'done';
  response_status?: number;
  response_body?: string;
  created_at: string;
  expires_at: number;
}

export interface IdempotencyRepo {
  /** Claims a key; returns the existing record when it was already claimed. */
  claim(rec: IdempotencyRecord): Promise<IdempotencyRecord | null>;
  /** Stores the response to replay for this key until `expiresAt` (unix seconds). */
  complete(projectId: string, key: string, status: number, body: string, expiresAt: number): Promise<void>;
  release(projectId: string, key: string): Promise<void>;
}

/** One replay job on the queue. */
export interface ReplayMessage {
  project_id: string;
  run_id: string;
  /**
   * Set on the messages a run's deliveries send each other (core/replay/fanout/plan.ts): a fan-out part, a hand-off or
   * a sweep. Such a delivery joins the run's work and never fans it out again; absent on the message that queues a run.
   */
  part?: number;
  /**
   * Set on the message that queues a run: what the run replays. Its first delivery reads the trace and the campaign
   * version and moves the run out of `queued` in one conditional write that returns the run, without reading the run
   * first (core/replay/executor.ts). Any other delivery (a resume, a duplicate, a message without it) reads the run.
   */
  replays?: RunInputs;
}

/** The trace and campaign version a run replays, as the run holds them. */
export interface RunInputs {
  trace_id: string;
  campaign_id: string;
  campaign_version: number;
}

export interface QueuePort {
  /** Sends replay jobs; `delaySeconds` (at most 900) keeps them invisible that long (a project over its worker share). */
  sendReplay(messages: ReplayMessage[], options?: { delaySeconds?: number }): Promise<void>;
}

/**
 * Expiring leases on a fixed number of slots per project and scope (the replay workers' per-project share, the
 * target limits' concurrency slots, a run's attempt claims): a lease
 * is held until released or until its time passes, so a worker that dies frees its slot by itself.
 */
export interface LeasesRepo {
  /** Takes a free (or expired) slot of `slots` for `holder` until `until` (epoch ms); its number, or null when all are held. */
  acquire(projectId: string, scope: string, slots: number, holder: string, now: number, until: number): Promise<number | null>;
  /**
   * Takes the named slot for `holder` until `until` (epoch ms) when it is free, expired or already `holder`'s (which
   * renews it); whether it did. A replay run's attempt claims (core/replay/fanout/claims.ts) are such slots.
   */
  take(projectId: string, scope: string, slot: number, holder: string, now: number, until: number): Promise<boolean>;
  /** Frees the slot if `holder` still holds it. */
  release(projectId: string, scope: string, slot: number, holder: string): Promise<void>;
}

/** Per-target limits (docs/campaigns-and-replay.md#limits-and-429): the port's types live beside its implementations. */
export type { KeyLimits, LimitAnswer, LimiterSlot, TargetLimiter } from './replay/limits/port';
export type { DeliveryLogRepo, WebhookChanges, WebhooksRepo } from './webhooks/ports';
export type { AppendResult, McpCall, McpSession, McpSessionsRepo } from './mcp/port';

export interface EventPublisher {
  publish(events: BusEvent[]): Promise<void>;
}

/**
 * Cached answers of the models rts calls itself, per project, by a hash of everything that determines them:
 * llm_judge verdicts (docs/campaigns-and-replay.md#model-graded-criteria-llm_judge) and simulated-user messages
 * (docs/campaigns-and-replay.md#simulated-user).
 */
export interface JudgeCacheRepo {
  /** The verdict stored under `key`, unless absent or expired at `now`. */
  get(projectId: string, key: string, now: Date): Promise<{ score: number; pass: boolean; reason: string } | null>;
  /** Stores a verdict until `expiresAt` (epoch seconds, the table's TTL attribute). */
  put(projectId: string, key: string, verdict: { score: number; pass: boolean; reason: string }, expiresAt: number): Promise<void>;
  /** The simulated-user message stored under `key`, unless absent or expired at `now`. */
  getMessage(projectId: string, key: string, now: Date): Promise<string | null>;
  /** Stores a simulated-user message until `expiresAt` (epoch seconds, the table's TTL attribute). */
  putMessage(projectId: string, key: string, message: string, expiresAt: number): Promise<void>;
}

/**
 * Fixed-window counters per project, kept in the table so that a limit holds across every Lambda container (the
 * webhook send budget of core/webhooks/budget.ts).
 */
export interface RateLimitsRepo {
  /**
   * Takes up to `want` (>= 1) from the counter `name` of `projectId` in the window starting at `windowStart` (epoch
   * seconds), never past `limit` in that window; returns how many it took (0: the window is spent). The window's item
   * expires at `expiresAt` (epoch seconds).
   */
  take(projectId: string, name: string, windowStart: number, limit: number, want: number, expiresAt: number): Promise<number>;
  /** How much was taken from that counter in that window (0 when nothing was), read strongly consistent. */
  used(projectId: string, name: string, windowStart: number): Promise<number>;
}

/**
 * The key that signs pagination cursors, read from where the deployment keeps it (adapters/secrets/cursor-keys.ts:
 * a configured value, a Secrets Manager secret, or a random key kept in the table). Every function of a deployment
 * reads the same key, so a cursor one signs another verifies.
 */
export interface CursorKeysRepo {
  /** The current signing key. Fails (nothing signed, nothing verified) when the key cannot be read. */
  current(): Promise<Buffer>;
}

export interface Repos {
  projects: ProjectsRepo;
  traces: TracesRepo;
  campaigns: CampaignsRepo;
  runs: RunsRepo;
  idempotency: IdempotencyRepo;
  batches: BatchesRepo;
  webhooks: WebhooksRepo;
  deliveryLog: DeliveryLogRepo;
  judgeCache: JudgeCacheRepo;
  rateLimits: RateLimitsRepo;
  leases: LeasesRepo;
  cursorKeys: CursorKeysRepo;
  mcpSessions: McpSessionsRepo;
}

/** Everything a core service may use; wired once per runtime (Lambda or local). */
export interface Deps extends Repos {
  queue: QueuePort;
  events: EventPublisher;
  clock: Clock;
  uuid: () => string;
  /** Base URL of the dashboard (for dashboard_url). */
  dashboardBase: () => string;
  /** Public base URL of the API, no trailing slash (an `mcp` target's agent connects to its MCP endpoint there). */
  apiBase?: () => string;
  /** Outbound HTTP with the SSRF guard (agent targets, webhook deliveries). */
  http: HttpSender;
  /** Waits between retries (tests replace it to skip the waits). */
  sleep: (ms: number) => Promise<void>;
  /** Per-target limits; default: the table's (LeasesRepo, RateLimitsRepo); the local runtime sets its in-process one. */
  limiter?: TargetLimiter;
}

/** An outbound HTTP request (agent targets, webhook deliveries). */
export interface OutboundRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
}
export interface OutboundResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  durationMs: number;
}
/**
 * Sends one request, never following redirects. Rejects with an OutboundError
 * (kind 'timeout' | 'blocked' | 'connection') when no HTTP response arrives.
 */
export type HttpSender = (req: OutboundRequest) => Promise<OutboundResponse>;

export class OutboundError extends Error {
  constructor(
    readonly kind: 'timeout' | 'blocked' | 'connection',
    /** timeout: "timeout after 5000 ms"; blocked: "blocked: <reason>"; connection: "connection error: <code>" */
    message: string,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

// Webhooks: what the webhook core needs from storage: the webhooks themselves (adapters/dynamodb/webhooks-repo.ts) and
// their deliveries (adapters/dynamodb/delivery-log-repo.ts).

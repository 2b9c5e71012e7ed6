// The webhook ports of the core (re-exported by ../ports.ts): the webhooks of a project, and their delivery log with
// the dedup claims and kept events that resend and recover use.
import type { PageRequest, StorePage } from '../ports';
import type { DeliveryAttempt, DeliveryLogEntry, DeliveryOutcome, StoredDelivery, StoredEvent, WebhookRecord } from './schema';

/** Fields a PATCH may change (plus the time it did). */
export interface WebhookChanges {
  url?: string;
  events?: WebhookRecord['events'];
  is_enabled?: boolean;
  description?: string | null;
  updated_at: string;
}

export interface WebhooksRepo {
  /** Stores a new webhook unless the project already holds `limit`; `created: false` then, and nothing stays stored. */
  create(record: WebhookRecord, limit: number): Promise<{ created: boolean }>;
  /** Strongly consistent: a rotation, pause or delete is seen by the very next delivery try. */
  get(projectId: string, webhookId: string): Promise<WebhookRecord | null>;
  /**
   * Every webhook of the project (at most the per-project limit), for fan-out; strongly consistent and read afresh on
   * every call, so an event published after a create answered is fanned out to the new webhook in any process.
   */
  listAll(projectId: string): Promise<WebhookRecord[]>;
  /** A page of the project's webhooks, newest first. */
  list(projectId: string, page: PageRequest): Promise<StorePage<WebhookRecord>>;
  /** Applies a PATCH; null when the webhook does not exist. */
  update(projectId: string, webhookId: string, changes: WebhookChanges): Promise<WebhookRecord | null>;
  /** Replaces the secret; false when the webhook does not exist. */
  rotateSecret(projectId: string, webhookId: string, secret: string, at: string): Promise<boolean>;
  /** false when the webhook did not exist. */
  delete(projectId: string, webhookId: string): Promise<boolean>;
  /** Success: clears last_error, sets last_delivery_at/last_status. Never recreates a deleted webhook. */
  recordSuccess(projectId: string, webhookId: string, at: string, status: number): Promise<void>;
  /** Failure after the last try: sets last_error/last_error_at. Never recreates a deleted webhook. */
  recordFailure(projectId: string, webhookId: string, at: string, error: string): Promise<void>;
}

/**
 * What the webhooks' deliveries leave behind: the claims that make a bus event reach a webhook once, the delivery log
 * (GET /v1/webhooks/{id}/deliveries) and the events kept so that resend and recover send the same bytes again.
 */
export interface DeliveryLogRepo {
  /**
   * Claims the delivery of one bus event to one webhook for the delivery `deliveryId`; false when another delivery
   * holds it (a bus or function retry). A claim the store already holds for this same delivery id answers true: the
   * store may have applied a claim whose answer was lost.
   */
  claimDelivery(webhookId: string, eventId: string, expiresAt: number, deliveryId: string): Promise<boolean>;
  /** Frees a claim `holder` took (a recover that could not queue what it claimed); another holder's claim stays. */
  releaseClaim(webhookId: string, key: string, holder: string): Promise<void>;
  /**
   * Appends a delivery log entry that expires at `expiresAt` (epoch seconds). With `eventId` (the kept event it
   * delivered) the entry can be found by its delivery id and sent again.
   */
  putDelivery(projectId: string, webhookId: string, entry: DeliveryLogEntry, expiresAt: number, eventId?: string): Promise<void>;
  /** One delivery log entry by its delivery id, with its event id and version; null when unknown or past `nowEpoch`. */
  getDelivery(projectId: string, webhookId: string, deliveryId: string, nowEpoch: number): Promise<StoredDelivery | null>;
  /** The entries with outcome `failed` created at or after `sinceIso`, oldest first, without entries past `nowEpoch`. */
  listFailedDeliveries(projectId: string, webhookId: string, sinceIso: string, nowEpoch: number): Promise<StoredDelivery[]>;
  /**
   * Records a resend or recovery of an entry: appends its tries (keeping the last few dozen), sets the outcome
   * (unchanged when null) and increments the version. false when the entry is gone.
   */
  recordRedelivery(
    projectId: string,
    webhookId: string,
    deliveryId: string,
    tries: { attempts: DeliveryAttempt[]; outcome: DeliveryOutcome | null },
  ): Promise<boolean>;
  /** Keeps an event's delivered body until `expiresAt`; an event already kept under this id stays as it is. */
  putEvent(projectId: string, eventId: string, event: StoredEvent, expiresAt: number): Promise<void>;
  /** A kept event, or null when unknown or expired. */
  getEvent(projectId: string, eventId: string, nowEpoch: number): Promise<StoredEvent | null>;
  /** The delivery log, newest first, without entries past `nowEpoch`. */
  listDeliveries(projectId: string, webhookId: string, page: PageRequest, nowEpoch: number): Promise<StorePage<DeliveryLogEntry>>;
}

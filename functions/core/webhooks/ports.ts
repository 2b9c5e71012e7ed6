// What the webhook core needs from storage; adapters/dynamodb/webhooks-repo.ts implements it over the single table.
import type { PageRequest, StorePage } from '../../ports';
import type { DeliveryLogEntry, WebhookRecord } from './schema';

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
  /** Every webhook of the project (at most the per-project limit), for fan-out; strongly consistent. */
  listAll(projectId: string): Promise<WebhookRecord[]>;
  /** A page of the project's webhooks, newest first. */
  list(projectId: string, page: PageRequest): Promise<StorePage<WebhookRecord>>;
  /** Applies a PATCH; null when the webhook does not exist. */
  update(projectId: string, webhookId: string, changes: WebhookChanges): Promise<WebhookRecord | null>;
  /** Replaces the secret; false when the webhook does not exist. */
  rotateSecret(projectId: string, webhookId: string, secret: string, at: string): Promise<boolean>;
  /** false when the webhook did not exist. */
  delete(projectId: string, webhookId: string): Promise<boolean>;
  /**
   * Claims the delivery of one bus event to one webhook for the delivery `deliveryId`; false when another delivery
   * holds it (a bus or function retry). A claim the store already holds for this same delivery id answers true: the
   * store may have applied a claim whose answer was lost.
   */
  claimDelivery(webhookId: string, eventId: string, expiresAt: number, deliveryId: string): Promise<boolean>;
  /** Appends a delivery log entry that expires at `expiresAt` (epoch seconds). */
  putDelivery(projectId: string, webhookId: string, entry: DeliveryLogEntry, expiresAt: number): Promise<void>;
  /** The delivery log, newest first, without entries past `nowEpoch`. */
  listDeliveries(projectId: string, webhookId: string, page: PageRequest, nowEpoch: number): Promise<StorePage<DeliveryLogEntry>>;
  /** Success: clears last_error, sets last_delivery_at/last_status. Never recreates a deleted webhook. */
  recordSuccess(projectId: string, webhookId: string, at: string, status: number): Promise<void>;
  /** Failure after the last try: sets last_error/last_error_at. Never recreates a deleted webhook. */
  recordFailure(projectId: string, webhookId: string, at: string, error: string): Promise<void>;
}

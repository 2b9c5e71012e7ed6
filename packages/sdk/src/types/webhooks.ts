// Webhooks (docs/webhooks.md): subscriptions, the delivery log, resend/recover/test, and the events they deliver.
import type { JsonObject } from './common';

/** Project events a webhook can subscribe to. */
export type EventType =
  | 'trace.created'
  | 'trace.updated'
  | 'campaign.created'
  | 'run.created'
  | 'run.queued'
  | 'run.replay_queued'
  | 'run.pack_queued'
  | 'run.completed'
  | 'ci.decision.pass'
  | 'ci.decision.fail';

/** What a delivery may carry: a project event, or `webhook.test` (sent by POST /v1/webhooks/{id}/test only). */
export type DeliveredEventType = EventType | 'webhook.test';

/**
 * The body of every delivery: these four fields and nothing else (serialised with sorted keys and compact separators;
 * verify the raw bytes, then `JSON.parse` them).
 */
export interface WebhookEvent<D = JsonObject> {
  event_type: DeliveredEventType;
  project_id: string;
  created_at: string;
  data: D;
}

/** The body of POST /v1/webhooks. */
export interface WebhookInput {
  /** An absolute https:// URL without user:password. */
  url: string;
  /** Known event types, or `["*"]` for all (which never includes `webhook.test`). */
  events: EventType[] | ['*'];
  /** false: paused. @default true */
  is_enabled?: boolean;
  description?: string | null;
}

/** The body of PATCH /v1/webhooks/{webhook_id}: any of the create fields (`is_enabled` pauses and resumes). */
export type WebhookPatch = Partial<WebhookInput>;

interface WebhookFields {
  /** `wh_` + 24 lowercase alphanumerics. */
  webhook_id: string;
  url: string;
  events: (EventType | '*')[];
  is_enabled: boolean;
  description: string | null;
  created_at: string;
}

/**
 * The signing secret of the create and rotate answers, shown by the first answer only. An Idempotency-Key replay of
 * that answer (the same key and request again within 24 h, e.g. a retry after a lost answer) holds `secret: null` and
 * `secret_withheld: true`, since replay records keep no secret: rotate the secret (with a new key) to get one.
 */
export interface OnceShownSecret {
  /** `whsec_` + base64 of 32 random bytes (the Standard Webhooks format); null only in a replay. */
  secret: string | null;
  /** true only in an Idempotency-Key replay, whose `secret` is null. */
  secret_withheld?: true;
}

/** 201 of POST /v1/webhooks: the only answer besides rotate-secret that shows the secret. */
export interface WebhookCreated extends WebhookFields, OnceShownSecret {}

/** A webhook without its secret, with its last delivery status. */
export interface Webhook extends WebhookFields {
  /** The last failure after all retries: `HTTP 500`, `timeout after 5000 ms`, `connection error: <code>`, `blocked: <reason>`. */
  last_error: string | null;
  last_error_at: string | null;
  last_delivery_at: string | null;
  last_status: number | null;
}

/** 200 of POST /v1/webhooks/{webhook_id}/rotate-secret: the old secret stops signing at once. */
export interface WebhookSecret extends OnceShownSecret {
  webhook_id: string;
}

/** One try of a delivery. */
export interface DeliveryAttempt {
  at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

/** One delivery log entry (kept 7 days); resends and recoveries append their tries to it. */
export interface Delivery {
  delivery_id: string;
  event_type: DeliveredEventType;
  created_at: string;
  outcome: 'succeeded' | 'failed' | 'skipped';
  attempts: DeliveryAttempt[];
}

/** 202 of resend and test: the delivery queued (a resend keeps the delivery id). */
export interface DeliveryQueued {
  webhook_id: string;
  delivery_id: string;
  event_type: DeliveredEventType;
}

/** The body of POST /v1/webhooks/{webhook_id}/recover. */
export interface RecoverRequest {
  /** ISO 8601 timestamp within the last 7 days. */
  since: string;
}

/** 202 of POST /v1/webhooks/{webhook_id}/recover. */
export interface RecoverQueued {
  /** Failed deliveries queued for one more try by this request. */
  queued: number;
}

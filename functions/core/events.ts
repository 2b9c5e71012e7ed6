// Project event types and the delivery envelope (docs/webhooks.md#events).

export const EVENT_TYPES = [
  'trace.created',
  'trace.updated',
  'run.created',
  'run.queued',
  'run.completed',
  'run.pack_queued',
  'run.replay_queued',
  'campaign.created',
  'campaign.updated',
  'ci.decision.pass',
  'ci.decision.fail',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The event POST /v1/webhooks/{id}/test sends: not a bus event, so no webhook subscribes to it. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
/** What a delivery carries: a project event type, or webhook.test. */
export type DeliveredEventType = EventType | typeof WEBHOOK_TEST_EVENT;

/** What a webhook receives: these four fields and nothing else. */
export interface EventEnvelope {
  event_type: EventType;
  project_id: string;
  created_at: string;
  data: Record<string, unknown>;
}

/**
 * What travels on the bus: the envelope plus a dedup id. Events that may be re-emitted after a crash
 * (run.completed, ci decisions) carry a deterministic id, so a delivery is made at most once per webhook.
 */
export interface BusEvent {
  id: string;
  envelope: EventEnvelope;
}

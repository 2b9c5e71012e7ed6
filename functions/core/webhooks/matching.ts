// Which webhooks an event goes to: enabled ones subscribed to its type, or to everything with "*".
import type { EventType } from '../events';
import type { WebhookRecord } from './schema';

export function subscribesTo(events: readonly string[], eventType: EventType | string): boolean {
  return events.includes('*') || events.includes(eventType);
}

/** Webhooks that should receive this event now (paused ones get nothing; events are not queued for later). */
export function recipients(webhooks: readonly WebhookRecord[], eventType: EventType | string): WebhookRecord[] {
  return webhooks.filter((w) => w.is_enabled && subscribesTo(w.events, eventType));
}

// An in-memory DeliveryLogRepo for unit tests of the webhook core: same contract as the DynamoDB one, no network.
import type { DeliveryLogRepo, PageRequest } from '../../functions/core/ports';
import type { DeliveryAttempt, DeliveryLogEntry, DeliveryOutcome, StoredDelivery, StoredEvent } from '../../functions/core/webhooks/schema';

export class MemoryDeliveryLogRepo implements DeliveryLogRepo {
  /** (webhook id/event id) -> the delivery id holding the claim. */
  readonly claims = new Map<string, string>();
  /** The log entries, in the order they were put. */
  readonly entries: { webhookId: string; entry: DeliveryLogEntry; expiresAt: number; eventId?: string; version: number }[] = [];
  /** Kept events by `<project>/<event id>`. */
  readonly events = new Map<string, { event: StoredEvent; expiresAt: number }>();

  async claimDelivery(webhookId: string, eventId: string, _expiresAt: number, deliveryId: string) {
    const k = `${webhookId}/${eventId}`;
    const holder = this.claims.get(k);
    if (holder !== undefined) return holder === deliveryId;
    this.claims.set(k, deliveryId);
    return true;
  }
  async releaseClaim(webhookId: string, key: string, holder: string) {
    if (this.claims.get(`${webhookId}/${key}`) === holder) this.claims.delete(`${webhookId}/${key}`);
  }
  async putDelivery(_pid: string, webhookId: string, entry: DeliveryLogEntry, expiresAt: number, eventId?: string) {
    this.entries.push({ webhookId, entry, expiresAt, ...(eventId ? { eventId } : {}), version: 0 });
  }
  private stored(l: MemoryDeliveryLogRepo['entries'][number]): StoredDelivery {
    return { ...structuredClone(l.entry), event_id: l.eventId ?? null, version: l.version };
  }
  async getDelivery(_pid: string, webhookId: string, deliveryId: string, nowEpoch: number) {
    const found = this.entries.find((l) => l.webhookId === webhookId && l.entry.delivery_id === deliveryId && l.eventId && l.expiresAt > nowEpoch);
    return found ? this.stored(found) : null;
  }
  async listFailedDeliveries(_pid: string, webhookId: string, sinceIso: string, nowEpoch: number) {
    return this.entries
      .filter((l) => l.webhookId === webhookId && l.entry.outcome === 'failed' && l.entry.created_at >= sinceIso && l.expiresAt > nowEpoch)
      .sort((a, b) => a.entry.created_at.localeCompare(b.entry.created_at) || a.entry.delivery_id.localeCompare(b.entry.delivery_id))
      .map((l) => this.stored(l));
  }
  async recordRedelivery(
    _pid: string,
    webhookId: string,
    deliveryId: string,
    tries: { attempts: DeliveryAttempt[]; outcome: DeliveryOutcome | null },
  ) {
    const found = this.entries.find((l) => l.webhookId === webhookId && l.entry.delivery_id === deliveryId && l.eventId);
    if (!found) return false;
    found.entry = {
      ...found.entry,
      attempts: [...found.entry.attempts, ...tries.attempts].slice(-40),
      outcome: tries.outcome ?? found.entry.outcome,
    };
    found.version++;
    return true;
  }
  async putEvent(pid: string, eventId: string, event: StoredEvent, expiresAt: number) {
    if (!this.events.has(`${pid}/${eventId}`)) this.events.set(`${pid}/${eventId}`, { event: { ...event }, expiresAt });
  }
  async getEvent(pid: string, eventId: string, nowEpoch: number) {
    const found = this.events.get(`${pid}/${eventId}`);
    return found && found.expiresAt > nowEpoch ? { ...found.event } : null;
  }
  async listDeliveries(_pid: string, webhookId: string, page: PageRequest, nowEpoch: number) {
    const items = this.entries
      .filter((l) => l.webhookId === webhookId && l.expiresAt > nowEpoch)
      .map((l) => l.entry)
      .reverse();
    return { items: items.slice(0, page.limit) };
  }
}

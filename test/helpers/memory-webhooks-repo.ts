// An in-memory WebhooksRepo for unit tests of the webhook core: same contract as the DynamoDB one, no network.
import type { PageRequest, StorePage } from '../../functions/ports';
import type { WebhookChanges, WebhooksRepo } from '../../functions/ports';
import type {
  DeliveryAttempt,
  DeliveryLogEntry,
  DeliveryOutcome,
  StoredDelivery,
  StoredEvent,
  WebhookRecord,
} from '../../functions/core/webhooks/schema';

export class MemoryWebhooksRepo implements WebhooksRepo {
  readonly hooks = new Map<string, WebhookRecord>();
  /** (webhook id/event id) -> the delivery id holding the claim. */
  readonly claims = new Map<string, string>();
  readonly log: { webhookId: string; entry: DeliveryLogEntry; expiresAt: number; eventId?: string; version: number }[] = [];
  /** Kept events by `<project>/<event id>`. */
  readonly events = new Map<string, { event: StoredEvent; expiresAt: number }>();
  /** Called before every get(), so a test can change the webhook between tries. */
  onGet?: (webhookId: string, calls: number) => void | Promise<void>;
  private gets = 0;

  private key = (pid: string, id: string) => `${pid}/${id}`;

  async create(record: WebhookRecord, limit: number) {
    if ((await this.listAll(record.project_id)).length >= limit) return { created: false };
    this.hooks.set(this.key(record.project_id, record.webhook_id), { ...record });
    return { created: true };
  }
  async get(pid: string, id: string) {
    await this.onGet?.(id, ++this.gets);
    const found = this.hooks.get(this.key(pid, id));
    return found ? { ...found } : null;
  }
  async listAll(pid: string) {
    return [...this.hooks.values()].filter((h) => h.project_id === pid).map((h) => ({ ...h }));
  }
  async list(pid: string, page: PageRequest): Promise<StorePage<WebhookRecord>> {
    const all = (await this.listAll(pid)).sort((a, b) => b.created_at.localeCompare(a.created_at));
    const start = page.after ? Number(page.after.index) : 0;
    const items = all.slice(start, start + page.limit);
    return { items, last: start + page.limit < all.length ? { index: start + page.limit } : undefined };
  }
  async update(pid: string, id: string, changes: WebhookChanges) {
    const found = this.hooks.get(this.key(pid, id));
    if (!found) return null;
    const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    const next = { ...found, ...defined } as WebhookRecord;
    this.hooks.set(this.key(pid, id), next);
    return { ...next };
  }
  async rotateSecret(pid: string, id: string, secret: string, at: string) {
    const found = this.hooks.get(this.key(pid, id));
    if (!found) return false;
    Object.assign(found, { secret, updated_at: at });
    return true;
  }
  async delete(pid: string, id: string) {
    return this.hooks.delete(this.key(pid, id));
  }
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
    this.log.push({ webhookId, entry, expiresAt, ...(eventId ? { eventId } : {}), version: 0 });
  }
  private stored(l: MemoryWebhooksRepo['log'][number]): StoredDelivery {
    return { ...structuredClone(l.entry), event_id: l.eventId ?? null, version: l.version };
  }
  async getDelivery(_pid: string, webhookId: string, deliveryId: string, nowEpoch: number) {
    const found = this.log.find((l) => l.webhookId === webhookId && l.entry.delivery_id === deliveryId && l.eventId && l.expiresAt > nowEpoch);
    return found ? this.stored(found) : null;
  }
  async listFailedDeliveries(_pid: string, webhookId: string, sinceIso: string, nowEpoch: number) {
    return this.log
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
    const found = this.log.find((l) => l.webhookId === webhookId && l.entry.delivery_id === deliveryId && l.eventId);
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
    const items = this.log
      .filter((l) => l.webhookId === webhookId && l.expiresAt > nowEpoch)
      .map((l) => l.entry)
      .reverse();
    return { items: items.slice(0, page.limit) };
  }
  async recordSuccess(pid: string, id: string, at: string, status: number) {
    const found = this.hooks.get(this.key(pid, id));
    if (found) Object.assign(found, { last_error: null, last_delivery_at: at, last_status: status });
  }
  async recordFailure(pid: string, id: string, at: string, error: string) {
    const found = this.hooks.get(this.key(pid, id));
    if (found) Object.assign(found, { last_error: error, last_error_at: at });
  }
}

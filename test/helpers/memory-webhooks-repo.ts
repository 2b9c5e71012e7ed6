// An in-memory WebhooksRepo for unit tests of the webhook core: same contract as the DynamoDB one, no network.
import type { PageRequest, StorePage, WebhookChanges, WebhooksRepo } from '../../functions/core/ports';
import type { WebhookRecord } from '../../functions/core/webhooks/schema';

export class MemoryWebhooksRepo implements WebhooksRepo {
  readonly hooks = new Map<string, WebhookRecord>();
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
  async recordSuccess(pid: string, id: string, at: string, status: number) {
    const found = this.hooks.get(this.key(pid, id));
    if (found) Object.assign(found, { last_error: null, last_delivery_at: at, last_status: status });
  }
  async recordFailure(pid: string, id: string, at: string, error: string) {
    const found = this.hooks.get(this.key(pid, id));
    if (found) Object.assign(found, { last_error: error, last_error_at: at });
  }
}

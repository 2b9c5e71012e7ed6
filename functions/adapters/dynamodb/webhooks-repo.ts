// Webhooks in the single table (keys.ts pattern 17); their deliveries, claims and kept events are in delivery-log-repo.ts.
import type { PageRequest, StorePage, WebhookChanges, WebhooksRepo } from '../../core/ports';
import type { WebhookRecord } from '../../core/webhooks/schema';
import { FreshReads } from './fresh-read';
import { keys, stripKeys } from './keys';
import { deleteIf, deleteItem, getItem, putNew, queryAll, updateExisting } from './table';

/** A slot held this long by a webhook that does not exist belongs to a create that died half-way. */
const SLOT_ABANDONED_MS = 60_000;

/** A stored webhook without this adapter's bookkeeping (its limit slot). */
function webhookFromItem(item: Record<string, unknown>): WebhookRecord {
  const { slot: _slot, ...rest } = stripKeys<WebhookRecord & { slot?: number }>(item);
  return rest;
}

const newestFirst = (a: WebhookRecord, b: WebhookRecord) => b.created_at.localeCompare(a.created_at) || b.webhook_id.localeCompare(a.webhook_id);

/** The WebhooksRepo port (functions/core/ports.ts) over DynamoDB. Construct with `new DynamoWebhooksRepo()`; TABLE_NAME is read at first use. */
export class DynamoWebhooksRepo implements WebhooksRepo {
  /**
   * The per-project limit without transactions (dynalite has none): each webhook holds one of `limit` slot items,
   * taken with a conditional put, so concurrent creates can never hold more than `limit` between them. A slot whose
   * webhook never got written (the creating call died in between) is freed after SLOT_ABANDONED_MS. The count check
   * first answers the common case at once (and counts webhooks stored before slots existed).
   */
  async create(record: WebhookRecord, limit: number): Promise<{ created: boolean }> {
    if ((await this.ranked(record.project_id)).length >= limit) return { created: false };
    const slot = await this.claimSlot(record.project_id, record.webhook_id, limit);
    if (slot === null) return { created: false };
    const stored = await putNew(
      { ...keys.webhook(record.project_id, record.webhook_id), entity: 'webhook', ...record, slot },
      // A fresh id and secret: the item under it is this call's own write when the put's answer was lost.
      (item) => item.secret === record.secret,
    );
    if (!stored) {
      await this.freeSlot(record.project_id, slot, record.webhook_id);
      throw new Error(`webhook ${record.webhook_id} already exists`);
    }
    return { created: true };
  }

  /** Takes the first free slot (a second pass after freeing abandoned ones); null when all `limit` are held. */
  private async claimSlot(projectId: string, webhookId: string, limit: number): Promise<number | null> {
    for (let pass = 0; pass < 2; pass++) {
      for (let n = 0; n < limit; n++) {
        const item = { ...keys.webhookSlot(projectId, n), entity: 'webhook_slot', webhook_id: webhookId, claimed_at: Date.now() };
        if (await putNew(item, (stored) => stored.webhook_id === webhookId)) return n;
      }
      if (pass === 0 && !(await this.freeAbandonedSlots(projectId))) break;
    }
    return null;
  }

  /** Frees the slots whose webhook does not exist and whose claim is older than SLOT_ABANDONED_MS; true if any was. */
  private async freeAbandonedSlots(projectId: string): Promise<boolean> {
    const slots = await queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': keys.webhooksPk(projectId), ':p': keys.webhookSlotPrefix },
      ConsistentRead: true,
    });
    let freed = false;
    for (const s of slots) {
      if (Date.now() - Number(s.claimed_at ?? 0) < SLOT_ABANDONED_MS) continue;
      if (await getItem(keys.webhook(projectId, String(s.webhook_id)), true)) continue;
      freed = (await this.freeSlot(projectId, Number(String(s.sk).slice(keys.webhookSlotPrefix.length)), String(s.webhook_id))) || freed;
    }
    return freed;
  }

  private freeSlot(projectId: string, slot: number, webhookId: string): Promise<boolean> {
    return deleteIf(keys.webhookSlot(projectId, slot), 'webhook_id = :w', { ':w': webhookId });
  }

  /** The project's webhook ids, oldest first (the order that decides who stays when creates race past the limit). */
  private async ranked(projectId: string): Promise<{ webhook_id: string; created_at: string }[]> {
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': keys.webhooksPk(projectId), ':p': keys.webhookPrefix },
      ProjectionExpression: 'webhook_id, created_at',
      ConsistentRead: true,
    });
    return (items as { webhook_id: string; created_at: string }[]).sort(
      (a, b) => a.created_at.localeCompare(b.created_at) || a.webhook_id.localeCompare(b.webhook_id),
    );
  }

  async get(projectId: string, webhookId: string): Promise<WebhookRecord | null> {
    const item = await getItem(keys.webhook(projectId, webhookId), true);
    return item ? webhookFromItem(item) : null;
  }

  /** Strongly consistent reads of a project's webhooks; callers at the same time share one that started after each called. */
  private readonly webhookItems = new FreshReads((projectId) =>
    queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': keys.webhooksPk(projectId), ':p': keys.webhookPrefix },
      ConsistentRead: true,
    }),
  );

  /**
   * Read from the table for every call, strongly consistent, never remembered: the fan-out runs in other processes
   * (other Lambda containers) than the create, so any memory of "no webhooks" here could never learn of a create.
   * Calls at the same time share a read that started after each of them (fresh-read.ts); each gets records of its own.
   */
  async listAll(projectId: string): Promise<WebhookRecord[]> {
    const items = await this.webhookItems.get(projectId);
    return items.map((element) => webhookFromItem(structuredClone(element)));
  }

  /** A project holds at most 25 webhooks, so a page is cut from the full, sorted set; the cursor is the last item's position. */
  async list(projectId: string, page: PageRequest): Promise<StorePage<WebhookRecord>> {
    const all = (await this.listAll(projectId)).sort(newestFirst);
    let start = 0;
    if (page.after) {
      const after = { created_at: String(page.after.created_at), webhook_id: String(page.after.webhook_id) } as WebhookRecord;
      start = all.findIndex((w) => newestFirst(after, w) < 0);
      if (start < 0) start = all.length;
    }
    const items = all.slice(start, start + page.limit);
    const more = start + page.limit < all.length;
    const tail = items[items.length - 1];
    return { items, last: more && tail ? { created_at: tail.created_at, webhook_id: tail.webhook_id } : undefined };
  }

  async update(projectId: string, webhookId: string, changes: WebhookChanges): Promise<WebhookRecord | null> {
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    const sets: string[] = [];
    for (const [field, value] of Object.entries(changes)) {
      if (value === undefined) continue;
      names[`#${field}`] = field;
      values[`:${field}`] = value;
      sets.push(`#${field} = :${field}`);
    }
    const updated = await updateExisting({
      Key: keys.webhook(projectId, webhookId),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    });
    return updated && webhookFromItem(updated);
  }

  async rotateSecret(projectId: string, webhookId: string, secret: string, at: string): Promise<boolean> {
    return this.conditionalUpdate(projectId, webhookId, 'SET secret = :s, updated_at = :at', { ':s': secret, ':at': at });
  }

  async delete(projectId: string, webhookId: string): Promise<boolean> {
    const item = await getItem(keys.webhook(projectId, webhookId), true);
    if (!item || !(await deleteItem(keys.webhook(projectId, webhookId), true))) return false;
    if (typeof item.slot === 'number') await this.freeSlot(projectId, item.slot, webhookId);
    return true;
  }

  async recordSuccess(projectId: string, webhookId: string, at: string, status: number): Promise<void> {
    await this.conditionalUpdate(projectId, webhookId, 'SET last_delivery_at = :at, last_status = :s REMOVE last_error', { ':at': at, ':s': status });
  }

  async recordFailure(projectId: string, webhookId: string, at: string, error: string): Promise<void> {
    await this.conditionalUpdate(projectId, webhookId, 'SET last_error = :e, last_error_at = :at', { ':e': error, ':at': at });
  }

  /** An update that only touches the named fields and never recreates a deleted webhook; false when it is gone. */
  private async conditionalUpdate(projectId: string, webhookId: string, expression: string, values: Record<string, unknown>): Promise<boolean> {
    return (
      (await updateExisting({
        Key: keys.webhook(projectId, webhookId),
        UpdateExpression: expression,
        ExpressionAttributeValues: values,
        ReturnValues: 'NONE',
      })) !== null
    );
  }
}

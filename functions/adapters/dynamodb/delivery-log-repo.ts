// The webhooks' deliveries in the single table: dedup claims, the delivery log (TTL 7 days) and the kept events that
// resend and recover send again (keys.ts patterns 18, 19, 23 and 24).
import type { DeliveryLogRepo, PageRequest, StorePage } from '../../core/ports';
import type { DeliveryAttempt, DeliveryLogEntry, DeliveryOutcome, StoredDelivery, StoredEvent } from '../../core/webhooks/schema';
import { keys } from './keys';
import { deleteIf, getItem, putIf, putNew, queryAll, queryPage, updateIf } from './table';

/** Tries a log entry keeps: resends append theirs, and an item must stay far below DynamoDB's 400 KB. */
export const MAX_KEPT_ATTEMPTS = 40;
/** Concurrent redeliveries of one entry race on its version; each re-reads and tries again this often. */
const VERSION_RACE_TRIES = 8;

/** The public shape of a log entry: the attributes a client sees, without event id, version or storage keys. */
function logEntry(item: Record<string, unknown>): DeliveryLogEntry {
  const { delivery_id, event_type, created_at, outcome, attempts } = item as unknown as DeliveryLogEntry;
  return { delivery_id, event_type, created_at, outcome, attempts };
}

function storedDelivery(item: Record<string, unknown>): StoredDelivery {
  return {
    ...logEntry(item),
    event_id: typeof item.event_id === 'string' ? item.event_id : null,
    version: typeof item.version === 'number' ? item.version : 0,
  };
}

const live = (item: Record<string, unknown> | undefined, nowEpoch: number) => item !== undefined && Number(item.expires_at ?? Infinity) > nowEpoch;

/** The DeliveryLogRepo port (functions/core/ports.ts) over DynamoDB. Construct with `new DynamoDeliveryLogRepo()`; TABLE_NAME is read at first use. */
export class DynamoDeliveryLogRepo implements DeliveryLogRepo {
  async claimDelivery(webhookId: string, eventId: string, expiresAt: number, deliveryId: string): Promise<boolean> {
    // The claim carries the delivery's id, so a put whose answer was lost (applied, then refused on the SDK's retry)
    // is still this delivery's claim, and the event is sent instead of being taken for a duplicate and dropped.
    return putNew(
      { ...keys.deliveryDedup(webhookId, eventId), entity: 'delivery_claim', delivery_id: deliveryId, expires_at: expiresAt },
      (stored) => stored.delivery_id === deliveryId,
    );
  }

  async releaseClaim(webhookId: string, key: string, holder: string): Promise<void> {
    await deleteIf(keys.deliveryDedup(webhookId, key), 'delivery_id = :h', { ':h': holder });
  }

  /** The entry, and with an event id its by-id pointer; both unconditional, so a retried write keeps one entry. */
  async putDelivery(projectId: string, webhookId: string, entry: DeliveryLogEntry, expiresAt: number, eventId?: string): Promise<void> {
    await putIf({
      Item: {
        ...keys.delivery(projectId, webhookId, entry.created_at, entry.delivery_id),
        entity: 'delivery',
        ...entry,
        ...(eventId ? { event_id: eventId } : {}),
        expires_at: expiresAt,
      },
    });
    if (!eventId) return;
    await putIf({
      Item: {
        ...keys.deliveryById(projectId, webhookId, entry.delivery_id),
        entity: 'delivery_pointer',
        created_at: entry.created_at,
        expires_at: expiresAt,
      },
    });
  }

  /** Newest first (the sort key starts with created_at). TTL deletion lags, so expired entries are filtered on read. */
  async listDeliveries(projectId: string, webhookId: string, page: PageRequest, nowEpoch: number): Promise<StorePage<DeliveryLogEntry>> {
    const res = await queryPage({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      FilterExpression: 'expires_at > :now',
      ExpressionAttributeValues: { ':pk': keys.deliveriesPk(projectId, webhookId), ':p': keys.deliveryPrefix, ':now': nowEpoch },
      ScanIndexForward: false,
      Limit: page.limit,
      ExclusiveStartKey: page.after,
    });
    return { items: res.items.map((element) => logEntry(element)), last: res.last };
  }

  async getDelivery(projectId: string, webhookId: string, deliveryId: string, nowEpoch: number): Promise<StoredDelivery | null> {
    const item = await this.entryItem(projectId, webhookId, deliveryId);
    return item && live(item, nowEpoch) ? storedDelivery(item) : null;
  }

  async listFailedDeliveries(projectId: string, webhookId: string, sinceIso: string, nowEpoch: number): Promise<StoredDelivery[]> {
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      FilterExpression: '#outcome = :failed AND expires_at > :now',
      ExpressionAttributeNames: { '#outcome': 'outcome' },
      ExpressionAttributeValues: {
        ':pk': keys.deliveriesPk(projectId, webhookId),
        ':from': `${keys.deliveryPrefix}${sinceIso}`,
        ':to': `${keys.deliveryPrefix}\uffff`,
        ':failed': 'failed',
        ':now': nowEpoch,
      },
      ScanIndexForward: true,
      ConsistentRead: true,
    });
    return items.map((element) => storedDelivery(element));
  }

  /** Read, append, write under the version read: concurrent resends of one entry each land, none overwrites another. */
  async recordRedelivery(
    projectId: string,
    webhookId: string,
    deliveryId: string,
    tries: { attempts: DeliveryAttempt[]; outcome: DeliveryOutcome | null },
  ): Promise<boolean> {
    for (let i = 0; i < VERSION_RACE_TRIES; i++) {
      const item = await this.entryItem(projectId, webhookId, deliveryId);
      if (!item) return false;
      const version = typeof item.version === 'number' ? item.version : 0;
      const attempts = [...((item.attempts as DeliveryAttempt[] | undefined) ?? []), ...tries.attempts].slice(-MAX_KEPT_ATTEMPTS);
      const written = await updateIf({
        Key: { pk: item.pk, sk: item.sk },
        UpdateExpression: `SET attempts = :a, #v = :next${tries.outcome ? ', #outcome = :o' : ''}`,
        ConditionExpression: version === 0 ? 'attribute_exists(pk) AND attribute_not_exists(#v)' : 'attribute_exists(pk) AND #v = :read',
        ExpressionAttributeNames: { '#v': 'version', ...(tries.outcome ? { '#outcome': 'outcome' } : {}) },
        ExpressionAttributeValues: {
          ':a': attempts,
          ':next': version + 1,
          ...(version === 0 ? {} : { ':read': version }),
          ...(tries.outcome ? { ':o': tries.outcome } : {}),
        },
        ReturnValues: 'NONE',
      });
      if (written) return true;
    }
    throw new Error(`delivery ${deliveryId}: the log entry kept changing under ${VERSION_RACE_TRIES} redelivery writes`);
  }

  async putEvent(projectId: string, eventId: string, event: StoredEvent, expiresAt: number): Promise<void> {
    // The first body kept wins: it is the one the first tries sent, so every resend carries the same bytes.
    await putNew({
      ...keys.keptEvent(projectId, eventId),
      entity: 'webhook_event',
      event_type: event.event_type,
      body: event.body,
      expires_at: expiresAt,
    });
  }

  async getEvent(projectId: string, eventId: string, nowEpoch: number): Promise<StoredEvent | null> {
    const item = await getItem(keys.keptEvent(projectId, eventId), true);
    if (!item || !live(item, nowEpoch) || typeof item.body !== 'string') return null;
    return { event_type: item.event_type as StoredEvent['event_type'], body: item.body };
  }

  /** The log entry of a delivery id, through its pointer (strongly consistent reads). */
  private async entryItem(projectId: string, webhookId: string, deliveryId: string): Promise<Record<string, unknown> | undefined> {
    const pointer = await getItem(keys.deliveryById(projectId, webhookId, deliveryId), true);
    if (!pointer || typeof pointer.created_at !== 'string') return undefined;
    return getItem(keys.delivery(projectId, webhookId, pointer.created_at, deliveryId), true);
  }
}

// Idempotency records (docs/api.md#idempotency): claimed with a conditional put; an in-progress claim expires with the
// invocation that made it, a completed response after 24 h (the TTL attribute, read as expiry too since TTL deletion
// is lazy).
import { sha256Hex } from '../../core/json';
import type { IdempotencyRecord, IdempotencyRepo } from '../../core/ports';
import { keys, stripKeys } from './keys';
import { deleteItem, getItem, putOwned, updateIf } from './table';

export class DynamoIdempotencyRepo implements IdempotencyRepo {
  private key(projectId: string, key: string) {
    return keys.idempotency(projectId, sha256Hex(key));
  }

  async claim(rec: IdempotencyRecord): Promise<IdempotencyRecord | null> {
    const Key = this.key(rec.project_id, rec.key);
    const nowS = Math.floor(Date.parse(rec.created_at) / 1000);
    // A claim whose answer was lost is refused by its own write on the SDK's retry: reading back our claim_id
    // tells that the key is ours, instead of answering 409 to the request that holds it.
    const claimed = await putOwned(
      {
        Item: { ...Key, entity: 'idempotency', ...rec },
        // TTL deletion is lazy: an expired record still present counts as absent.
        ConditionExpression: 'attribute_not_exists(pk) OR expires_at < :now',
        ExpressionAttributeValues: { ':now': nowS },
      },
      (stored) => stored.claim_id === rec.claim_id,
    );
    if (claimed) return null;
    const stored = await getItem(Key, true);
    if (!stored) return this.claim(rec);
    return stripKeys<IdempotencyRecord>({ ...stored, expires_at: undefined });
  }

  async complete(projectId: string, key: string, status: number, body: string, expiresAt: number): Promise<void> {
    await updateIf({
      Key: this.key(projectId, key),
      UpdateExpression: 'SET #s = :done, response_status = :st, response_body = :b, expires_at = :exp',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':done': 'done', ':st': status, ':b': body, ':exp': expiresAt },
      ReturnValues: 'NONE',
    });
  }

  async release(projectId: string, key: string): Promise<void> {
    await deleteItem(this.key(projectId, key));
  }
}

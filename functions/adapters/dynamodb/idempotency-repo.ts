// Idempotency records (SPEC section 2): claimed with a conditional put; an in-progress claim expires with the invocation
// that made it, a completed response after 24 h (the TTL attribute, read as expiry too since TTL deletion is lazy).
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { sha256Hex } from '../../core/json';
import type { IdempotencyRecord, IdempotencyRepo } from '../../ports';
import { keys, stripKeys } from './keys';
import { doc, isConditionalFailure, tableName } from './table';

export class DynamoIdempotencyRepo implements IdempotencyRepo {
  private key(projectId: string, key: string) {
    return keys.idempotency(projectId, sha256Hex(key));
  }

  async claim(rec: IdempotencyRecord): Promise<IdempotencyRecord | null> {
    const Key = this.key(rec.project_id, rec.key);
    const nowS = Math.floor(Date.parse(rec.created_at) / 1000);
    try {
      await doc().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...Key, entity: 'idempotency', ...rec },
          // TTL deletion is lazy: an expired record still present counts as absent.
          ConditionExpression: 'attribute_not_exists(pk) OR expires_at < :now',
          ExpressionAttributeValues: { ':now': nowS },
        }),
      );
      return null;
    } catch (err) {
      if (!isConditionalFailure(err)) throw err;
    }
    const res = await doc().send(new GetCommand({ TableName: tableName(), Key, ConsistentRead: true }));
    if (!res.Item) return this.claim(rec);
    return stripKeys<IdempotencyRecord>({ ...res.Item, expires_at: undefined });
  }

  async complete(projectId: string, key: string, status: number, body: string, expiresAt: number): Promise<void> {
    await doc().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: this.key(projectId, key),
        UpdateExpression: 'SET #s = :done, response_status = :st, response_body = :b, expires_at = :exp',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':done': 'done', ':st': status, ':b': body, ':exp': expiresAt },
      }),
    );
  }

  async release(projectId: string, key: string): Promise<void> {
    await doc().send(new DeleteCommand({ TableName: tableName(), Key: this.key(projectId, key) }));
  }
}

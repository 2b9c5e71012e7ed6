// CI batches (META + one DONE#<run_id> completion marker per finished run, in one partition) and run-packs.
// No transactions (dynalite has none): conditional puts, an atomic ADD and a conditional flip carry exactly-once.
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { BatchAggregate, BatchMarker, CiBatch, RunPack } from '../../core/ci/types';
import type { BatchesRepo } from '../../ports';
import { keys, stripKeys } from './keys';
import { doc, isConditionalFailure, queryAll, tableName } from './table';

export class DynamoBatchesRepo implements BatchesRepo {
  async create(batch: CiBatch): Promise<void> {
    await doc().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.batch(batch.project_id, batch.ci_batch_id), entity: 'ci_batch', ...batch },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async get(projectId: string, batchId: string): Promise<CiBatch | null> {
    const res = await doc().send(new GetCommand({ TableName: tableName(), Key: keys.batch(projectId, batchId), ConsistentRead: true }));
    return res.Item ? stripKeys<CiBatch>(res.Item) : null;
  }

  async putMarker(projectId: string, batchId: string, marker: BatchMarker): Promise<boolean> {
    try {
      await doc().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...keys.batchDone(projectId, batchId, marker.run_id), entity: 'ci_batch_done', ...marker },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (err) {
      if (isConditionalFailure(err)) return false;
      throw err;
    }
  }

  async listMarkers(projectId: string, batchId: string): Promise<BatchMarker[]> {
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': keys.batch(projectId, batchId).pk, ':p': keys.batchDonePrefix },
      ConsistentRead: true,
    });
    return items.map((i) => stripKeys<BatchMarker>(i));
  }

  async bumpDoneHint(projectId: string, batchId: string): Promise<number> {
    const res = await doc().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.batch(projectId, batchId),
        UpdateExpression: 'ADD done_hint :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':one': 1 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(res.Attributes?.done_hint ?? 0);
  }

  async markRunning(projectId: string, batchId: string): Promise<void> {
    try {
      await doc().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.batch(projectId, batchId),
          UpdateExpression: 'SET #status = :running',
          ConditionExpression: '#status = :queued',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':running': 'running', ':queued': 'queued' },
        }),
      );
    } catch (err) {
      if (!isConditionalFailure(err)) throw err;
    }
  }

  async markDone(projectId: string, batchId: string, result: BatchAggregate, completedAt: string): Promise<CiBatch | null> {
    try {
      const res = await doc().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.batch(projectId, batchId),
          UpdateExpression: 'SET #status = :done, decision = :decision, #result = :result, completed_at = :at',
          ConditionExpression: 'attribute_exists(pk) AND #status <> :done',
          ExpressionAttributeNames: { '#status': 'status', '#result': 'result' },
          ExpressionAttributeValues: { ':done': 'done', ':decision': result.decision, ':result': result, ':at': completedAt },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return stripKeys<CiBatch>(res.Attributes as Record<string, unknown>);
    } catch (err) {
      if (isConditionalFailure(err)) return null;
      throw err;
    }
  }

  async markDecisionPublished(projectId: string, batchId: string): Promise<void> {
    await doc().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.batch(projectId, batchId),
        UpdateExpression: 'SET decision_published = :t',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':t': true },
      }),
    );
  }

  async putPack(pack: RunPack): Promise<void> {
    await doc().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.pack(pack.project_id, pack.pack_id), entity: 'run_pack', ...pack },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async getPack(projectId: string, packId: string): Promise<RunPack | null> {
    const res = await doc().send(new GetCommand({ TableName: tableName(), Key: keys.pack(projectId, packId), ConsistentRead: true }));
    return res.Item ? stripKeys<RunPack>(res.Item) : null;
  }
}

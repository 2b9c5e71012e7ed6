// CI batches (META + one DONE#<run_id> completion marker per finished run, in one partition) and run-packs.
// No transactions (dynalite has none): conditional puts, an atomic ADD and a conditional flip carry exactly-once.
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { BatchAggregate, BatchMarker, CiBatch, RunPack } from '../../core/ci/types';
import type { BatchesRepo } from '../../ports';
import { keys, stripKeys } from './keys';
import { doc, isConditionalFailure, putOwned, queryAll, tableName } from './table';

/** The publication claim is bookkeeping of this adapter's conditional writes, not part of the batch record. */
function batchFromItem(item: Record<string, unknown>): CiBatch {
  const { decision_claim: _c, decision_claim_until: _u, ...rest } = stripKeys<CiBatch & { decision_claim?: string; decision_claim_until?: number }>(item);
  return rest;
}

/** The BatchesRepo port over the single table (access patterns 14 and 15 of keys.ts). */
export class DynamoBatchesRepo implements BatchesRepo {
  async create(batch: CiBatch): Promise<void> {
    const stored = await putOwned(
      {
        TableName: tableName(),
        Item: { ...keys.batch(batch.project_id, batch.ci_batch_id), entity: 'ci_batch', ...batch },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
      // A fresh id: the item under it is this call's own write when the put's answer was lost.
      (item) => item.created_at === batch.created_at && item.campaign_id === batch.campaign_id,
    );
    if (!stored) throw new Error(`ci batch ${batch.ci_batch_id} already exists`);
  }

  async get(projectId: string, batchId: string): Promise<CiBatch | null> {
    const res = await doc().send(new GetCommand({ TableName: tableName(), Key: keys.batch(projectId, batchId), ConsistentRead: true }));
    return res.Item ? batchFromItem(res.Item) : null;
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

  async bumpDoneHint(projectId: string, batchId: string): Promise<{ done_hint: number; trace_count: number } | null> {
    try {
      const res = await doc().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.batch(projectId, batchId),
          // `SET trace_count = trace_count` changes nothing; it makes UPDATED_NEW return trace_count with the hint,
          // which saves the caller a read without returning the whole item (run_ids hold up to 1,000 ids).
          UpdateExpression: 'ADD done_hint :one SET trace_count = trace_count',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':one': 1 },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return { done_hint: Number(res.Attributes?.done_hint ?? 0), trace_count: Number(res.Attributes?.trace_count ?? 0) };
    } catch (err) {
      if (isConditionalFailure(err)) return null;
      throw err;
    }
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
      return batchFromItem(res.Attributes as Record<string, unknown>);
    } catch (err) {
      if (isConditionalFailure(err)) return null;
      throw err;
    }
  }

  async claimDecision(projectId: string, batchId: string, claimant: string, nowMs: number, leaseMs: number): Promise<boolean> {
    try {
      await doc().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.batch(projectId, batchId),
          UpdateExpression: 'SET decision_claim = :me, decision_claim_until = :until',
          ConditionExpression:
            '#status = :done AND decision_published = :false AND ' +
            '(attribute_not_exists(decision_claim) OR decision_claim = :me OR decision_claim_until < :now)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':me': claimant, ':until': nowMs + leaseMs, ':now': nowMs, ':done': 'done', ':false': false },
        }),
      );
      return true;
    } catch (err) {
      if (isConditionalFailure(err)) return false;
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
    const stored = await putOwned(
      {
        TableName: tableName(),
        Item: { ...keys.pack(pack.project_id, pack.pack_id), entity: 'run_pack', ...pack },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
      (item) => item.created_at === pack.created_at && item.campaign_id === pack.campaign_id,
    );
    if (!stored) throw new Error(`run-pack ${pack.pack_id} already exists`);
  }

  async getPack(projectId: string, packId: string): Promise<RunPack | null> {
    const res = await doc().send(new GetCommand({ TableName: tableName(), Key: keys.pack(projectId, packId), ConsistentRead: true }));
    return res.Item ? stripKeys<RunPack>(res.Item) : null;
  }
}

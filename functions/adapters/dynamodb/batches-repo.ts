// CI batches (META + one DONE#<run_id> completion marker per finished run, in one partition) and run-packs.
// No transactions (dynalite has none): conditional puts, an atomic ADD and a conditional flip carry exactly-once.
import type { BatchAggregate, BatchMarker, CiBatch, RunPack } from '../../core/ci/types';
import type { BatchesRepo } from '../../ports';
import { keys, stripKeys } from './keys';
import { getItem, putNew, queryAll, updateExisting, updateIf } from './table';

/** The publication claim is bookkeeping of this adapter's conditional writes, not part of the batch record. */
function batchFromItem(item: Record<string, unknown>): CiBatch {
  const {
    decision_claim: _c,
    decision_claim_until: _u,
    ...rest
  } = stripKeys<CiBatch & { decision_claim?: string; decision_claim_until?: number }>(item);
  return rest;
}

/** The BatchesRepo port over the single table (access patterns 14 and 15 of keys.ts). */
export class DynamoBatchesRepo implements BatchesRepo {
  async create(batch: CiBatch): Promise<void> {
    const stored = await putNew(
      { ...keys.batch(batch.project_id, batch.ci_batch_id), entity: 'ci_batch', ...batch },
      // A fresh id: the item under it is this call's own write when the put's answer was lost.
      (item) => item.created_at === batch.created_at && item.campaign_id === batch.campaign_id,
    );
    if (!stored) throw new Error(`ci batch ${batch.ci_batch_id} already exists`);
  }

  async get(projectId: string, batchId: string): Promise<CiBatch | null> {
    const item = await getItem(keys.batch(projectId, batchId), true);
    return item ? batchFromItem(item) : null;
  }

  async putMarker(projectId: string, batchId: string, marker: BatchMarker): Promise<boolean> {
    return putNew({ ...keys.batchDone(projectId, batchId, marker.run_id), entity: 'ci_batch_done', ...marker });
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
    const updated = await updateExisting({
      Key: keys.batch(projectId, batchId),
      // `SET trace_count = trace_count` changes nothing; it makes UPDATED_NEW return trace_count with the hint,
      // which saves the caller a read without returning the whole item (run_ids hold up to 1,000 ids).
      UpdateExpression: 'ADD done_hint :one SET trace_count = trace_count',
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    });
    return updated && { done_hint: Number(updated.done_hint ?? 0), trace_count: Number(updated.trace_count ?? 0) };
  }

  async markRunning(projectId: string, batchId: string): Promise<void> {
    await updateIf({
      Key: keys.batch(projectId, batchId),
      UpdateExpression: 'SET #status = :running',
      ConditionExpression: '#status = :queued',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':running': 'running', ':queued': 'queued' },
      ReturnValues: 'NONE',
    });
  }

  async markDone(projectId: string, batchId: string, result: BatchAggregate, completedAt: string): Promise<CiBatch | null> {
    const updated = await updateExisting({
      Key: keys.batch(projectId, batchId),
      UpdateExpression: 'SET #status = :done, decision = :decision, #result = :result, completed_at = :at',
      ConditionExpression: '#status <> :done',
      ExpressionAttributeNames: { '#status': 'status', '#result': 'result' },
      ExpressionAttributeValues: { ':done': 'done', ':decision': result.decision, ':result': result, ':at': completedAt },
    });
    return updated && batchFromItem(updated);
  }

  async claimDecision(projectId: string, batchId: string, claimant: string, nowMs: number, leaseMs: number): Promise<boolean> {
    const claimed = await updateIf({
      Key: keys.batch(projectId, batchId),
      UpdateExpression: 'SET decision_claim = :me, decision_claim_until = :until',
      ConditionExpression:
        '#status = :done AND decision_published = :false AND ' +
        '(attribute_not_exists(decision_claim) OR decision_claim = :me OR decision_claim_until < :now)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':me': claimant, ':until': nowMs + leaseMs, ':now': nowMs, ':done': 'done', ':false': false },
      ReturnValues: 'NONE',
    });
    return claimed !== null;
  }

  async markDecisionPublished(projectId: string, batchId: string): Promise<void> {
    const updated = await updateExisting({
      Key: keys.batch(projectId, batchId),
      UpdateExpression: 'SET decision_published = :t',
      ExpressionAttributeValues: { ':t': true },
      ReturnValues: 'NONE',
    });
    if (!updated) throw new Error(`ci batch ${batchId} does not exist`);
  }

  async putPack(pack: RunPack): Promise<void> {
    const stored = await putNew(
      { ...keys.pack(pack.project_id, pack.pack_id), entity: 'run_pack', ...pack },
      (item) => item.created_at === pack.created_at && item.campaign_id === pack.campaign_id,
    );
    if (!stored) throw new Error(`run-pack ${pack.pack_id} already exists`);
  }

  async getPack(projectId: string, packId: string): Promise<RunPack | null> {
    const item = await getItem(keys.pack(projectId, packId), true);
    return item ? stripKeys<RunPack>(item) : null;
  }
}

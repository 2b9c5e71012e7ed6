// CI batches (META + one DONE#<run_id> completion marker per finished run, compressed (marker-item.ts), in one partition).
// No transactions (dynalite has none): conditional puts, an atomic ADD and a conditional flip carry exactly-once.
import type { ScenarioComparison, ScenarioComparisonEntry } from '../../core/ci/compare';
import type { BatchAggregate, BatchFilter, BatchListing, BatchMarker, CiBatch } from '../../core/ci/types';
import type { BatchesRepo, PageRequest, StorePage } from '../../core/ports';
import { keys, stripKeys } from './keys';
import { decodeMarker, markerAttributes } from './marker-item';
import {
  batchGet,
  batchWrite,
  getItem,
  packJson,
  putIf,
  putNew,
  putRequest,
  queryAll,
  queryListing,
  queryPage,
  unpackJson,
  updateExisting,
  updateIf,
} from './table';

/** Scenario comparisons per stored item (about 20 KB for 6 cells each, far under DynamoDB's 400 KB). */
const COMPARISON_CHUNK = 100;

/** How many listing pages latestDone reads before giving up (100 entries each). */
const LATEST_DONE_MAX_PAGES = 20;

/** The listing entry of a batch: what GET /v1/ci/batches shows, with the branch on top for filtering. */
function listingOf(batch: CiBatch): BatchListing & { branch?: string } {
  const done = batch.status === 'done' ? batch.result : null;
  return {
    ci_batch_id: batch.ci_batch_id,
    campaign_id: batch.campaign_id,
    campaign_version: batch.campaign_version ?? 1,
    status: batch.status,
    decision: batch.decision,
    pass_rate: done ? done.pass_rate : null,
    trace_count: batch.trace_count,
    metadata: batch.metadata,
    baseline_batch_id: batch.baseline_batch_id ?? null,
    flaky_count: done?.flaky_count ?? null,
    pass_hat_k: done?.pass_hat_k ?? null,
    regressed_count: done?.comparison?.regressed_count ?? null,
    created_at: batch.created_at,
    completed_at: batch.completed_at,
    ...(batch.metadata?.branch !== undefined ? { branch: batch.metadata.branch } : {}),
  };
}

/** The publication claim is bookkeeping of this adapter's conditional writes, not part of the batch record. */
function batchFromItem(item: Record<string, unknown>): CiBatch {
  const {
    decision_claim: _c,
    decision_claim_until: _u,
    ...rest
  } = stripKeys<CiBatch & { decision_claim?: string; decision_claim_until?: number }>(item);
  return rest;
}

const listingKey = (pid: string, cid: string, createdAt: string, bid: string) => {
  const { pk, sk } = keys.batchListing(pid, cid, createdAt, bid);
  return { pk, sk };
};

function listingFromItem(item: Record<string, unknown>): BatchListing {
  const { branch: _b, ...rest } = stripKeys<BatchListing & { branch?: string }>(item);
  // Entries written before campaign versions: their batch ran with version 1.
  return { ...rest, campaign_version: rest.campaign_version ?? 1 };
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
    // The done hint lives in an item of its own, written before any run of the batch exists (see bumpDoneHint).
    await putIf({
      Item: {
        ...keys.batchCounter(batch.project_id, batch.ci_batch_id),
        entity: 'ci_batch_count',
        done_hint: batch.done_hint ?? 0,
        trace_count: batch.trace_count,
      },
    });
    // The listing entry follows (an unconditional put of the same values: a retry rewrites it unchanged).
    await putIf({
      Item: {
        ...keys.batchListing(batch.project_id, batch.campaign_id, batch.created_at, batch.ci_batch_id),
        entity: 'ci_batch_listing',
        ...listingOf(batch),
      },
    });
  }

  async get(projectId: string, batchId: string): Promise<CiBatch | null> {
    const item = await getItem(keys.batch(projectId, batchId), true);
    return item ? batchFromItem(item) : null;
  }

  async putMarker(projectId: string, batchId: string, marker: BatchMarker): Promise<boolean> {
    return putNew({ ...keys.batchDone(projectId, batchId, marker.run_id), entity: 'ci_batch_done', ...markerAttributes(marker) });
  }

  async listMarkers(projectId: string, batchId: string): Promise<BatchMarker[]> {
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': keys.batch(projectId, batchId).pk, ':p': keys.batchDonePrefix },
      ConsistentRead: true,
    });
    return items.map((i) => decodeMarker(i));
  }

  async getMarkers(projectId: string, batchId: string, runIds: readonly string[]): Promise<BatchMarker[]> {
    const items = await batchGet(runIds.map((id) => keys.batchDone(projectId, batchId, id)));
    return items.map((i) => decodeMarker(i));
  }

  /**
   * One more run counted. The hint is a small item of its own: DynamoDB bills an update at the size of the whole item,
   * and META holds the batch's run ids (docs/benchmarks.md#store-calls-per-run).
   * Batches created before the counter item existed keep counting on META.
   */
  async bumpDoneHint(projectId: string, batchId: string): Promise<{ done_hint: number; trace_count: number } | null> {
    const counted = await updateExisting({
      Key: keys.batchCounter(projectId, batchId),
      UpdateExpression: 'ADD done_hint :one',
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'ALL_NEW',
    });
    if (counted) return { done_hint: Number(counted.done_hint ?? 0), trace_count: Number(counted.trace_count ?? 0) };
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
    const flipped = await updateIf({
      Key: keys.batch(projectId, batchId),
      // `SET x = x` returns the listing entry's key parts with UPDATED_NEW, without the whole item.
      UpdateExpression: 'SET #status = :running, campaign_id = campaign_id, created_at = created_at',
      ConditionExpression: '#status = :queued',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':running': 'running', ':queued': 'queued' },
      ReturnValues: 'UPDATED_NEW',
    });
    if (!flipped) return;
    await updateIf({
      Key: listingKey(projectId, String(flipped.campaign_id), String(flipped.created_at), batchId),
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

  async releaseDecision(projectId: string, batchId: string, claimant: string): Promise<void> {
    await updateIf({
      Key: keys.batch(projectId, batchId),
      UpdateExpression: 'REMOVE decision_claim, decision_claim_until',
      ConditionExpression: 'decision_claim = :me AND decision_published = :false',
      ExpressionAttributeValues: { ':me': claimant, ':false': false },
      ReturnValues: 'NONE',
    });
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

  async putComparisons(projectId: string, batchId: string, comparisons: readonly ScenarioComparisonEntry[]): Promise<void> {
    // Chunks of COMPARISON_CHUNK scenarios, stored as JSON text (compact, and free of DynamoDB's map-key rules); a
    // rewrite of the same input puts the same items under the same keys.
    const items = [];
    for (let i = 0; i < comparisons.length; i += COMPARISON_CHUNK) {
      const chunk = comparisons.slice(i, i + COMPARISON_CHUNK);
      items.push(
        putRequest({ ...keys.batchComparison(projectId, batchId, i / COMPARISON_CHUNK), entity: 'ci_batch_comparison', data: packJson(chunk) }),
      );
    }
    await batchWrite(items);
  }

  async listComparisons(projectId: string, batchId: string): Promise<Map<string, ScenarioComparison>> {
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': keys.batch(projectId, batchId).pk, ':p': keys.batchComparisonPrefix },
      ConsistentRead: true,
    });
    const out = new Map<string, ScenarioComparison>();
    for (const item of items) for (const e of unpackJson<ScenarioComparisonEntry[]>(item.data, [])) out.set(e.run_id, e.comparison);
    return out;
  }

  async updateListing(batch: CiBatch): Promise<void> {
    const { ci_batch_id: _id, campaign_id: _c, created_at: _a, branch: _b, ...fields } = listingOf(batch);
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    const sets = Object.entries(fields).map(([k, v], i) => {
      names[`#f${i}`] = k;
      values[`:v${i}`] = v;
      return `#f${i} = :v${i}`;
    });
    await updateExisting({
      Key: listingKey(batch.project_id, batch.campaign_id, batch.created_at, batch.ci_batch_id),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnValues: 'NONE',
    });
  }

  async list(projectId: string, filter: BatchFilter, page: PageRequest): Promise<StorePage<BatchListing>> {
    const byBranch =
      filter.branch !== undefined
        ? { expression: '#branch = :branch', names: { '#branch': 'branch' }, values: { ':branch': filter.branch } }
        : undefined;
    const res = filter.campaign_id
      ? await queryPage({
          KeyConditionExpression: 'pk = :pk',
          ...(byBranch ? { FilterExpression: byBranch.expression, ExpressionAttributeNames: byBranch.names } : {}),
          ExpressionAttributeValues: { ':pk': keys.batchListingPk(projectId, filter.campaign_id), ...(byBranch?.values ?? {}) },
          ScanIndexForward: false,
          Limit: page.limit,
          ExclusiveStartKey: page.after,
        })
      : await queryListing(keys.batchListPk(projectId), page, { branch: filter.branch });
    return { items: res.items.map((element) => listingFromItem(element)), last: res.last };
  }

  async latestDone(projectId: string, campaignId: string, branch: string): Promise<CiBatch | null> {
    let after: Record<string, unknown> | undefined;
    for (let pageNo = 0; pageNo < LATEST_DONE_MAX_PAGES; pageNo += 1) {
      const res = await queryPage({
        KeyConditionExpression: 'pk = :pk',
        FilterExpression: '#branch = :branch',
        ExpressionAttributeNames: { '#branch': 'branch' },
        ExpressionAttributeValues: { ':pk': keys.batchListingPk(projectId, campaignId), ':branch': branch },
        ScanIndexForward: false,
        Limit: 100,
        ExclusiveStartKey: after,
        ConsistentRead: true,
      });
      for (const entry of res.items) {
        // The entry follows the META with a lag (updated after the flip): the META says whether it is done.
        const batch = await this.get(projectId, String(entry.ci_batch_id));
        if (batch?.status === 'done' && batch.result) return batch;
      }
      if (!res.last) return null;
      after = res.last;
    }
    return null;
  }
}

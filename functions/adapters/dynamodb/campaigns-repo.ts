// Campaigns (META, listed through gsi1) and their eval-set pool: one EVAL#<trace_id> item per registered trace.
// META keeps the identity (id, name, creation time) and min_scenarios as attributes, the definition as JSON text (packJson).
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Campaign } from '../../core/campaigns/schema';
import type { CampaignsRepo, EvalSetState, PageRequest, StorePage } from '../../core/ports';
import { keys, stripKeys } from './keys';
import { Lru } from './lru';
import {
  batchWrite,
  deleteRequest,
  doc,
  getItem,
  packJson,
  putNew,
  putRequest,
  queryAll,
  queryListing,
  tableName,
  unpackJson,
  updateExisting,
} from './table';

/** Campaign definitions never change after creation (only min_scenarios does, which the cached view does not serve). */
const definitions = new Lru<Record<string, unknown>>(1000);

export class DynamoCampaignsRepo implements CampaignsRepo {
  async put(projectId: string, c: Campaign): Promise<void> {
    const { eval_set, campaign_id, name, created_at, ...definition } = c;
    const definition_json = packJson(definition);
    const stored = await putNew(
      {
        ...keys.campaign(projectId, campaign_id),
        ...keys.campaignList(projectId, created_at, campaign_id),
        entity: 'campaign',
        campaign_id,
        name,
        created_at,
        definition_json,
        min_scenarios: eval_set.min_scenarios,
      },
      // A fresh id: the item under it is this call's own write when the put's answer was lost.
      (item) => item.created_at === created_at && item.definition_json === definition_json,
    );
    if (!stored) throw new Error(`campaign ${campaign_id} already exists`);
  }

  private async countPool(projectId: string, campaignId: string): Promise<number> {
    let count = 0;
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const res = await doc().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
          ExpressionAttributeValues: { ':pk': keys.campaign(projectId, campaignId).pk, ':p': keys.evalMemberPrefix },
          Select: 'COUNT',
          ExclusiveStartKey,
        }),
      );
      count += res.Count ?? 0;
      ExclusiveStartKey = res.LastEvaluatedKey as Record<string, unknown> | undefined;
    } while (ExclusiveStartKey);
    return count;
  }

  /** Items written before packing hold the definition as attributes of their own. */
  private fromItem(item: Record<string, unknown>, traceCount: number): Campaign {
    const { min_scenarios, definition_json, ...rest } = stripKeys<Campaign & { min_scenarios?: number; definition_json?: string }>(item);
    return { ...rest, ...unpackJson(definition_json, {}), eval_set: { trace_count: traceCount, min_scenarios: Number(min_scenarios ?? 0) } };
  }

  async get(projectId: string, campaignId: string, opts: { poolCount?: boolean } = {}): Promise<Campaign | null> {
    const cacheKey = `${projectId}/${campaignId}`;
    if (opts.poolCount === false) {
      const hit = definitions.get(cacheKey);
      if (hit) return this.fromItem(hit, 0);
    }
    const item = await getItem(keys.campaign(projectId, campaignId));
    if (!item) return null;
    definitions.set(cacheKey, item);
    return this.fromItem(item, opts.poolCount === false ? 0 : await this.countPool(projectId, campaignId));
  }

  async list(projectId: string, page: PageRequest): Promise<StorePage<Campaign>> {
    const res = await queryListing(keys.campaignListPk(projectId), page);
    const items = await Promise.all(res.items.map(async (i) => this.fromItem(i, await this.countPool(projectId, String(i.campaign_id)))));
    return { items, last: res.last };
  }

  async getEvalSet(projectId: string, campaignId: string): Promise<EvalSetState> {
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.campaign(projectId, campaignId).pk },
      ConsistentRead: true,
    });
    const meta = items.find((i) => i.sk === 'META');
    const trace_ids = items
      .filter((i) => String(i.sk).startsWith(keys.evalMemberPrefix))
      .sort(
        (a, b) =>
          String(a.added_at).localeCompare(String(b.added_at)) || Number(a.seq ?? 0) - Number(b.seq ?? 0) || String(a.sk).localeCompare(String(b.sk)),
      )
      .map((i) => String(i.trace_id));
    return { trace_ids, min_scenarios: Number(meta?.min_scenarios ?? 0) };
  }

  async updateEvalSet(projectId: string, campaignId: string, change: { add: string[]; remove: string[]; min_scenarios?: number; at?: string }) {
    const before = await this.getEvalSet(projectId, campaignId);
    const present = new Set(before.trace_ids);
    const added = [...new Set(change.add)].filter((id) => !present.has(id));
    const removed = [...new Set(change.remove)].filter((id) => present.has(id));
    const at = change.at ?? new Date().toISOString();
    await batchWrite([
      // `seq` keeps the request's order among the ids added together (they share added_at): reads list the pool as
      // this call answers it, and CI batches run it in that order.
      ...added.map((id, seq) =>
        putRequest({ ...keys.evalMember(projectId, campaignId, id), entity: 'eval_member', trace_id: id, added_at: at, seq }),
      ),
      ...removed.map((id) => deleteRequest(keys.evalMember(projectId, campaignId, id))),
    ]);
    if (change.min_scenarios !== undefined) {
      const updated = await updateExisting({
        Key: keys.campaign(projectId, campaignId),
        UpdateExpression: 'SET min_scenarios = :m',
        ExpressionAttributeValues: { ':m': change.min_scenarios },
        ReturnValues: 'NONE',
      });
      if (!updated) throw new Error(`campaign ${campaignId} does not exist`);
    }
    const removedSet = new Set(removed);
    const state: EvalSetState = {
      trace_ids: [...before.trace_ids.filter((id) => !removedSet.has(id)), ...added],
      min_scenarios: change.min_scenarios ?? before.min_scenarios,
    };
    return { added, removed, state };
  }
}

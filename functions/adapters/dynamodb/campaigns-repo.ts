// Campaigns (META, listed through gsi1), their past versions (V#<n>) and their eval-set pool (one EVAL#<trace_id> item per
// registered trace). META keeps the identity (id, name, creation time), min_scenarios and the current version with its
// definition as JSON text (packJson); an update archives the version it replaces, then moves META on
// (docs/campaigns-and-replay.md#versions).
import { QueryCommand } from './direct-commands';
import type { Campaign } from '../../core/campaigns/schema';
import type { CampaignChanges, Definition, StoredVersionEntry } from '../../core/campaigns/versions';
import type { CampaignsRepo, EvalSetState, PageRequest, StorePage } from '../../core/ports';
import { keys, stripKeys } from './keys';
import { Lru } from './lru';
import {
  batchWrite,
  deleteRequest,
  doc,
  getItem,
  packJson,
  putIf,
  putNew,
  putRequest,
  queryAll,
  queryListing,
  queryPage,
  tableName,
  unpackJson,
  updateExisting,
  updateIf,
} from './table';

/**
 * Definitions by (project, campaign, version): a version's definition never changes once committed, so any container
 * may keep it; the current version and min_scenarios are always read from META (docs/campaigns-and-replay.md#versions).
 */
const definitions = new Lru<{ created_at: string; definition: Definition }>(1000);

/** The parts of a META or V# item a version is made of; items written before versions read as version 1. */
function versionOf(item: Record<string, unknown>) {
  const { min_scenarios: _m, definition_json, version, version_created_at, changes_json, ...rest } = stripKeys<Record<string, unknown>>(item);
  const legacy = { ...rest } as Record<string, unknown>;
  for (const k of ['entity', 'campaign_id', 'name', 'created_at']) delete legacy[k];
  const definition = { ...unpackJson<Record<string, unknown>>(definition_json, legacy), name: String(item.name) } as Definition;
  return {
    version: Number(version ?? 1),
    name: String(item.name),
    definition,
    created_at: String(version_created_at ?? item.created_at),
    // Absent for version 1 (the core compares it with nothing) and on items written before versions.
    changes: unpackJson<CampaignChanges | null>(changes_json, null),
  };
}

export class DynamoCampaignsRepo implements CampaignsRepo {
  async put(projectId: string, c: Campaign): Promise<void> {
    const { eval_set, campaign_id, name, created_at, version, ...rest } = c;
    const definition_json = packJson(rest);
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
        version,
        version_created_at: created_at,
      },
      // A fresh id: the item under it is this call's own write when the put's answer was lost.
      (item) => item.created_at === created_at && item.definition_json === definition_json,
    );
    if (!stored) throw new Error(`campaign ${campaign_id} already exists`);
  }

  /**
   * Two writes, no transaction: first the archive V#<old> of the version being replaced, copied from META as read
   * (attribute_not_exists; an archive already there was copied from the same committed META, so it is the same and
   * kept), then META moves to the new version on the condition that it is still at the old one. A crash between the
   * two leaves META unchanged and an archive of its current version written early, which reads ignore (the current
   * version is always META's) and the next update finds in place.
   */
  async update(projectId: string, previous: Campaign, next: Campaign, entry: { created_at: string; changes: CampaignChanges }): Promise<boolean> {
    const key = keys.campaign(projectId, previous.campaign_id);
    const meta = await getItem(key, true);
    if (!meta || Number(meta.version ?? 1) !== previous.version) return false;
    const old = versionOf(meta);
    const { name: _n, ...oldRest } = old.definition;
    await putIf({
      Item: {
        ...keys.campaignVersion(projectId, previous.campaign_id, old.version),
        entity: 'campaign_version',
        campaign_id: previous.campaign_id,
        version: old.version,
        name: old.name,
        version_created_at: old.created_at,
        definition_json: packJson(oldRest),
        changes_json: packJson(old.changes),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    });
    const { eval_set: _e, campaign_id: _c, name, created_at: _a, version, ...rest } = next;
    const moved = await updateIf({
      Key: key,
      UpdateExpression: 'SET #name = :name, definition_json = :d, version = :v, version_created_at = :at, changes_json = :ch',
      ConditionExpression: previous.version === 1 ? '(attribute_not_exists(version) OR version = :old)' : 'version = :old',
      ExpressionAttributeNames: { '#name': 'name' },
      ExpressionAttributeValues: {
        ':name': name,
        ':d': packJson(rest),
        ':v': version,
        ':at': entry.created_at,
        ':ch': packJson(entry.changes),
        ':old': previous.version,
      },
      ReturnValues: 'NONE',
    });
    return moved !== null;
  }

  async listVersions(projectId: string, campaignId: string, page: PageRequest): Promise<StorePage<StoredVersionEntry>> {
    const entry = (v: ReturnType<typeof versionOf>): StoredVersionEntry => ({
      version: v.version,
      created_at: v.created_at,
      name: v.name,
      changes: v.changes,
    });
    const items: StoredVersionEntry[] = [];
    let after = page.after;
    let limit = page.limit;
    if (!after) {
      const meta = await getItem(keys.campaign(projectId, campaignId), true);
      if (!meta) return { items: [] };
      const current = versionOf(meta);
      items.push(entry(current));
      // Past versions start strictly below the current one: an archive of the current version written early is skipped.
      after = keys.campaignVersion(projectId, campaignId, current.version);
      limit -= 1;
      if (current.version === 1) return { items };
      if (limit === 0) return { items, last: after };
    }
    const res = await queryPage({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :v)',
      ExpressionAttributeValues: { ':pk': keys.campaign(projectId, campaignId).pk, ':v': keys.campaignVersionPrefix },
      ScanIndexForward: false,
      Limit: limit,
      ExclusiveStartKey: after,
    });
    items.push(...res.items.map((i) => entry(versionOf(i))));
    const lastVersion = items.at(-1)?.version;
    return { items, last: lastVersion === 1 ? undefined : res.last };
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

  private campaignOf(meta: Record<string, unknown>, v: { version: number; definition: Definition }, eval_set: Campaign['eval_set']): Campaign {
    return {
      ...v.definition,
      campaign_id: String(meta.campaign_id),
      created_at: String(meta.created_at),
      version: v.version,
      eval_set,
    } as Campaign;
  }

  /** META as a campaign (items written before packing hold the definition as attributes of their own). */
  private fromItem(item: Record<string, unknown>, traceCount: number): Campaign {
    return this.campaignOf(item, versionOf(item), { trace_count: traceCount, min_scenarios: Number(item.min_scenarios ?? 0) });
  }

  async get(
    projectId: string,
    campaignId: string,
    opts: { poolCount?: boolean; version?: number; consistent?: boolean } = {},
  ): Promise<Campaign | null> {
    const { version } = opts;
    const cacheKey = `${projectId}/${campaignId}/${version}`;
    if (version !== undefined && opts.poolCount === false) {
      // The executor's read of a run's version: the definition alone (eval_set is not read: {0, 0}).
      const hit = definitions.get(cacheKey);
      if (hit)
        return this.campaignOf(
          { campaign_id: campaignId, created_at: hit.created_at },
          { version, definition: hit.definition },
          { trace_count: 0, min_scenarios: 0 },
        );
    }
    const meta = await getItem(keys.campaign(projectId, campaignId), opts.consistent === true);
    if (!meta) return null;
    const current = versionOf(meta);
    let v: { version: number; definition: Definition } = current;
    if (version !== undefined && version !== current.version) {
      if (version > current.version) return null;
      const archived = await getItem(keys.campaignVersion(projectId, campaignId, version));
      if (!archived) return null;
      v = versionOf(archived);
    }
    if (version !== undefined) definitions.set(cacheKey, { created_at: String(meta.created_at), definition: v.definition });
    const poolCount = opts.poolCount === false ? 0 : await this.countPool(projectId, campaignId);
    return this.campaignOf(meta, v, { trace_count: poolCount, min_scenarios: Number(meta.min_scenarios ?? 0) });
  }

  async list(projectId: string, page: PageRequest): Promise<StorePage<Campaign>> {
    const res = await queryListing(keys.campaignListPk(projectId), page);
    const items = await Promise.all(res.items.map(async (i) => this.fromItem(i, await this.countPool(projectId, String(i.campaign_id)))));
    return { items, last: res.last };
  }

  async getEvalSet(projectId: string, campaignId: string): Promise<EvalSetState> {
    const items = await queryAll({
      // META and the EVAL# members sort before the V# versions, which this read has no use for.
      KeyConditionExpression: 'pk = :pk AND sk < :v',
      ExpressionAttributeValues: { ':pk': keys.campaign(projectId, campaignId).pk, ':v': keys.campaignVersionPrefix },
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

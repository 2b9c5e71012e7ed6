// PUT /v1/campaigns/{id}: a new version of the definition, or nothing when it is the same; optimistic concurrency with
// If-Match; campaign.updated once per version (docs/campaigns-and-replay.md#versions).
import type { Deps, PageRequest, StorePage } from '../ports';
import { NotFoundError, PreconditionFailedError } from '../errors';
import { projectEvent } from '../publish';
import { isoMicros } from '../time';
import { expandAttackSuite } from './attack-suite';
import { assertPatternsCompile } from './patterns';
import { redactCampaign } from './redact';
import type { Campaign, CampaignInput } from './schema';
import { loadCampaign } from './service';
import {
  definitionOf,
  keepMaskedSecrets,
  sameDefinition,
  versionChanges,
  type CampaignVersionEntry,
  type Definition,
  type StoredVersionEntry,
} from './versions';

/** The bus id of a version's campaign.updated: the same on every try, so a retried update is delivered once. */
export function campaignUpdatedEventId(campaignId: string, version: number): string {
  return `campaign.updated:${campaignId}:${version}`;
}

/**
 * Replaces the definition. `ifMatch` (a version, or '*') must name the current version, else 412. A definition equal to
 * the current one (secrets kept from the mask included) changes nothing and answers the campaign as it is. Another
 * update committed between our read and our write: 412 with If-Match, else the update is applied on the newer version.
 */
export async function updateCampaign(
  deps: Deps,
  projectId: string,
  campaignId: string,
  input: CampaignInput,
  ifMatch?: number | '*',
): Promise<Campaign> {
  assertPatternsCompile(input);
  const sent = expandAttackSuite(input) as Definition;
  for (let tries = 0; ; tries++) {
    // Read strongly: an If-Match naming the version a GET just answered must not meet an older replica.
    const current = await deps.campaigns.get(projectId, campaignId, { consistent: true });
    if (!current) throw new NotFoundError('Campaign');
    if (typeof ifMatch === 'number' && ifMatch !== current.version) {
      throw new PreconditionFailedError(`The campaign is at version ${current.version}, not ${ifMatch}: read it again and reapply the change.`);
    }
    const before = definitionOf(current);
    const definition = keepMaskedSecrets(sent, before);
    if (sameDefinition(definition, before)) return redactCampaign(current);
    const next: Campaign = {
      ...definition,
      campaign_id: current.campaign_id,
      created_at: current.created_at,
      version: current.version + 1,
      eval_set: current.eval_set,
    };
    const entry = { created_at: isoMicros(deps.clock.now()), changes: versionChanges(before, definition) };
    const stored = await deps.campaigns.update(projectId, current, next, entry);
    if (stored) {
      await publishUpdated(deps, projectId, next);
      return redactCampaign(next);
    }
    if (typeof ifMatch === 'number' || tries >= 4) {
      throw new PreconditionFailedError('Another update of this campaign was committed first: read it again and reapply the change.');
    }
  }
}

async function publishUpdated(deps: Deps, projectId: string, c: Campaign): Promise<void> {
  const data = { campaign_id: c.campaign_id, version: c.version };
  await deps.events.publish([projectEvent(deps, projectId, 'campaign.updated', data, campaignUpdatedEventId(c.campaign_id, c.version))]);
}

/** The campaign's versions, newest first (404 for an unknown campaign). */
export async function listCampaignVersions(
  deps: Deps,
  projectId: string,
  campaignId: string,
  page: PageRequest,
): Promise<StorePage<CampaignVersionEntry>> {
  await loadCampaign(deps, projectId, campaignId);
  const res = await deps.campaigns.listVersions(projectId, campaignId, page);
  const items = await Promise.all(
    res.items.map(async (v) => ({
      ...v,
      changes: v.changes ?? versionChanges(null, definitionOf(await versionOne(deps, projectId, campaignId, v))),
    })),
  );
  return { items, last: res.last };
}

async function versionOne(deps: Deps, projectId: string, campaignId: string, v: StoredVersionEntry): Promise<Campaign> {
  const c = await deps.campaigns.get(projectId, campaignId, { poolCount: false, version: v.version });
  if (!c) throw new Error(`version ${v.version} of campaign ${campaignId} is listed but cannot be read`);
  return c;
}

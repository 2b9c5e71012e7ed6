// Campaign creation, reads (secrets redacted) and the eval-set pool (docs/campaigns-and-replay.md#campaigns).
import type { Deps, PageRequest } from '../ports';
import { NotFoundError, ValidationError } from '../errors';
import { projectEvent } from '../publish';
import { isoMicros } from '../time';
import { assertTracesExist } from '../traces/service';
import { expandAttackSuite } from './attack-suite';
import { assertPatternsCompile } from './patterns';
import { redactCampaign } from './redact';
import { EVAL_SET_MAX } from '../limits';
import type { Campaign, CampaignInput } from './schema';
import type { EvalSetPatch } from './eval-set-schema';

export async function createCampaign(deps: Deps, projectId: string, input: CampaignInput): Promise<Campaign> {
  assertPatternsCompile(input);
  const campaign: Campaign = {
    campaign_id: deps.uuid(),
    ...expandAttackSuite(input),
    created_at: isoMicros(deps.clock.now()),
    version: 1,
    eval_set: { trace_count: 0, min_scenarios: 0 },
  };
  await deps.campaigns.put(projectId, campaign);
  await deps.events.publish([
    projectEvent(deps, projectId, 'campaign.created', { campaign_id: campaign.campaign_id, name: campaign.name, target_type: campaign.target.type }),
  ]);
  return redactCampaign(campaign);
}

/** The stored campaign (secrets included) for internal use; 404 when unknown in this project. */
export async function loadCampaign(deps: Deps, projectId: string, campaignId: string): Promise<Campaign> {
  const c = await deps.campaigns.get(projectId, campaignId);
  if (!c) throw new NotFoundError('Campaign');
  return c;
}

/** The campaign as shown, or one of its versions with `version` (404 for a version that never existed). */
export async function getCampaign(deps: Deps, projectId: string, campaignId: string, version?: number): Promise<Campaign> {
  if (version === undefined) return redactCampaign(await loadCampaign(deps, projectId, campaignId));
  const c = await deps.campaigns.get(projectId, campaignId, { version });
  if (!c) throw new NotFoundError(`Version ${version} of the campaign`);
  return redactCampaign(c);
}

export async function listCampaigns(deps: Deps, projectId: string, page: PageRequest) {
  const res = await deps.campaigns.list(projectId, page);
  return { items: res.items.map((element) => redactCampaign(element)), last: res.last };
}

export interface EvalSetView {
  campaign_id: string;
  trace_ids: string[];
  trace_count: number;
  min_scenarios: number;
  added?: string[];
  removed?: string[];
}

export async function getEvalSet(deps: Deps, projectId: string, campaignId: string): Promise<EvalSetView> {
  await loadCampaign(deps, projectId, campaignId);
  const state = await deps.campaigns.getEvalSet(projectId, campaignId);
  return { campaign_id: campaignId, trace_ids: state.trace_ids, trace_count: state.trace_ids.length, min_scenarios: state.min_scenarios };
}

/** Incremental, idempotent pool update: adding a present id or removing an absent one is not an error. */
export async function patchEvalSet(deps: Deps, projectId: string, campaignId: string, patch: EvalSetPatch): Promise<EvalSetView> {
  await loadCampaign(deps, projectId, campaignId);
  const add = patch.add_trace_ids ?? [];
  await assertTracesExist(deps, projectId, add);
  const current = await deps.campaigns.getEvalSet(projectId, campaignId);
  const present = new Set(current.trace_ids);
  const removing = new Set(patch.remove_trace_ids ?? []);
  const after = current.trace_ids.filter((id) => !removing.has(id)).length + new Set(add.filter((id) => !present.has(id))).size;
  if (after > EVAL_SET_MAX) {
    throw new ValidationError(`An eval-set holds at most ${EVAL_SET_MAX} traces; this change would make it ${after}.`, [
      { path: 'add_trace_ids', message: `pool limit is ${EVAL_SET_MAX}` },
    ]);
  }
  const { added, removed, state } = await deps.campaigns.updateEvalSet(projectId, campaignId, {
    add,
    remove: patch.remove_trace_ids ?? [],
    min_scenarios: patch.min_scenarios,
  });
  return {
    campaign_id: campaignId,
    trace_ids: state.trace_ids,
    trace_count: state.trace_ids.length,
    min_scenarios: state.min_scenarios,
    added,
    removed,
  };
}

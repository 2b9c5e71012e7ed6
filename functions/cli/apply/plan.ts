// What `rts apply` has to do, read from the service without changing it: each campaign of the file to create, update or
// leave alone (compared as the API stores it: defaults applied, attack_suite expanded, secrets masked), and the changes
// of its eval-set.
import type { Campaign, RtsClient } from '../../../packages/sdk/src/index';
import { expandAttackSuite } from '../../core/campaigns/attack-suite';
import { redactCampaign } from '../../core/campaigns/redact';
import type { Campaign as StoredCampaign } from '../../core/campaigns/schema';
import { definitionOf, sameDefinition, versionChanges, type CampaignChanges, type Definition } from '../../core/campaigns/versions';
import { canonicalJson } from '../../core/json';
import { campaignsByName, ResolveError } from '../resolve';
import type { DesiredCampaign, LoadedFile } from './load';
import type { ResolvedTraces } from './traces';

/** The eval-set changes of one campaign; absent when the file gives no `eval_set` (the pool is left as it is). */
export interface EvalSetChange {
  add: string[];
  remove: string[];
  /** The trace count the pool will hold. */
  count: number;
  /** [before, after] when min_scenarios changes (before undefined for a new campaign). */
  minScenarios?: [number | undefined, number];
}

export interface CampaignPlan {
  desired: DesiredCampaign;
  /**
   * `check`: the only possible difference is in write-only secrets, which a read cannot show: the definition is sent
   * and the service keeps the version when nothing changed.
   */
  action: 'create' | 'update' | 'check' | 'unchanged';
  current?: Campaign;
  /** What an update changes (against the current version), or what a new campaign holds. */
  changes?: CampaignChanges;
  evalSet?: EvalSetChange;
}

/** A definition as the service shows it: write-only values replaced by `***`, credentials in URLs masked. */
export function shownDefinition(definition: Definition): Definition {
  const stored = { ...definition, campaign_id: '', created_at: '', version: 0, eval_set: { trace_count: 0, min_scenarios: 0 } } as StoredCampaign;
  return definitionOf(redactCampaign(stored));
}

/** The plan of every campaign of the file, in file order. Throws ResolveError when a name is shared in the project. */
export async function planCampaigns(client: RtsClient, loaded: LoadedFile, traces: ResolvedTraces): Promise<CampaignPlan[]> {
  const existing = await campaignsByName(client);
  const plans: CampaignPlan[] = [];
  for (const desired of loaded.campaigns) {
    const matches = existing.get(desired.name) ?? [];
    if (matches.length > 1) {
      throw new ResolveError(
        `${matches.length} campaigns of the project are named '${desired.name}' (${matches.map((c) => c.campaign_id).join(', ')}): rename all but one`,
      );
    }
    const wanted = expandAttackSuite(desired.normalized) as Definition;
    const ids = traces.evalSets.get(desired.index);
    const current = matches[0];
    if (!current) {
      plans.push({ desired, action: 'create', changes: versionChanges(null, shownDefinition(wanted)), evalSet: ids && evalSetChange(desired, ids) });
      continue;
    }
    const shown = shownDefinition(wanted);
    const before = definitionOf(current as unknown as StoredCampaign);
    const secretsOnly = canonicalJson(shown) !== canonicalJson(wanted);
    const action = !sameDefinition(shown, before) ? 'update' : secretsOnly ? 'check' : 'unchanged';
    const plan: CampaignPlan = { desired, action, current, changes: action === 'update' ? versionChanges(before, shown) : undefined };
    if (ids) {
      const pool = await client.getEvalSet(current.campaign_id);
      plan.evalSet = evalSetChange(desired, ids, pool.trace_ids, pool.min_scenarios);
    }
    plans.push(plan);
  }
  return plans;
}

function evalSetChange(desired: DesiredCampaign, ids: string[], current: string[] = [], minBefore?: number): EvalSetChange {
  const have = new Set(current);
  const want = new Set(ids);
  const change: EvalSetChange = { add: ids.filter((id) => !have.has(id)), remove: current.filter((id) => !want.has(id)), count: want.size };
  const min = desired.evalSet?.min_scenarios;
  if (min !== undefined && min !== minBefore) change.minScenarios = [minBefore, min];
  return change;
}

/** Whether an eval-set change changes anything. */
export const evalSetChanges = (e: EvalSetChange | undefined): boolean => Boolean(e && (e.add.length || e.remove.length || e.minScenarios));

/** The traces no campaign's current eval-set holds: those that may be new to the project (a dry run looks them up). */
export function tracesToLookUp(plans: CampaignPlan[], traces: ResolvedTraces): string[] {
  const known = new Set<string>();
  for (const p of plans) {
    if (!p.evalSet || !p.current) continue;
    const added = new Set(p.evalSet.add);
    for (const id of traces.evalSets.get(p.desired.index) ?? []) if (!added.has(id)) known.add(id);
  }
  return traces.traces.map((t) => t.trace_id).filter((id) => !known.has(id));
}

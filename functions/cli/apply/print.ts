// How `rts apply` prints its plan: one line per trace uploaded and per campaign (`+` created, `~` updated, `=` left
// alone), the eval-set changes under their campaign, and a closing summary. Ids and names only: never a value.
import type { CampaignChanges } from '../../core/campaigns/versions';
import { oneLine } from '../output';
import type { CampaignPlan, EvalSetChange } from './plan';
import type { TraceToApply } from './traces';

/** What an apply did (or a dry run would do). */
export interface Tally {
  /** Traces uploaded (new to the project), out of `traces`. */
  uploaded: number;
  traces: number;
  created: number;
  updated: number;
  unchanged: number;
  /** Eval-sets changed. */
  evalSets: number;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function traceLine(t: TraceToApply, dryRun: boolean): string {
  return `  + trace ${t.trace_id} ${oneLine(t.name || '(unnamed)')} (${oneLine(t.source)})${dryRun ? ': upload' : ': uploaded'}\n`;
}

/** `mutations +a ~b -c; policies +d; criteria +1 -1; fields max_steps, target`. */
export function describeChanges(c: CampaignChanges): string {
  const parts: string[] = [];
  for (const kind of ['mutations', 'policies'] as const) {
    const { added, changed, removed } = c[kind];
    const ids = [...added.map((id) => `+${id}`), ...changed.map((id) => `~${id}`), ...removed.map((id) => `-${id}`)];
    if (ids.length) parts.push(`${kind} ${ids.map((id) => oneLine(id)).join(' ')}`);
  }
  const { added, removed } = c.criteria;
  if (added.length || removed.length) parts.push(`criteria${added.length ? ` +${added.length}` : ''}${removed.length ? ` -${removed.length}` : ''}`);
  if (c.fields.length) parts.push(`fields ${c.fields.join(', ')}`);
  return parts.join('; ');
}

export function campaignLine(
  plan: CampaignPlan,
  outcome: 'created' | 'updated' | 'unchanged',
  at: { dryRun: boolean; campaignId?: string; version?: number },
): string {
  const name = `campaign "${oneLine(plan.desired.name)}"`;
  const d = plan.desired.normalized;
  if (outcome === 'created') {
    const holds = `${plural(d.mutations.length, 'mutation')}, ${plural(d.policies.length, 'policy', 'policies')}, ${plural(d.criteria.length, 'criterion', 'criteria')}`;
    return at.dryRun ? `  + ${name}: create (${holds})\n` : `  + ${name}: created ${at.campaignId}, version ${at.version} (${holds})\n`;
  }
  if (outcome === 'updated') {
    const what = plan.changes ? describeChanges(plan.changes) : 'write-only secrets';
    return at.dryRun
      ? `  ~ ${name}: update ${at.campaignId} from version ${at.version} (${what})\n`
      : `  ~ ${name}: updated ${at.campaignId} to version ${at.version} (${what})\n`;
  }
  const secrets = at.dryRun && plan.action === 'check' ? '; its write-only secrets are sent, the version stays if they are the same' : '';
  return `  = ${name}: unchanged, version ${at.version}${secrets}\n`;
}

export function evalSetLine(e: EvalSetChange, dryRun: boolean): string {
  const parts: string[] = [];
  if (e.add.length) parts.push(`+${plural(e.add.length, 'trace')}`);
  if (e.remove.length) parts.push(`-${plural(e.remove.length, 'trace')}`);
  if (e.minScenarios) parts.push(`min_scenarios ${e.minScenarios[0] === undefined ? '' : `${e.minScenarios[0]} -> `}${e.minScenarios[1]}`);
  return `      eval-set${dryRun ? ' (to change)' : ''}: ${parts.join(', ')}; ${plural(e.count, 'trace')} in the pool\n`;
}

export function summaryLine(file: string, t: Tally, dryRun: boolean): string {
  const changed = t.uploaded + t.created + t.updated + t.evalSets;
  const campaigns = t.created + t.updated + t.unchanged;
  if (!changed) {
    return `No changes: ${plural(campaigns, 'campaign')} and ${plural(t.traces, 'trace')} are as ${file} says${dryRun ? ' (dry run)' : ''}.\n`;
  }
  const counts = [
    `${plural(t.uploaded, 'trace')} ${dryRun ? 'to upload' : 'uploaded'}`,
    `campaigns: ${t.created} ${dryRun ? 'to create' : 'created'}, ${t.updated} ${dryRun ? 'to update' : 'updated'}, ${t.unchanged} unchanged`,
    `${plural(t.evalSets, 'eval-set')} ${dryRun ? 'to change' : 'changed'}`,
  ].join('; ');
  return dryRun ? `Dry run: ${counts}. Nothing was changed.\n` : `Applied: ${counts}.\n`;
}

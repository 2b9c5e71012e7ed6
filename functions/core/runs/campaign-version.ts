// Which campaign version a run runs with, and reading that version's definition (docs/campaigns-and-replay.md#versions).
import type { Deps } from '../ports';
import type { Run } from './types';

/** The campaign version a run or batch runs with: those created before versions ran with version 1. */
export function campaignVersionOf(record: { campaign_version?: number }): number {
  return record.campaign_version ?? 1;
}

/**
 * The definition a run runs with: its campaign at the run's version, never the current one, so a run queued before an
 * update, retried or resumed, runs as it was queued (null when the campaign is gone).
 */
export function campaignOfRun(deps: Pick<Deps, 'campaigns'>, run: Pick<Run, 'project_id' | 'campaign_id' | 'campaign_version'>) {
  return deps.campaigns.get(run.project_id, run.campaign_id, { poolCount: false, version: campaignVersionOf(run) });
}

// Run-packs (POST /v1/campaigns/{id}/run-pack): one run per trace of a list or of the eval-set pool, queued together.
import type { Deps } from '../ports';
import { loadCampaign } from '../campaigns/service';
import { ValidationError } from '../errors';
import { projectEvent } from '../publish';
import { isoMicros } from '../time';
import { assertTracesExist } from '../traces/service';
import type { RunPackRequest } from './schema';
import { createAndQueueRuns, newRunsFor } from './service';
import type { RunPack } from './types';

/** The 202 body of a run-pack, and the data of its run.pack_queued event. */
export interface PackQueued {
  pack_id: string;
  campaign_id: string;
  run_ids: string[];
  trace_count: number;
}

/**
 * Stores the PACK item, creates and queues one run per trace (source "pack"; duplicates in `trace_ids` collapse to
 * one run), then emits run.pack_queued once. `trace_ids` defaults to the eval-set pool; 422 when both are empty,
 * 422 unknown_trace for ids that are not traces of the project.
 */
export async function createRunPack(deps: Deps, projectId: string, campaignId: string, body: RunPackRequest): Promise<PackQueued> {
  const campaign = await loadCampaign(deps, projectId, campaignId);
  const traceIds = [...new Set(body.trace_ids ?? (await deps.campaigns.getEvalSet(projectId, campaignId)).trace_ids)];
  if (traceIds.length === 0) {
    throw new ValidationError('Nothing to run: send trace_ids, or register traces in the campaign eval-set.', [
      { path: 'trace_ids', message: 'required when the campaign eval-set is empty' },
    ]);
  }
  if (body.trace_ids) await assertTracesExist(deps, projectId, traceIds);
  const packId = deps.uuid();
  const createdAt = isoMicros(deps.clock.now());
  const runs = newRunsFor(
    deps,
    projectId,
    traceIds,
    { campaign_id: campaignId, campaign_version: campaign.version, source: 'pack', pack_id: packId },
    createdAt,
  );
  const pack: RunPack = {
    pack_id: packId,
    project_id: projectId,
    campaign_id: campaignId,
    run_ids: runs.map((r) => r.run_id),
    trace_ids: traceIds,
    trace_count: runs.length,
    created_at: createdAt,
  };
  await deps.runs.putPack(pack);
  await createAndQueueRuns(deps, projectId, runs);
  const queued: PackQueued = { pack_id: packId, campaign_id: campaignId, run_ids: pack.run_ids, trace_count: pack.trace_count };
  await deps.events.publish([projectEvent(deps, projectId, 'run.pack_queued', { ...queued })]);
  return queued;
}

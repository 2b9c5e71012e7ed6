// Run creation and queueing (replay, CI and pack runs all go through createAndQueueRuns), reads and listings.
import type { Deps, PageRequest, RunFilter } from '../ports';
import { NotFoundError } from '../errors';
import type { BusEvent } from '../events';
import { projectEvent } from '../publish';
import { isoMicros } from '../time';
import { campaignVersionOf } from './campaign-version';
import { EMPTY_SUMMARY, type CiInfo, type Run, type RunSource } from './types';

export interface NewRunSpec {
  trace_id: string;
  campaign_id: string;
  campaign_version: number;
  source: RunSource;
  ci_batch_id?: string | null;
  pack_id?: string | null;
  ci?: CiInfo | null;
  run_id?: string;
}

export function newRun(deps: Pick<Deps, 'uuid' | 'clock'>, projectId: string, spec: NewRunSpec): Run {
  return {
    run_id: spec.run_id ?? deps.uuid(),
    project_id: projectId,
    trace_id: spec.trace_id,
    campaign_id: spec.campaign_id,
    campaign_version: spec.campaign_version,
    source: spec.source,
    status: 'queued',
    created_at: isoMicros(deps.clock.now()),
    started_at: null,
    completed_at: null,
    summary: { ...EMPTY_SUMMARY },
    error: null,
    ci_batch_id: spec.ci_batch_id ?? null,
    pack_id: spec.pack_id ?? null,
    ci: spec.ci ?? null,
    attempt_total: null,
  };
}

/** One run per trace, all with the same creation time (a batch or a pack is created at one instant). */
export function newRunsFor(
  deps: Pick<Deps, 'uuid' | 'clock'>,
  projectId: string,
  traceIds: string[],
  spec: Omit<NewRunSpec, 'trace_id' | 'run_id'>,
  createdAt: string,
): Run[] {
  return traceIds.map((trace_id) => ({ ...newRun(deps, projectId, { ...spec, trace_id }), created_at: createdAt }));
}

/**
 * Stores runs, then queues them: run.created for each (before queueing), the queue messages (batched),
 * then run.queued for each, plus run.replay_queued for runs created by POST /v1/runs.
 */
export async function createAndQueueRuns(deps: Deps, projectId: string, runs: Run[]): Promise<void> {
  if (runs.length === 1) await deps.runs.create(runs[0]);
  else await deps.runs.createMany(runs);
  const ids = (r: Run) => ({ run_id: r.run_id, trace_id: r.trace_id, campaign_id: r.campaign_id });
  await deps.events.publish(runs.map((r) => projectEvent(deps, projectId, 'run.created', { ...ids(r), source: r.source })));
  await deps.queue.sendReplay(
    runs.map((r) => ({
      project_id: projectId,
      run_id: r.run_id,
      replays: { trace_id: r.trace_id, campaign_id: r.campaign_id, campaign_version: campaignVersionOf(r) },
    })),
  );
  const queued: BusEvent[] = [];
  for (const r of runs) {
    queued.push(projectEvent(deps, projectId, 'run.queued', ids(r)));
    if (r.source === 'replay') queued.push(projectEvent(deps, projectId, 'run.replay_queued', ids(r)));
  }
  await deps.events.publish(queued);
}

export async function createReplayRun(deps: Deps, projectId: string, body: { trace_id: string; campaign_id: string }) {
  const trace = await deps.traces.getSummary(projectId, body.trace_id);
  if (!trace) throw new NotFoundError('Trace');
  const campaign = await deps.campaigns.get(projectId, body.campaign_id, { poolCount: false });
  if (!campaign) throw new NotFoundError('Campaign');
  const run = newRun(deps, projectId, { ...body, campaign_version: campaign.version, source: 'replay' });
  await createAndQueueRuns(deps, projectId, [run]);
  return { run_id: run.run_id, status: run.status, trace_id: run.trace_id, campaign_id: run.campaign_id, created_at: run.created_at };
}

export async function loadRun(deps: Deps, projectId: string, runId: string): Promise<Run> {
  const run = await deps.runs.get(projectId, runId);
  if (!run) throw new NotFoundError('Run');
  return run;
}

/** The public list item / base view of a run (internal bookkeeping fields removed). */
export function runView(run: Run) {
  return {
    run_id: run.run_id,
    trace_id: run.trace_id,
    trace_name: run.trace_name ?? null,
    campaign_id: run.campaign_id,
    campaign_version: campaignVersionOf(run),
    source: run.source,
    status: run.status,
    created_at: run.created_at,
    started_at: run.started_at,
    completed_at: run.completed_at,
    summary: run.summary,
    error: run.error,
    ci_batch_id: run.ci_batch_id,
    pack_id: run.pack_id,
  };
}

export async function listRuns(deps: Deps, projectId: string, filter: RunFilter, page: PageRequest) {
  const res = await deps.runs.list(projectId, filter, page);
  return { items: res.items.map((element) => runView(element)), last: res.last };
}

// CI submissions (a batch over the eval-set pool, or a single CI run) and the two CI read views (SPEC section 8).
import type { Deps } from '../../ports';
import { loadCampaign } from '../campaigns/service';
import { NotFoundError, ValidationError } from '../errors';
import { createAndQueueRuns, newRun, newRunsFor } from '../runs/service';
import type { CiInfo, Run } from '../runs/types';
import { isoMicros } from '../time';
import { batchDashboardUrl, runDashboardUrl } from './aggregate';
import { aggregateBatch, decideRun } from './decision';
import type { CiRunRequest } from './schema';
import type { BatchStatus, CiBatch, CiRunState } from './types';

/** 202 body of a batch submission. */
export interface BatchSubmitted {
  run_id: string;
  run_ids: string[];
  trace_count: number;
  ci_batch_id: string;
  status: 'queued';
  dashboard_url: string;
}

/** 202 body of a single CI run submission (campaign without an eval-set). */
export interface SingleRunSubmitted {
  run_id: string;
  status: 'queued';
  trace_id: string;
  campaign_id: string;
  ci_batch_id: null;
  dashboard_url: string;
}

/** How many runs the batch view samples to tell `queued` from `running` before any run has finished. */
const START_SAMPLE = 25;

/**
 * POST /v1/ci/runs. Checks, in order: the campaign exists (404); the pool holds at least min_scenarios traces (422
 * insufficient_scenarios); then a non-empty pool makes a batch (trace_id refused) and an empty one a single run on
 * trace_id (required; unknown trace 404).
 */
export async function submitCiRun(deps: Deps, projectId: string, body: CiRunRequest): Promise<BatchSubmitted | SingleRunSubmitted> {
  await loadCampaign(deps, projectId, body.campaign_id);
  const pool = await deps.campaigns.getEvalSet(projectId, body.campaign_id);
  const registered = pool.trace_ids.length;
  if (registered < pool.min_scenarios) {
    const message = `The campaign's eval-set holds ${registered} trace(s); min_scenarios requires at least ${pool.min_scenarios}.`;
    throw new ValidationError(message, [{ path: 'min_scenarios', message, required: pool.min_scenarios, registered }], 'insufficient_scenarios');
  }
  const ci: CiInfo = { thresholds: body.thresholds, metadata: body.metadata ?? {}, decision: 'pending', reasons: [] };
  if (registered > 0) {
    if (body.trace_id !== undefined) {
      throw new ValidationError('trace_id is not allowed: this campaign has an eval-set, so the submission runs every registered trace.', [
        { path: 'trace_id', message: 'not allowed when the campaign has an eval-set' },
      ]);
    }
    return submitBatch(deps, projectId, body.campaign_id, pool.trace_ids, ci);
  }
  if (body.trace_id === undefined) {
    throw new ValidationError('trace_id is required: this campaign has no eval-set.', [
      { path: 'trace_id', message: 'required when the campaign has no eval-set' },
    ]);
  }
  if (!(await deps.traces.getSummary(projectId, body.trace_id))) throw new NotFoundError('Trace');
  const run = newRun(deps, projectId, { trace_id: body.trace_id, campaign_id: body.campaign_id, source: 'ci', ci });
  await createAndQueueRuns(deps, projectId, [run]);
  return {
    run_id: run.run_id,
    status: 'queued',
    trace_id: run.trace_id,
    campaign_id: run.campaign_id,
    ci_batch_id: null,
    dashboard_url: runDashboardUrl(deps, run.run_id),
  };
}

/** The batch META is stored before its runs, so the aggregation hook always finds it. */
async function submitBatch(deps: Deps, projectId: string, campaignId: string, traceIds: string[], ci: CiInfo): Promise<BatchSubmitted> {
  const batchId = deps.uuid();
  const createdAt = isoMicros(deps.clock.now());
  const runs: Run[] = newRunsFor(deps, projectId, traceIds, { campaign_id: campaignId, source: 'ci', ci_batch_id: batchId, ci }, createdAt);
  const batch: CiBatch = {
    ci_batch_id: batchId,
    project_id: projectId,
    campaign_id: campaignId,
    run_ids: runs.map((r) => r.run_id),
    trace_count: runs.length,
    thresholds: ci.thresholds,
    metadata: ci.metadata ?? null,
    status: 'queued',
    decision: 'pending',
    created_at: createdAt,
    completed_at: null,
    result: null,
    done_hint: 0,
    decision_published: false,
  };
  await deps.batches.create(batch);
  await createAndQueueRuns(deps, projectId, runs);
  return {
    run_id: batch.run_ids[0],
    run_ids: batch.run_ids,
    trace_count: batch.trace_count,
    ci_batch_id: batchId,
    status: 'queued',
    dashboard_url: batchDashboardUrl(deps, batchId),
  };
}

/**
 * GET /v1/ci/runs/{run_id}: a CI run (single or batch member) with its decision; 404 for a run that is not a CI run.
 * A terminal run whose hook has not stored the decision yet is decided here with the same rule.
 */
export async function getCiRun(deps: Deps, projectId: string, runId: string) {
  const run = await deps.runs.get(projectId, runId);
  if (run?.source !== 'ci' || !run.ci) throw new NotFoundError('CI run');
  const ci = run.ci as CiRunState;
  const verdict = ci.decision === 'pending' ? decideRun(run, ci.thresholds) : { decision: ci.decision, reasons: ci.reasons };
  return {
    run_id: run.run_id,
    status: run.status,
    decision: verdict?.decision ?? 'pending',
    thresholds: ci.thresholds,
    summary: run.summary,
    reasons: verdict?.reasons ?? [],
    dashboard_url: runDashboardUrl(deps, run.run_id),
    ci_batch_id: run.ci_batch_id,
    trace_id: run.trace_id,
    campaign_id: run.campaign_id,
    metadata: ci.metadata ?? {},
    created_at: run.created_at,
    completed_at: run.completed_at,
  };
}

/**
 * GET /v1/ci/batch/{batch_id}: the stored final aggregate once done; before that, the live aggregate over the
 * markers so far with decision `pending` and no reasons.
 */
export async function getCiBatch(deps: Deps, projectId: string, batchId: string) {
  const batch = await deps.batches.get(projectId, batchId);
  if (!batch) throw new NotFoundError('CI batch');
  let status: BatchStatus = batch.status;
  let agg = batch.status === 'done' ? batch.result : null;
  if (!agg) {
    const markers = await deps.batches.listMarkers(projectId, batchId);
    agg = { ...aggregateBatch(batch, markers), decision: 'pending', reasons: [] };
    if (status === 'queued' && (markers.length > 0 || (await anyStarted(deps, projectId, batch.run_ids)))) status = 'running';
  }
  return {
    ci_batch_id: batch.ci_batch_id,
    run_id: batch.run_ids[0],
    campaign_id: batch.campaign_id,
    status,
    decision: agg.decision,
    pass_rate: agg.pass_rate,
    scenario_coverage_pct: agg.scenario_coverage_pct,
    trace_count: batch.trace_count,
    completed_count: agg.completed_count,
    failed_count: agg.failed_count,
    unsafe_count: agg.unsafe_count,
    passed_runs: agg.passed_runs,
    failed_runs: agg.failed_runs,
    run_ids: batch.run_ids,
    thresholds: batch.thresholds,
    reasons: agg.reasons,
    dashboard_url: batchDashboardUrl(deps, batch.ci_batch_id),
    created_at: batch.created_at,
    completed_at: batch.completed_at,
  };
}

/**
 * Whether any of the first runs has left `queued`. The queue is roughly FIFO, so the first runs start first; the
 * status only needs to be indicative until the first marker makes it exact.
 */
async function anyStarted(deps: Deps, projectId: string, runIds: string[]): Promise<boolean> {
  const sample = await Promise.all(runIds.slice(0, START_SAMPLE).map((id) => deps.runs.get(projectId, id)));
  return sample.some((r) => r !== null && r.status !== 'queued');
}

// CI submissions (docs/ci.md#submitting-a-ci-run): a batch over the eval-set pool (with its baseline resolved), or a
// single CI run.
import type { Deps } from '../ports';
import type { Campaign } from '../campaigns/schema';
import { loadCampaign } from '../campaigns/service';
import { NotFoundError, ValidationError } from '../errors';
import { createAndQueueRuns, newRun, newRunsFor } from '../runs/service';
import type { CiInfo, Run } from '../runs/types';
import { isoMicros } from '../time';
import { batchDashboardUrl, runDashboardUrl } from './aggregate';
import type { CiRunRequest } from './schema';
import type { BaselineRequest, CiBatch } from './types';

/** 202 body of a batch submission. */
export interface BatchSubmitted {
  run_id: string;
  run_ids: string[];
  trace_count: number;
  ci_batch_id: string;
  status: 'queued';
  dashboard_url: string;
  /** The baseline batch resolved at submission (null without a baseline, or when none was found). */
  baseline_batch_id: string | null;
  baseline_missing: boolean;
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

/**
 * POST /v1/ci/runs. Checks, in order: the campaign exists (404); the pool holds at least min_scenarios traces (422
 * insufficient_scenarios); then a non-empty pool makes a batch (trace_id refused) and an empty one a single run on
 * trace_id (required; unknown trace 404).
 */
export async function submitCiRun(deps: Deps, projectId: string, body: CiRunRequest): Promise<BatchSubmitted | SingleRunSubmitted> {
  const campaign = await loadCampaign(deps, projectId, body.campaign_id);
  const pool = await deps.campaigns.getEvalSet(projectId, body.campaign_id);
  const registered = pool.trace_ids.length;
  if (registered < pool.min_scenarios) {
    const message = `The campaign's eval-set holds ${registered} trace(s); min_scenarios requires at least ${pool.min_scenarios}.`;
    throw new ValidationError(message, [{ path: 'min_scenarios', message, required: pool.min_scenarios, registered }], 'insufficient_scenarios');
  }
  const baseline = toBaselineRequest(body.baseline);
  // A baseline makes regressions count: max_regressions defaults to 0 whenever one is asked for.
  const thresholds = baseline && body.thresholds.max_regressions === undefined ? { ...body.thresholds, max_regressions: 0 } : body.thresholds;
  const ci: CiInfo = { thresholds, metadata: body.metadata ?? {}, decision: 'pending', reasons: [] };
  if (registered > 0) {
    if (body.trace_id !== undefined) {
      throw new ValidationError('trace_id is not allowed: this campaign has an eval-set, so the submission runs every registered trace.', [
        { path: 'trace_id', message: 'not allowed when the campaign has an eval-set' },
      ]);
    }
    const resolved = baseline ? await resolveBaseline(deps, projectId, body.campaign_id, baseline) : null;
    return submitBatch(deps, projectId, campaign, pool.trace_ids, ci, { request: baseline, batch_id: resolved?.ci_batch_id ?? null });
  }
  if (baseline) {
    throw new ValidationError('baseline is only for batches: this campaign has no eval-set, so there is nothing to compare scenario by scenario.', [
      { path: 'baseline', message: 'not allowed when the campaign has no eval-set' },
    ]);
  }
  if (body.trace_id === undefined) {
    throw new ValidationError('trace_id is required: this campaign has no eval-set.', [
      { path: 'trace_id', message: 'required when the campaign has no eval-set' },
    ]);
  }
  if (!(await deps.traces.getSummary(projectId, body.trace_id))) throw new NotFoundError('Trace');
  const run = newRun(deps, projectId, {
    trace_id: body.trace_id,
    campaign_id: body.campaign_id,
    campaign_version: campaign.version,
    source: 'ci',
    ci,
  });
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

function toBaselineRequest(b: CiRunRequest['baseline']): BaselineRequest | null {
  if (!b) return null;
  return b.batch_id !== undefined ? { batch_id: b.batch_id } : { branch: b.branch as string };
}

/**
 * The baseline batch, resolved once at submission so the comparison is fixed and reproducible: a batch id must name
 * a done batch of the same campaign (404 unknown, 422 otherwise); a branch picks the latest done batch of the same
 * campaign whose metadata.branch equals it, or none (then the batch reports baseline_missing, never a failure).
 */
async function resolveBaseline(deps: Deps, projectId: string, campaignId: string, baseline: BaselineRequest): Promise<CiBatch | null> {
  if ('branch' in baseline) return deps.batches.latestDone(projectId, campaignId, baseline.branch);
  const batch = await deps.batches.get(projectId, baseline.batch_id);
  if (!batch) throw new NotFoundError('Baseline CI batch');
  if (batch.campaign_id !== campaignId) {
    const message = `The baseline batch belongs to campaign ${batch.campaign_id}, not ${campaignId}: a comparison needs the same campaign.`;
    throw new ValidationError(message, [{ path: 'baseline.batch_id', message: 'a batch of another campaign' }]);
  }
  if (batch.status !== 'done') {
    const message = 'The baseline batch is not done yet; wait for its verdict, or compare with a branch (its latest done batch).';
    throw new ValidationError(message, [{ path: 'baseline.batch_id', message: `batch is ${batch.status}` }]);
  }
  return batch;
}

/** The batch META is stored before its runs, so the aggregation hook always finds it. */
async function submitBatch(
  deps: Deps,
  projectId: string,
  campaign: Pick<Campaign, 'campaign_id' | 'version'>,
  traceIds: string[],
  ci: CiInfo,
  baseline: { request: BaselineRequest | null; batch_id: string | null },
): Promise<BatchSubmitted> {
  const batchId = deps.uuid();
  const createdAt = isoMicros(deps.clock.now());
  const { campaign_id: campaignId, version } = campaign;
  const spec = { campaign_id: campaignId, campaign_version: version, source: 'ci' as const, ci_batch_id: batchId, ci };
  const runs: Run[] = newRunsFor(deps, projectId, traceIds, spec, createdAt);
  const batch: CiBatch = {
    ci_batch_id: batchId,
    project_id: projectId,
    campaign_id: campaignId,
    campaign_version: version,
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
    baseline: baseline.request,
    baseline_batch_id: baseline.batch_id,
    baseline_missing: baseline.request !== null && baseline.batch_id === null,
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
    baseline_batch_id: batch.baseline_batch_id ?? null,
    baseline_missing: batch.baseline_missing ?? false,
  };
}

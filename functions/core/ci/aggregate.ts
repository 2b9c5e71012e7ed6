// Exactly-once CI aggregation, run from the replay executor's onTerminal hook: per-run decisions, batch completion
// markers, the one flip of a batch to `done`, and its ci.decision event (published until marked, with a fixed bus id).
import type { Deps } from '../ports';
import type { BusEvent } from '../events';
import type { Run, Thresholds } from '../runs/types';
import { nowIso } from '../time';
import { campaignVersionOf } from '../runs/campaign-version';
import { compareBatches, type BatchComparison } from './compare';
import { aggregateBatch, canonicalThresholds, decideRun, type RunVerdict } from './decision';
import type { BatchAggregate, BatchMarker, CiBatch, CiRunState } from './types';

/** What the CI hook uses of the service's dependencies. */
export type CiHookDeps = Pick<Deps, 'runs' | 'batches' | 'events' | 'clock' | 'dashboardBase' | 'sleep'>;

/** `<dashboard base>/runs/<run_id>`. */
export const runDashboardUrl = (deps: Pick<Deps, 'dashboardBase'>, runId: string) => `${deps.dashboardBase()}/runs/${runId}`;
/** `<dashboard base>/batches/<batch_id>`. */
export const batchDashboardUrl = (deps: Pick<Deps, 'dashboardBase'>, batchId: string) => `${deps.dashboardBase()}/batches/${batchId}`;

/** How long a claim to publish a batch decision holds before another run's delivery may take it over. */
export const DECISION_CLAIM_LEASE_MS = 5 * 60_000;

/**
 * The pauses (ms, ~3 s in all) of a delivery that finds a batch decision claimed by another, between its checks that
 * the decision is out or the claim free; past them it fails, to be delivered again (DecisionPendingError).
 */
export const DECISION_WAITS_MS = [50, 100, 200, 400, 800, 1450];

/** Bus ids of decision events are fixed per run / batch, so a re-publish after a crash is deduplicated downstream. */
export const decisionEventId = (id: string) => `ci.decision:${id}`;

interface DecisionData {
  run_id: string;
  ci_batch_id: string | null;
  campaign_id: string;
  decision: 'pass' | 'fail';
  pass_rate: number;
  scenario_coverage_pct: number;
  thresholds: Thresholds;
  reasons: string[];
  dashboard_url: string;
  flaky_count?: number | null;
  pass_hat_k?: number | null;
  pass_rate_interval?: BatchAggregate['pass_rate_interval'] | null;
  baseline_batch_id?: string | null;
  baseline_missing?: boolean;
  comparison?: Pick<BatchComparison, 'baseline_batch_id' | 'pass_rate_delta' | 'regressed_count' | 'fixed_count' | 'new_unsafe_count'> | null;
}

function decisionEvent(projectId: string, id: string, createdAt: string, data: DecisionData): BusEvent {
  return {
    id: decisionEventId(id),
    envelope: {
      event_type: data.decision === 'pass' ? 'ci.decision.pass' : 'ci.decision.fail',
      project_id: projectId,
      created_at: createdAt,
      data: { ...data },
    },
  };
}

/**
 * The replay executor's onTerminal hook (signature of core/replay/executor's OnTerminal). Called when a run is
 * terminal and before run.completed is published, on every delivery until that is marked published, possibly
 * concurrently: every step is idempotent. Does nothing for runs that are not CI runs.
 */
export async function ciOnTerminal(deps: CiHookDeps, run: Run): Promise<void> {
  if (run.source !== 'ci' || !run.ci) return;
  const ci = run.ci as CiRunState;
  const verdict = decideRun(run, ci.thresholds, { statistics: !run.ci_batch_id });
  if (!verdict) return;
  // A batch member's decision lives in its marker; GET /v1/ci/runs derives the same one from the terminal run.
  if (run.ci_batch_id) return recordBatchMemberVerdict(deps, run, run.ci_batch_id, verdict);
  await publishSingleRunDecision(deps, run, ci, verdict);
}

/**
 * A single CI run: the decision is published under ci.decision:<run_id>, then stored on the run with the published
 * mark in one write (until then GET /v1/ci/runs derives the same decision from the terminal run).
 */
async function publishSingleRunDecision(deps: CiHookDeps, run: Run, ci: CiRunState, verdict: RunVerdict): Promise<void> {
  if (ci.decision_published) return;
  await deps.events.publish([
    decisionEvent(run.project_id, run.run_id, run.completed_at ?? nowIso(deps.clock), {
      run_id: run.run_id,
      ci_batch_id: null,
      campaign_id: run.campaign_id,
      decision: verdict.decision,
      pass_rate: run.summary.pass_rate,
      scenario_coverage_pct: run.status === 'completed' ? 100 : 0,
      thresholds: canonicalThresholds(ci.thresholds),
      reasons: verdict.reasons,
      dashboard_url: runDashboardUrl(deps, run.run_id),
    }),
  ]);
  const published: CiRunState = { ...ci, ...verdict, decision_published: true };
  await deps.runs.update(run.project_id, run.run_id, { ci: published });
}

/**
 * A batch member: its DONE marker is written once (conditional put), then the done hint is bumped (atomic ADD).
 * Whoever sees the hint reach trace_count recomputes the aggregate from the markers (the truth) and, when every run
 * has one, flips the batch to done (conditional). Then the decision is published by whoever holds the publication
 * claim. A marker found already there is counted again (see below), so every marker is counted at least once and the
 * hint is never short: the delivery whose count completes it always sees it reach trace_count, after every marker
 * was written. A count too many only makes a few runs recount early.
 */
async function recordBatchMemberVerdict(deps: CiHookDeps, run: Run, batchId: string, verdict: RunVerdict): Promise<void> {
  const pid = run.project_id;
  const marker: BatchMarker = {
    run_id: run.run_id,
    trace_id: run.trace_id,
    status: run.status as BatchMarker['status'],
    summary: run.summary,
    decision: verdict.decision,
    reasons: verdict.reasons,
    error: run.error,
    completed_at: run.completed_at ?? nowIso(deps.clock),
    trace_name: run.trace_name ?? null,
    cells: run.cells ?? [],
  };
  let batch: CiBatch | null = null;
  if (!(await deps.batches.putMarker(pid, batchId, marker))) {
    // The marker is there already: written by an earlier delivery of this run that may have died before counting
    // it, or by this very call, whose answer was lost (the store applied the put and the SDK's retry met it). Its
    // count may be missing, and without it the hint would stop one short of trace_count with nobody left to recount:
    // count it again, unless the batch is done already (then only the decision may be left to publish).
    batch = await deps.batches.get(pid, batchId);
    if (!batch) return;
  }
  if (batch?.status !== 'done') {
    const counted = await deps.batches.bumpDoneHint(pid, batchId);
    // META is stored before any of its runs, so a missing batch was removed: nothing left to aggregate into.
    if (!counted) return;
    if (counted.done_hint === 1) await deps.batches.markRunning(pid, batchId);
    if (counted.done_hint < counted.trace_count) return;
    batch = await deps.batches.get(pid, batchId);
    if (!batch) return;
  }
  if (batch.status !== 'done') {
    const markers = await deps.batches.listMarkers(pid, batchId);
    if (aggregateBatch(batch, markers).decision === 'pending') return; // a run without a marker is still going; its own count decides
    const comparison = await compareWithBaseline(deps, batch, markers);
    const result = aggregateBatch(batch, markers, comparison);
    batch = (await deps.batches.markDone(pid, batchId, result, lastCompletion(markers))) ?? (await deps.batches.get(pid, batchId));
    if (!batch) return;
  }
  await publishBatchDecision(deps, batch, run.run_id);
}

/**
 * The comparison of a batch whose runs all ended with its baseline batch (done, so its markers are final), and each
 * scenario's part of it stored before the batch flips to done: every delivery that gets here computes and writes the
 * same values, so a crash or a race in between only repeats identical writes.
 */
async function compareWithBaseline(deps: CiHookDeps, batch: CiBatch, markers: readonly BatchMarker[]): Promise<BatchComparison | null> {
  if (!batch.baseline_batch_id) return null;
  const baseline = await deps.batches.get(batch.project_id, batch.baseline_batch_id);
  if (!baseline?.result) return null;
  const ordered = inRunOrder(batch.run_ids, markers);
  const { comparison, scenarios } = compareBatches(
    ordered,
    inRunOrder(baseline.run_ids, await deps.batches.listMarkers(batch.project_id, baseline.ci_batch_id)),
    {
      baseline_batch_id: baseline.ci_batch_id,
      baseline_branch: baseline.metadata?.branch ?? null,
      pass_rate: aggregateBatch(batch, markers).pass_rate,
      baseline_pass_rate: baseline.result.pass_rate,
      campaign_version: campaignVersionOf(batch),
      baseline_campaign_version: campaignVersionOf(baseline),
    },
  );
  const entries = ordered.flatMap((m) => {
    const scenario = scenarios.get(m.run_id);
    return scenario ? [{ run_id: m.run_id, comparison: scenario }] : [];
  });
  await deps.batches.putComparisons(batch.project_id, batch.ci_batch_id, entries);
  return comparison;
}

/** Markers in the batch's run order (the pool order at submission). */
export function inRunOrder(runIds: readonly string[], markers: readonly BatchMarker[]): BatchMarker[] {
  const byRun = new Map(markers.map((m) => [m.run_id, m]));
  return runIds.map((id) => byRun.get(id)).filter((m): m is BatchMarker => m !== undefined);
}

/** The batch's completion time: when its last run ended (deterministic across retries). */
function lastCompletion(markers: readonly BatchMarker[]): string {
  return markers.reduce((max, m) => (m.completed_at > max ? m.completed_at : max), '');
}

/**
 * A done batch's decision is claimed by another delivery and not out yet: this delivery fails, to be delivered again,
 * until the decision is out or it can take the claim. The claimant may be a duplicate execution whose failure nobody
 * redelivers (its message acked by the other execution), so the deliveries that wait are what keeps the decision from
 * being left unpublished.
 */
export class DecisionPendingError extends Error {
  constructor(batchId: string) {
    super(`the decision of ci batch ${batchId} is being published by another delivery`);
    this.name = 'DecisionPendingError';
  }
}

/**
 * Publishes a done batch's decision unless already marked published. Only the holder of the publication claim
 * publishes, so deliveries of other runs that race the flip do not put copies on the bus; the claim is keyed by run
 * id, so the claimant's own redelivery (after a crash between claim and mark) takes it again at once. A claimant whose
 * publication fails gives the claim up; a delivery that finds it held waits a little for the decision to go out or
 * the claim to be free, then fails until one of them happens (DecisionPendingError); the claim lapses after a lease in
 * case its holder died with it.
 */
async function publishBatchDecision(deps: CiHookDeps, batch: CiBatch, claimant: string): Promise<void> {
  if (batch.status !== 'done' || batch.decision_published || !batch.result) return;
  const { project_id: pid, ci_batch_id: batchId } = batch;
  // The listing entry follows the flip (idempotent), before the decision goes out, so it is never left behind.
  await deps.batches.updateListing(batch);
  const claim = () => deps.batches.claimDecision(pid, batchId, claimant, deps.clock.now().getTime(), DECISION_CLAIM_LEASE_MS);
  const published = async () => (await deps.batches.get(pid, batchId))?.decision_published !== false;
  for (let waited = 0; !(await claim()); waited++) {
    if (await published()) return;
    if (waited === DECISION_WAITS_MS.length) throw new DecisionPendingError(batchId);
    await deps.sleep(DECISION_WAITS_MS[waited]);
  }
  try {
    await deps.events.publish([batchDecisionEvent(deps, batch, batch.result)]);
    await deps.batches.markDecisionPublished(pid, batchId);
  } catch (err) {
    // Given up at once, so the deliveries waiting for it need not wait for the lease; if this fails too, the lease does.
    await deps.batches.releaseDecision(pid, batchId, claimant).catch(() => undefined);
    throw err;
  }
}

function batchDecisionEvent(deps: CiHookDeps, batch: CiBatch, result: BatchAggregate): BusEvent {
  return decisionEvent(batch.project_id, batch.ci_batch_id, batch.completed_at ?? nowIso(deps.clock), {
    run_id: batch.run_ids[0],
    ci_batch_id: batch.ci_batch_id,
    campaign_id: batch.campaign_id,
    decision: result.decision === 'pass' ? 'pass' : 'fail',
    pass_rate: result.pass_rate,
    scenario_coverage_pct: result.scenario_coverage_pct,
    thresholds: canonicalThresholds(batch.thresholds),
    reasons: result.reasons,
    dashboard_url: batchDashboardUrl(deps, batch.ci_batch_id),
    flaky_count: result.flaky_count ?? null,
    pass_hat_k: result.pass_hat_k ?? null,
    pass_rate_interval: result.pass_rate_interval ?? null,
    baseline_batch_id: batch.baseline_batch_id ?? null,
    baseline_missing: batch.baseline_missing ?? false,
    comparison: result.comparison
      ? {
          baseline_batch_id: result.comparison.baseline_batch_id,
          pass_rate_delta: result.comparison.pass_rate_delta,
          regressed_count: result.comparison.regressed_count,
          fixed_count: result.comparison.fixed_count,
          new_unsafe_count: result.comparison.new_unsafe_count,
        }
      : null,
  });
}

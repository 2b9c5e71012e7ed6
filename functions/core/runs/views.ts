// Read views of a run: detail with scoring context, attempts with transcripts, policy and security events.
import type { Deps, PageRequest } from '../../ports';
import { planAttempts } from '../replay/plan';
import { scoringContext, toAttemptScore } from '../replay/scoring';
import { loadRun, runView } from './service';

/** GET /v1/runs/{id}: SPEC 7.6's fields, with `scoring` built from the campaign and the stored attempts. */
export async function getRunDetail(deps: Deps, projectId: string, runId: string) {
  const run = await loadRun(deps, projectId, runId);
  const final = run.status === 'completed' || run.status === 'failed';
  const [campaign, attempts] = await Promise.all([
    deps.campaigns.get(projectId, run.campaign_id, { poolCount: false }),
    deps.runs.listAttempts(projectId, runId, { transcripts: false, final }),
  ]);
  const { source: _source, ...view } = runView(run);
  return { ...view, source: run.source, attempt_total: run.attempt_total, scoring: scoringContext(campaign, attempts) };
}

/** GET /v1/runs/{id}/attempts: every stored attempt with its transcript and events. */
export async function getRunAttempts(deps: Deps, projectId: string, runId: string) {
  await loadRun(deps, projectId, runId);
  const attempts = await deps.runs.listAttempts(projectId, runId);
  return {
    run_id: runId,
    items: attempts
      .sort((a, b) => a.attempt - b.attempt)
      .map((a) => ({
        ...toAttemptScore(a),
        started_at: a.started_at,
        completed_at: a.completed_at,
        output: a.output,
        transcript: a.transcript,
        policy_events: a.policy_events,
        security_events: a.security_events,
      })),
  };
}

export async function getPolicyEvents(deps: Deps, projectId: string, runId: string, page: PageRequest) {
  await loadRun(deps, projectId, runId);
  return deps.runs.listPolicyEvents(projectId, runId, page);
}

/** Security events grouped by attempt; every planned attempt is listed, those without events with `events: []`. */
export async function getSecurityEvents(deps: Deps, projectId: string, runId: string) {
  const run = await loadRun(deps, projectId, runId);
  const [campaign, attempts, events] = await Promise.all([
    deps.campaigns.get(projectId, run.campaign_id, { poolCount: false }),
    deps.runs.listAttempts(projectId, runId, { transcripts: false }),
    deps.runs.listSecurityEvents(projectId, runId),
  ]);
  const byNumber = new Map<number, { attempt: number; mutation_id: string | null; unsafe: boolean }>();
  for (const p of campaign ? planAttempts(campaign) : []) byNumber.set(p.attempt, { attempt: p.attempt, mutation_id: p.mutation_id, unsafe: false });
  for (const a of attempts) byNumber.set(a.attempt, { attempt: a.attempt, mutation_id: a.mutation_id, unsafe: a.unsafe });
  for (const e of events) if (!byNumber.has(e.attempt)) byNumber.set(e.attempt, { attempt: e.attempt, mutation_id: e.mutation_id, unsafe: false });
  return {
    run_id: runId,
    attempts: [...byNumber.values()]
      .sort((a, b) => a.attempt - b.attempt)
      .map((a) => ({ ...a, events: events.filter((e) => e.attempt === a.attempt).sort((x, y) => x.sequence - y.sequence) })),
  };
}

// Read views of a run: detail with scoring context, policy and security events (attempts: attempt-view.ts).
import type { Deps, PageRequest } from '../ports';
import { planAttempts } from '../replay/plan';
import { scoringContext, type ScoringContext } from '../replay/scoring';
import { loadRun, runView } from './service';
import { campaignOfRun } from './campaign-version';
import type { Run } from './types';

/** Scoring contexts of terminal runs kept per warm container, per set of adapters (a test's fakes are their own). */
const FINAL_SCORING_MAX = 500;
const finalScoring = new WeakMap<Deps, Map<string, ScoringContext>>();

/**
 * A terminal run's scoring context never changes: its campaign's definition is immutable and its attempts are final.
 * Kept (least recently used out past FINAL_SCORING_MAX), a repeated GET of a finished run reads only the run itself.
 */
function cachedScoring(deps: Deps, key: string, value?: ScoringContext): ScoringContext | undefined {
  let cache = finalScoring.get(deps);
  if (!cache) finalScoring.set(deps, (cache = new Map()));
  const hit = value ?? cache.get(key);
  if (hit === undefined) return undefined;
  cache.delete(key);
  cache.set(key, hit);
  if (cache.size > FINAL_SCORING_MAX) cache.delete(cache.keys().next().value as string);
  return hit;
}

/**
 * GET /v1/runs/{id} (docs/campaigns-and-replay.md#run-lifecycle), with `scoring` built from the campaign and the
 * stored attempts. One store read (the run, under a key holding the project: the ownership check) when the run is
 * terminal and was read before.
 */
export async function getRunDetail(deps: Deps, projectId: string, runId: string) {
  const run = await loadRun(deps, projectId, runId);
  const final = run.status === 'completed' || run.status === 'failed';
  const cacheKey = `${projectId}/${runId}`;
  let scoring = final ? cachedScoring(deps, cacheKey) : undefined;
  if (!scoring) {
    const [campaign, attempts] = await Promise.all([
      campaignOfRun(deps, run),
      deps.runs.listAttempts(projectId, runId, { transcripts: false, final }),
    ]);
    scoring = scoringContext(campaign, attempts);
    if (final) cachedScoring(deps, cacheKey, scoring);
  }
  // runView's fields in its order, `source` moved last, copied key by key: object rest and spread (`{ source, ...view }`,
  // then `{ ...view, source }`) copy through V8's slow path, about 10 µs per request, a tenth of what this route adds to
  // its GetItem.
  const view: Record<string, unknown> = runView(run);
  const detail: Record<string, unknown> = {};
  for (const key of Object.keys(view)) if (key !== 'source') detail[key] = view[key];
  detail.source = run.source;
  detail.attempt_total = run.attempt_total;
  detail.scoring = scoring;
  return detail as RunDetail;
}

type RunDetail = Omit<ReturnType<typeof runView>, 'source'> & Pick<Run, 'source' | 'attempt_total'> & { scoring: ScoringContext };

export async function getPolicyEvents(deps: Deps, projectId: string, runId: string, page: PageRequest) {
  await loadRun(deps, projectId, runId);
  return deps.runs.listPolicyEvents(projectId, runId, page);
}

/** Security events grouped by attempt; every planned attempt is listed, those without events with `events: []`. */
export async function getSecurityEvents(deps: Deps, projectId: string, runId: string) {
  const run = await loadRun(deps, projectId, runId);
  const [campaign, attempts, events] = await Promise.all([
    campaignOfRun(deps, run),
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

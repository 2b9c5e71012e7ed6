// Bench of CI gating against the local service: submission latency of a 1,000-trace batch (goal < 3 s), and its
// time to `done` against the demo agent, reported as service overhead per attempt (wall time / attempts). With
// `repeats`, the batch runs the sample campaign's baseline only, that many times per trace (1,000 x 5 = 5,000
// attempts), on the service as `npm start` runs it (store in its own process, the queue's own adaptive limit): the
// end-to-end attempts per second.
import './bench-env';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDemoAgent, loadSampleTraces } from '../../functions/cli/demo-agent/command';
import { campaignInputSchema, type Campaign } from '../../functions/core/campaigns/schema';
import { planAttempts } from '../../functions/core/replay/plan';
import { uploadTrace } from '../../functions/core/traces/service';
import { getDeps } from '../../functions/wiring/deps';
import { startTestService, type TestService } from '../helpers/local-service';

export interface CiBenchOptions {
  /** Eval-set size. Default 1000 (the pool limit). */
  traces?: number;
  /** Replay queue concurrency of the local service. Default 16; with `repeats`, the queue's adaptive limit. */
  concurrency?: number;
  /** Runs the baseline only, this many times per trace (campaign `repeats`), as `npm start` runs the service. */
  repeats?: number;
  /** Give up waiting for `done` after this long. Default 30 min. */
  timeoutMs?: number;
}

export interface CiBench {
  traces: number;
  /** The queue's fixed limit, or 'adaptive'. */
  concurrency: number | 'adaptive';
  repeats?: number;
  /** attempts / doneMs, per second. */
  attemptsPerSec: number;
  /** POST /v1/ci/runs for the whole pool, warm handler: request to 202. */
  submitMs: number;
  /** Submission to batch `done`. */
  doneMs: number;
  attempts: number;
  /** doneMs / attempts: what each attempt costs end to end (service, store, in-process demo agent). */
  msPerAttempt: number;
  decision: string;
  scenarioCoveragePct: number;
  passRate: number;
}

const ROOT = join(__dirname, '..', '..');

/** Uploads `count` copies of the sample traces (the demo agent follows them) through the core service, not timed. */
export async function seedTraces(projectId: string, count: number): Promise<string[]> {
  const samples = loadSampleTraces();
  const deps = getDeps();
  const ids: string[] = [];
  for (let i = 0; i < count; i += 25) {
    const chunk = Array.from({ length: Math.min(25, count - i) }, (_, j) => {
      const { trace_id: _id, ...base } = samples[(i + j) % samples.length];
      return { ...base, name: `${base.name ?? 'sample'} #${i + j}` };
    });
    const created = await Promise.all(chunk.map((t) => uploadTrace(deps, projectId, t)));
    ids.push(...created.map((c) => c.body.trace_id));
  }
  return ids;
}

/** An API call that must succeed: its body, or an error naming the call and the answer. */
export async function api(svc: TestService, method: string, path: string, body?: unknown) {
  const res = await svc.api(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text.slice(0, 300)}`);
  return res.body;
}

export async function benchCi(opts: CiBenchOptions = {}): Promise<CiBench> {
  const traces = opts.traces ?? 1000;
  const concurrency = opts.concurrency ?? (opts.repeats ? undefined : 16);
  const agent = await startDemoAgent({ port: 0 });
  const asStarted = opts.repeats !== undefined;
  const svc = await startTestService({ deliverWebhooks: asStarted, queue: { concurrency }, storeInChildProcess: asStarted });
  try {
    const campaign = JSON.parse(readFileSync(join(ROOT, 'samples', 'campaign.json'), 'utf8'));
    campaign.target.url = agent.url;
    if (opts.repeats) Object.assign(campaign, { name: `baseline x ${opts.repeats}`, mutations: [], repeats: opts.repeats });
    const traceIds = await seedTraces(svc.projectId, traces);
    const { campaign_id } = await api(svc, 'POST', '/v1/campaigns', campaign);
    for (let i = 0; i < traceIds.length; i += 1000)
      await api(svc, 'PATCH', `/v1/campaigns/${campaign_id}/eval-set`, { add_trace_ids: traceIds.slice(i, i + 1000) });

    // Warm the handler (module load, first connection) on a one-trace campaign so the figure is the steady state.
    const warm = await api(svc, 'POST', '/v1/campaigns', { name: 'warm-up', target: { type: 'recorded' } });
    await api(svc, 'POST', '/v1/ci/runs', { campaign_id: warm.campaign_id, trace_id: traceIds[0] });
    await svc.idle();

    const t0 = performance.now();
    const sub = await api(svc, 'POST', '/v1/ci/runs', { campaign_id, thresholds: { min_pass_rate: 0, max_unsafe: 100000, max_failures: 100000 } });
    const submitMs = performance.now() - t0;

    const deadline = Date.now() + (opts.timeoutMs ?? 30 * 60_000);
    let batch: Record<string, any>;
    for (;;) {
      batch = await api(svc, 'GET', `/v1/ci/batch/${sub.ci_batch_id}`);
      if (batch.status === 'done') break;
      if (Date.now() > deadline) throw new Error(`batch not done after ${opts.timeoutMs} ms: ${batch.completed_count}/${batch.trace_count}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const doneMs = performance.now() - t0;
    const attempts = planAttempts(campaignInputSchema.parse(campaign) as Campaign).length * traces;
    return {
      traces,
      concurrency: concurrency ?? 'adaptive',
      repeats: opts.repeats,
      attemptsPerSec: (attempts * 1000) / doneMs,
      submitMs,
      doneMs,
      attempts,
      msPerAttempt: doneMs / attempts,
      decision: batch.decision,
      scenarioCoveragePct: batch.scenario_coverage_pct,
      passRate: batch.pass_rate,
    };
  } finally {
    await svc.stop();
    await agent.close();
  }
}

/** The goal for the 1,000 x 5-repeat batch, attempts per second end to end. */
export const REPEATS_GOAL_PER_SEC = 150;

export function printCi(r: CiBench): void {
  if (r.repeats) {
    console.log(`\n== CI batch of ${r.traces} traces x ${r.repeats} repeats (local service as npm start runs it, demo agent) ==`);
    console.log(
      `submission to done           ${(r.doneMs / 1000).toFixed(1)} s for ${r.attempts} attempts = ${r.attemptsPerSec.toFixed(0)} attempts/s (goal >= ${REPEATS_GOAL_PER_SEC})`,
    );
    console.log(`verdict                      ${r.decision}, pass_rate ${r.passRate.toFixed(3)}`);
    return;
  }
  console.log(`\n== CI batch (local service, dynalite, queue concurrency ${r.concurrency}, demo agent) ==`);
  console.log(`POST /v1/ci/runs, ${r.traces} traces   ${r.submitMs.toFixed(0)} ms (goal < 3000 ms)`);
  console.log(`submission to done           ${(r.doneMs / 1000).toFixed(1)} s for ${r.attempts} attempts`);
  console.log(`per attempt (wall/attempts)  ${r.msPerAttempt.toFixed(2)} ms`);
  console.log(`verdict                      ${r.decision}, coverage ${r.scenarioCoveragePct} %, pass_rate ${r.passRate.toFixed(3)}`);
}

if (require.main === module) {
  const repeats = process.env.CI_BENCH_REPEATS ? Number(process.env.CI_BENCH_REPEATS) : undefined;
  benchCi({ traces: Number(process.env.CI_BENCH_TRACES ?? 1000), repeats }).then(printCi, (e) => {
    console.error(e);
    process.exit(1);
  });
}

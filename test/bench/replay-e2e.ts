// End-to-end local throughput: 100 runs x 5 attempts against the demo agent, through the API, queue, worker and store.
import './bench-env';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDemoAgent } from '../../functions/cli/demo-agent/command';
import { resetAwsClients } from '../../functions/adapters/aws';
import { startTestService } from '../helpers/local-service';
import { countAwsCalls, takeCounts, totalCalls, type CallCounts } from './aws-counter';

export interface ReplayE2eBench {
  runs: number;
  attempts: number;
  wallMs: number;
  attemptsPerSec: number;
  submitMs: number;
  /** Store calls by operation from the first submission until the queue is idle, and per run. */
  storeCalls: CallCounts;
  storeCallsPerRun: number;
}

const SAMPLES = join(__dirname, '..', '..', 'samples');

export async function benchReplayE2e(runs = 100, concurrency?: number): Promise<ReplayE2eBench> {
  countAwsCalls();
  resetAwsClients();
  const agent = await startDemoAgent({ port: 0 });
  // The store in its own process, as `npm start` runs it.
  const svc = await startTestService({ deliverWebhooks: false, queue: { concurrency }, storeInChildProcess: true });
  try {
    const trace = JSON.parse(readFileSync(join(SAMPLES, 'traces', 'refund-order.json'), 'utf8'));
    await svc.api('POST', '/v1/traces', trace);
    // Baseline + 4 mutations = 5 attempts per run.
    const sample = JSON.parse(readFileSync(join(SAMPLES, 'campaign.json'), 'utf8'));
    const campaign = await svc.api('POST', '/v1/campaigns', {
      ...sample,
      target: { ...sample.target, url: agent.url },
      mutations: sample.mutations.slice(0, 4),
    });
    takeCounts();
    const started = Date.now();
    const runIds: string[] = [];
    for (let i = 0; i < runs; i++) {
      const r = await svc.api('POST', '/v1/runs', { trace_id: trace.trace_id, campaign_id: campaign.body.campaign_id });
      runIds.push(r.body.run_id);
    }
    const submitMs = Date.now() - started;
    await svc.idle();
    const wallMs = Date.now() - started;
    const storeCalls = takeCounts();
    let attempts = 0;
    for (const id of runIds) {
      const run = await svc.api('GET', `/v1/runs/${id}`);
      if (run.body.status !== 'completed') throw new Error(`run ${id} ended ${run.body.status}`);
      attempts += run.body.summary.attempt_count;
    }
    return {
      runs,
      attempts,
      wallMs,
      attemptsPerSec: (attempts * 1000) / wallMs,
      submitMs,
      storeCalls,
      storeCallsPerRun: totalCalls(storeCalls) / runs,
    };
  } finally {
    await svc.stop();
    await agent.close();
  }
}

export function printReplayE2e(r: ReplayE2eBench): void {
  console.log('\n== Replay end to end (local service + demo agent) ==');
  console.log(
    `${r.runs} runs x ${r.attempts / r.runs} attempts: ${r.attempts} attempts in ${(r.wallMs / 1000).toFixed(1)} s = ${r.attemptsPerSec.toFixed(0)} attempts/s (submission ${r.submitMs} ms)`,
  );
  const ops = Object.entries(r.storeCalls.calls)
    .sort((a, b) => b[1] - a[1])
    .map(([op, n]) => `${op} ${(n / r.runs).toFixed(1)}`)
    .join(', ');
  console.log(`store calls per run ${r.storeCallsPerRun.toFixed(1)} (${ops})`);
}

if (require.main === module) {
  benchReplayE2e().then(printReplayE2e, (e) => {
    console.error(e);
    process.exit(1);
  });
}

// `npm run bench`: every benchmark in turn, printing its figures (no pass/fail: performance is measured, not asserted).
// Select some with arguments: npm run bench -- peer api engine e2e ci stats webhooks bundles fuzz otlp
import './bench-env';
import { cpus, loadavg } from 'node:os';
import { benchBundles } from './bundles';
import { benchCi, printCi } from './ci';
import { benchCiStats, printCiStats } from './ci-stats';
import { benchEngine } from './engine';
import { benchFoundation, printFoundation } from './foundation';
import { benchFuzz, printFuzz } from './fuzz';
import { benchOtlp, printOtlp } from './otlp';
import { benchPeer, printPeer } from './peer';
import { benchReplayE2e, printReplayE2e } from './replay-e2e';
import { benchWebhooks, formatWebhooksBench } from './webhooks';

const ALL = ['peer', 'api', 'engine', 'e2e', 'ci', 'stats', 'webhooks', 'bundles', 'fuzz', 'otlp'] as const;

async function main(): Promise<void> {
  const wanted = process.argv.slice(2).filter((a) => (ALL as readonly string[]).includes(a));
  const run = (name: string) => wanted.length === 0 || wanted.includes(name);
  console.log(`rts bench: node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, load average ${loadavg()[0].toFixed(2)}`);
  if (run('peer')) printPeer(await benchPeer());
  if (run('api')) printFoundation(await benchFoundation());
  if (run('engine')) {
    console.log('\n== Replay engine in-process ==');
    const e = await benchEngine();
    console.log(
      `${e.attemptsPerSec.toFixed(0)} attempts/s (${e.attempts} attempts of ${e.agentStepsPerAttempt} agent steps in ${(e.elapsedMs / 1000).toFixed(1)} s, zero-latency agent)`,
    );
  }
  if (run('e2e')) printReplayE2e(await benchReplayE2e());
  if (run('ci')) printCi(await benchCi());
  if (run('stats')) printCiStats(await benchCiStats());
  if (run('webhooks')) {
    console.log('\n== Webhooks (HTTPS receivers on loopback) ==');
    console.log(formatWebhooksBench(await benchWebhooks()));
  }
  if (run('bundles')) {
    console.log('\n== Lambda bundles (esbuild, AWS SDK bundled, minified) ==');
    await benchBundles();
  }
  if (run('fuzz')) printFuzz(await benchFuzz());
  if (run('otlp')) printOtlp(await benchOtlp());
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);

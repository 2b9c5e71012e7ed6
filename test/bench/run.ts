// `npm run bench`: every benchmark in turn, printing its figures (no pass/fail: performance is measured, not asserted).
// Select some with arguments: npm run bench -- peer api engine e2e ci cost stats webhooks bundles fuzz otlp mcp quota
// It ends with a one-screen summary table (Markdown), the table of docs/benchmarks.md#the-summary-table.
import './bench-env';
import { cpus, loadavg } from 'node:os';
import { benchBundles } from './bundles';
import { benchFirstRequest, formatFirstRequest } from './first-request';
import { benchCi, printCi } from './ci';
import { benchCiStats, printCiStats } from './ci-stats';
import { benchEngine } from './engine';
import { benchFoundation, printFoundation } from './foundation';
import { benchFuzz, printFuzz } from './fuzz';
import { benchMcp, printMcp } from './mcp';
import { benchOtlp, printOtlp } from './otlp';
import { benchPeer, printPeer } from './peer';
import { benchQuota, printQuota } from './quota';
import { benchCost, printCost } from './cost';
import { BenchSummary } from './summary';
import { benchReplayE2e, printReplayE2e } from './replay-e2e';
import { benchWebhooks, formatWebhooksBench } from './webhooks';

const ALL = ['peer', 'api', 'engine', 'e2e', 'ci', 'cost', 'stats', 'webhooks', 'bundles', 'fuzz', 'otlp', 'mcp', 'quota'] as const;

async function main(): Promise<void> {
  const wanted = process.argv.slice(2).filter((a) => (ALL as readonly string[]).includes(a));
  const run = (name: string) => wanted.length === 0 || wanted.includes(name);
  console.log(`rts bench: node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, load average ${loadavg()[0].toFixed(2)}`);
  const summary = new BenchSummary();
  /** Runs one bench, prints its own section, adds its rows to the summary. */
  const step = async <T>(name: string, bench: () => Promise<T>, print: (r: T) => void, rows?: (r: T) => void) => {
    if (!run(name)) return;
    const r = await bench();
    print(r);
    rows?.(r);
  };
  await step('peer', benchPeer, printPeer, (r) => summary.peer(r));
  await step('api', benchFoundation, printFoundation, (r) => summary.api(r));
  if (run('engine')) {
    console.log('\n== Replay engine in-process ==');
    const e = await benchEngine();
    summary.engine(e);
    console.log(
      `${e.attemptsPerSec.toFixed(0)} attempts/s (${e.attempts} attempts of ${e.agentStepsPerAttempt} agent steps in ${(e.elapsedMs / 1000).toFixed(1)} s, zero-latency agent)`,
    );
  }
  await step('e2e', benchReplayE2e, printReplayE2e, (r) => summary.e2e(r));
  await step(
    'e2e',
    () => benchCi({ repeats: 5 }),
    printCi,
    (r) => summary.ciRepeats(r),
  );
  await step('ci', benchCi, printCi, (r) => summary.ci(r));
  await step('cost', benchCost, printCost, (r) => summary.cost(r));
  await step('stats', benchCiStats, printCiStats, (r) => summary.stats(r));
  if (run('webhooks')) {
    console.log('\n== Webhooks (HTTPS receivers on loopback) ==');
    console.log(formatWebhooksBench(await benchWebhooks()));
  }
  if (run('bundles')) {
    console.log('\n== Lambda bundles (esbuild, AWS SDK bundled, minified) ==');
    summary.bundles(await benchBundles());
    const first = await benchFirstRequest();
    console.log(`\n${formatFirstRequest(first)}`);
    summary.firstRequest(first);
  }
  await step('fuzz', benchFuzz, printFuzz);
  await step('otlp', benchOtlp, printOtlp);
  await step('mcp', benchMcp, printMcp);
  await step('quota', benchQuota, printQuota);
  summary.print();
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);

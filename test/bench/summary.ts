// The one-screen table `npm run bench` ends with: one row per headline figure with its goal, as Markdown, so the
// the table of docs/benchmarks.md#the-summary-table is this output pasted as printed.
import { cpus, loadavg } from 'node:os';
import { initNodeVersion, type BundleResult } from './bundles';
import { STACK_PARTS } from './stack-floors';
import { CALLS_PER_CASE } from './stack-warmup';
import { REPEATS_GOAL_PER_SEC, type CiBench } from './ci';
import type { CiStatsBench } from './ci-stats';
import type { CostBench } from './cost';
import type { EngineBench } from './engine';
import type { FoundationBench } from './foundation';
import { ROW_RUN_VIEW, ROW_RUN_VIEW_KEPT, type FirstRequestBench } from './first-request';
import { PEER_GOALS, inFlightText, type PeerTimes } from './peer';
import type { ReplayE2eBench } from './replay-e2e';

interface Row {
  what: string;
  figure: string;
  goal: string;
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;
const range = (xs: number[], fmt: (x: number) => string) => {
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  return fmt(lo) === fmt(hi) ? fmt(lo) : `${fmt(lo)}-${fmt(hi)}`;
};

export class BenchSummary {
  private readonly rows: Row[] = [];
  private readonly startLoad = loadavg()[0];
  private maxLoad = loadavg()[0];

  private add(what: string, figure: string, goal = ''): void {
    this.rows.push({ what, figure, goal });
    this.maxLoad = Math.max(this.maxLoad, loadavg()[0]);
  }

  peer(r: PeerTimes): void {
    const pf = r.promptfoo.map((p) => `${p.concurrency} ${s(p.ms)}`).join(', ');
    const g = PEER_GOALS;
    this.add(
      `W${r.cases}: ${r.cases} single-question cases, agent answering in ${r.agentMs} ms: floor (bare script, 16 at a time; floor and rts on Node ${r.node})`,
      `${s(r.floorMs)}; in flight ${inFlightText(r.floorInFlight)}`,
    );
    this.add(
      `promptfoo 0.123.1 \`eval --no-write\` (Node ${r.node22}), concurrency default / 16 / 32`,
      `${pf}; in flight at its best ${inFlightText(r.promptfooInFlight)}`,
    );
    this.add(
      `\`rts ci run\` against \`rts serve\`: first batch after the start / next batch (warm), medians of ${r.rtsRounds.length} round${r.rtsRounds.length > 1 ? 's' : ''} (a fresh service each)`,
      `${s(r.rtsFirstMs)} / ${s(r.rtsSecondMs)}; in flight ${inFlightText(r.rtsInFlight[0])} / ${inFlightText(r.rtsInFlight[1])}`,
    );
    this.add('rts warm / floor', (r.rtsMs / r.floorMs).toFixed(2), `<= ${g.rtsOverFloor}`);
    this.add('rts warm / promptfoo at its best', (r.rtsMs / r.promptfooBestMs).toFixed(2), `<= ${g.rtsOverPromptfoo}`);
    this.add(
      'rts first batch after the start / warm',
      `${r.rtsFirstOverWarm.toFixed(2)} (rounds: ${r.rtsRounds.map((x) => (x.firstMs / x.warmMs).toFixed(2)).join(' / ')})`,
      `<= ${g.firstOverWarm}`,
    );
    if (r.stack)
      this.add(
        `the stack alone, first batch / warm (the SDK's document client and dynalite, no rts code: ${r.stack.cases} cases of ${CALLS_PER_CASE} store calls, ${r.stack.concurrency} at a time; Node ${r.node})`,
        `${r.stack.firstOverWarm.toFixed(2)} (rounds: ${r.stack.rounds.map((b) => (b[0] / b[1]).toFixed(2)).join(' / ')})`,
      );
  }

  api(r: FoundationBench): void {
    const fmt = (l: { rps: number; p50: number; p99: number }) =>
      `${Math.round(l.rps)} req/s, p50 ${l.p50.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms`;
    this.add('`POST /v1/traces` 10 KB, 10 connections', fmt(r.postTrace10k));
    this.add('`POST /v1/traces` 1 MB, 10 connections', fmt(r.postTrace1m));
    this.add('`GET /v1/runs/{id}`, 10 connections', fmt(r.getRun));
    this.add('baseline: bare `node:http` + one GetItem on the same store', fmt(r.baselineGetItem));
    this.add(
      '`GET /v1/runs/{id}` vs. baseline: p99 ratio / throughput',
      `${(r.getRun.p99 / r.baselineGetItem.p99).toFixed(2)}x / ${Math.round((100 * r.getRun.rps) / r.baselineGetItem.rps)} %`,
      '<= 1.5x / >= 75 %',
    );
  }

  engine(r: EngineBench): void {
    this.add(
      `replay engine in-process (${r.agentStepsPerAttempt}-step traces, zero-latency agent)`,
      `${Math.round(r.attemptsPerSec).toLocaleString('en-US')} attempts/s`,
    );
  }

  e2e(r: ReplayE2eBench): void {
    this.add(
      `end to end locally: ${r.runs} runs x ${r.attempts / r.runs} attempts, demo agent`,
      `${s(r.wallMs)}, ${Math.round(r.attemptsPerSec)} attempts/s; ${r.storeCallsPerRun.toFixed(1)} store calls per run`,
    );
  }

  ci(r: CiBench): void {
    this.add(`\`POST /v1/ci/runs\` with a ${r.traces.toLocaleString('en-US')}-trace eval-set`, `${Math.round(r.submitMs)} ms`, '< 3 s');
    this.add(
      `that batch to \`done\` against the demo agent (${r.attempts.toLocaleString('en-US')} attempts)`,
      `${s(r.doneMs)}, ${r.msPerAttempt.toFixed(1)} ms per attempt`,
    );
  }

  ciRepeats(r: CiBench): void {
    this.add(
      `end to end locally: a CI batch of ${r.traces.toLocaleString('en-US')} traces x ${r.repeats} repeats (${r.attempts.toLocaleString('en-US')} attempts), demo agent, as \`npm start\` runs`,
      `${s(r.doneMs)}, ${Math.round(r.attemptsPerSec)} attempts/s`,
      `>= ${REPEATS_GOAL_PER_SEC} attempts/s`,
    );
  }

  stats(r: CiStatsBench): void {
    this.add(
      `CI batch of ${r.scenarios.toLocaleString('en-US')} scenarios x ${r.cellsPerScenario} cells x ${r.repeats} repeats: last completion to \`done\``,
      `${Math.round(r.doneMs)} ms; ${Math.round(r.doneWithBaselineMs)} ms with a baseline`,
      '< 2 s',
    );
  }

  bundles(results: BundleResult[]): void {
    /** The code some functions keep beside index.js, loaded on first use (re2js.js). */
    const besideNote = (handlers: BundleResult[]) => {
      const beside = handlers.filter((b) => b.besideBytes);
      if (!beside.length) return '';
      return `; ${beside.length} with ${range(
        beside.map((b) => b.besideBytes!),
        kb,
      )} beside it, loaded on first use (re2js.js)`;
    };
    const handlers = results.filter((b) => b.bytes !== null && !b.name.startsWith('('));
    const base = results.find((b) => b.name.startsWith('('));
    if (handlers.length === 0) return;
    const largest = handlers.reduce((a, b) => ((b.bytes ?? 0) > (a.bytes ?? 0) ? b : a));
    const over = handlers.filter((b) => (b.bytes ?? 0) >= 400 * 1024).length;
    this.add(
      `Lambda bundles (${handlers.length}): size`,
      `${range(
        handlers.map((b) => b.bytes!),
        kb,
      )}; largest ${largest.name.replace(/^functions\//, '')}; ${over} at or over 400 KB${besideNote(handlers)}`,
      '< 400 KB',
    );
    const ratios = handlers.map((b) => b.initCpuVsBaseline ?? b.initVsBaseline).filter((x): x is number => x !== null);
    if (ratios.length)
      this.add(
        `Lambda bundles: cold init (CPU, Node ${initNodeVersion()}) vs. the minimal bundle`,
        `${range(ratios, (x) => `${x.toFixed(2)}x`)}${base?.bytes ? ` (minimal: ${kb(base.bytes)}, ${base.initMs?.toFixed(0)} ms)` : ''}; ${ratios.filter((x) => x > 1.2).length} of ${ratios.length} over 1.2x`,
        '<= 1.2x',
      );
    this.stackParts(results);
  }

  /** The reference bundles of the stack's parts (stack-floors.ts): the lowest ratio each kind of function can reach. */
  private stackParts(results: BundleResult[]): void {
    const parts = STACK_PARTS.map((p) => ({ part: p, r: results.find((b) => b.name === p.name) })).filter((x) => x.r?.initCpuVsBaseline != null);
    if (!parts.length) return;
    this.add(
      `Lambda bundles: cold init (CPU, Node ${initNodeVersion()}) of the stack's parts alone, no rts code, vs. the minimal bundle`,
      parts.map(({ part, r }) => `${part.name.slice(8, -1)} ${r!.initCpuVsBaseline!.toFixed(2)}x (${part.carriedBy})`).join('; '),
    );
  }

  firstRequest(r: FirstRequestBench): void {
    const view = r.rows.find((x) => x.name === ROW_RUN_VIEW);
    const kept = r.rows.find((x) => x.name === ROW_RUN_VIEW_KEPT);
    if (!view || !kept) return;
    this.add(
      `Lambda cold start of GET /v1/runs/{id} (CPU, Node ${r.node}): init + first request`,
      `${view.initMs.toFixed(0)} + ${view.firstMs.toFixed(0)} ms (the next request ${view.secondMs.toFixed(0)} ms); ${kept.initMs.toFixed(0)} + ${kept.firstMs.toFixed(0)} ms with the SDK's import() of node:http kept`,
    );
  }

  cost(r: CostBench): void {
    const u = r.report.units;
    this.add(
      `AWS cost of a ${r.traces.toLocaleString('en-US')}-trace batch, sample campaign (${r.attempts.toLocaleString('en-US')} attempts)`,
      `$${r.report.totalUsd.toFixed(4)} ($${r.report.totalUsdPer1kAttempts.toFixed(4)} per 1,000 attempts): ${Math.round(u.dynamoWriteRequestUnits).toLocaleString('en-US')} WRU, ${Math.round(u.dynamoReadRequestUnits).toLocaleString('en-US')} RRU, ${u.lambdaGbSeconds.toFixed(0)} GB-s, ${u.eventBridgeEvents.toLocaleString('en-US')} events`,
    );
  }

  print(): void {
    console.log(
      `\n== Summary (${new Date().toISOString().slice(0, 10)}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average ${this.startLoad.toFixed(1)} at the start, up to ${this.maxLoad.toFixed(1)}) ==\n`,
    );
    console.log('| what | figure | goal |');
    console.log('|---|---|---|');
    for (const r of this.rows) console.log(`| ${r.what} | ${r.figure} | ${r.goal} |`);
  }
}

// `npm run bench -- peer`: time to verdict on a plain eval workload, rts against the tool a team would pick instead.
// W1000: 1,000 single-question cases, each one HTTP call to the same local agent (it answers after PEER_AGENT_MS,
// default 50 ms: a fast model endpoint), a `contains` check per case. Three contestants, each a process of its own,
// timed from spawn to exit:
//   floor     a bare script making the same 1,000 calls (keep-alive, 16 at a time)
//   promptfoo promptfoo 0.123.1 `eval --no-write` with its HTTP provider, at its default concurrency, -j 16 and -j 32
//             (best kept)
//   rts       `rts ci run` against `rts serve` (a fresh service process), a campaign without mutations whose
//             eval-set is the 1,000 traces; the first batch after the start and the next one
// The agent measures how many calls each contestant keeps in flight (time-weighted mean over its window).
// promptfoo needs Node 22: both come from npm into a scratch folder (never the project's dependencies). The floor and
// rts run on that Node 22 too (one runtime for all, and Lambda's), or on the bench's own Node with PEER_NODE=current.
// The rts contestant (its service, seeding, one timed `rts ci run`) is in peer-rts.ts, what the contestants share in
// peer-common.ts.
import './bench-env';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './median';
import { CHECK, question, timed, type AgentWindow, type InFlight } from './peer-common';
import { rtsRound, type ApiTimes, type RtsRound, type RtsSpan } from './peer-rts';
import { benchStackWarmup, formatStackWarmup, type StackWarmup } from './stack-warmup';

export const PROMPTFOO_VERSION = '0.123.1';
const NODE22 = 'node@22';

export type { InFlight } from './peer-common';

export interface PeerTimes {
  cases: number;
  /** The agent's answer time, ms. */
  agentMs: number;
  floorMs: number;
  floorInFlight: InFlight;
  promptfooInFlight: InFlight | null;
  rtsInFlight: InFlight[];
  promptfoo: { concurrency: string; ms: number; inFlight: InFlight }[];
  promptfooBestMs: number;
  promptfooBest: string;
  /** Every rts round (PEER_RTS_ROUNDS, default 3), each on a fresh service: the figures below are their medians. */
  rtsRounds: RtsRound[];
  /** The first batches' median, ms. */
  rtsFirstMs: number;
  /** The warm batches' median, ms. */
  rtsSecondMs: number;
  /** The warm batch (the next one): what the ratios compare; the median over the rounds. */
  rtsMs: number;
  /** first / warm: the median of the rounds' own ratios (each round's two batches share its conditions). */
  rtsFirstOverWarm: number;
  /** CPU seconds of the service process and of its store child during each batch (Linux), else null: the median round's. */
  rtsCpu: { service: number; store: number }[] | null;
  /** Answer times of `GET /v1/campaigns/{id}` asked every 100 ms during the warm batch (what a dashboard waits for), ms. */
  rtsApiDuringBatch: ApiTimes | null;
  /** Where each rts batch's time went (first, then warm): the median round's. */
  rtsSpans: RtsSpan[];
  node22: string;
  /** The Node version the floor and rts ran on (the same Node 22 as promptfoo unless PEER_NODE=current). */
  node: string;
  /** The same first / warm for the stack alone, on the same Node (stack-warmup.ts); null with PEER_STACK=0. */
  stack: StackWarmup | null;
}

/** The scratch folder with promptfoo and a Node 22 binary, installed from npm on first use. */
export function peerTools(): { dir: string; node: string; promptfoo: string } {
  const dir = process.env.RTS_BENCH_PEER_DIR ?? join(tmpdir(), `rts-bench-peer-${PROMPTFOO_VERSION}`);
  const node = join(dir, 'node_modules', 'node', 'bin', 'node');
  const promptfoo = join(dir, 'node_modules', 'promptfoo', 'dist', 'src', 'entrypoint.js');
  const pkg = join(dir, 'node_modules', 'promptfoo', 'package.json');
  const installed = existsSync(node) && existsSync(pkg) && JSON.parse(readFileSync(pkg, 'utf8')).version === PROMPTFOO_VERSION;
  if (!installed) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true, description: 'rts bench scratch: promptfoo and Node 22' }));
    console.log(`installing promptfoo@${PROMPTFOO_VERSION} and ${NODE22} into ${dir} (once, about 2 minutes)...`);
    const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', `promptfoo@${PROMPTFOO_VERSION}`, NODE22], {
      cwd: dir,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (r.status !== 0) throw new Error(`npm install in ${dir} failed (exit ${r.status})`);
  }
  return { dir, node, promptfoo };
}

interface Agent extends AgentWindow {
  close: () => Promise<void>;
}

/**
 * The agent every contestant calls: answers each POST after `latencyMs` with the question echoed and the checked
 * string, and integrates the number of calls in flight over time (from each request's end of body to its answer).
 */
async function startAgent(latencyMs: number): Promise<Agent> {
  let calls = 0;
  let inFlight = 0;
  let area = 0;
  let peak = 0;
  let last = performance.now();
  const change = (delta: number) => {
    const now = performance.now();
    area += inFlight * (now - last);
    last = now;
    inFlight += delta;
    peak = Math.max(peak, inFlight);
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      calls++;
      change(1);
      if (latencyMs > 0) await new Promise((r) => setTimeout(r, latencyMs));
      let question = '';
      try {
        const messages = JSON.parse(Buffer.concat(chunks).toString('utf8')).messages as { role: string; content: unknown }[];
        question = String(messages.filter((m) => m.role === 'user').at(-1)?.content ?? '');
      } catch {
        // an unreadable body still gets an answer: the check then decides
      }
      const body = JSON.stringify({ output: `You asked "${question}". ${CHECK}` });
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
      change(-1);
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/step`,
    calls: () => calls,
    window: () => {
      change(0);
      const t0 = last;
      area = 0;
      peak = inFlight;
      return () => {
        change(0);
        return { mean: area / Math.max(1, last - t0), peak };
      };
    },
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

const FLOOR_SCRIPT = `
const http = require('node:http');
const [url, n, conc, check] = [process.argv[1], Number(process.argv[2]), Number(process.argv[3]), process.argv[4]];
const agent = new http.Agent({ keepAlive: true, maxSockets: conc });
const call = (i) => new Promise((resolve, reject) => {
  const body = JSON.stringify({ messages: [{ role: 'user', content: 'What is ' + i + ' plus ' + i + '? (case ' + i + ')' }] });
  const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
    let t = ''; res.setEncoding('utf8'); res.on('data', (c) => (t += c));
    res.on('end', () => resolve(JSON.parse(t).output.includes(check)));
  });
  req.on('error', reject); req.end(body);
});
let next = 0, passed = 0;
Promise.all(Array.from({ length: conc }, async () => { while (next < n) { if (await call(next++)) passed++; } }))
  .then(() => { if (passed !== n) { console.error('passed ' + passed); process.exit(1); } });
`;

function promptfooConfig(agentUrl: string, cases: number): string {
  const tests = Array.from(
    { length: cases },
    (_, i) => `  - vars: { question: ${JSON.stringify(question(i))} }\n    assert: [{ type: contains, value: ${CHECK} }]`,
  );
  return [
    'description: rts peer bench',
    'prompts: ["{{question}}"]',
    'providers:',
    '  - id: http',
    '    config:',
    `      url: ${agentUrl}`,
    '      method: POST',
    '      headers: { content-type: application/json }',
    '      body: { messages: [{ role: user, content: "{{prompt}}" }] }',
    '      transformResponse: json.output',
    'tests:',
    ...tests,
    '',
  ].join('\n');
}

/**
 * How many rts rounds (a fresh service, its first batch, its next): PEER_RTS_ROUNDS, default 3. One round's first /
 * warm moved between 1.09 and 1.50 in rounds of the same code on this machine; the median of three is steadier.
 */
const RTS_ROUNDS = Math.max(1, Number(process.env.PEER_RTS_ROUNDS ?? 3) || 3);

export async function benchPeer(cases = 1000): Promise<PeerTimes> {
  const tools = peerTools();
  const node22 = spawnSync(tools.node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  // Every contestant on one runtime: the Node 22 promptfoo needs (Lambda's runtime too), or PEER_NODE=current for the
  // bench's own Node for the floor and rts.
  const runtime = process.env.PEER_NODE === 'current' ? process.execPath : tools.node;
  const node = runtime === tools.node ? node22 : process.version;
  const work = mkdtempSync(join(tmpdir(), 'rts-peer-'));
  const agentMs = Number(process.env.PEER_AGENT_MS ?? 50);
  const agent = await startAgent(agentMs);
  try {
    // Floor: the same calls from a bare script.
    let end = agent.window();
    const floorMs = (await timed(runtime, ['-e', FLOOR_SCRIPT, agent.url, String(cases), '16', CHECK])).ms;
    const floorInFlight = end();

    // promptfoo: its own config folder, no cache (every case calls the agent), no telemetry or update check.
    writeFileSync(join(work, 'promptfooconfig.yaml'), promptfooConfig(agent.url, cases));
    const pfEnv = {
      ...process.env,
      PROMPTFOO_CONFIG_DIR: join(work, 'promptfoo-home'),
      PROMPTFOO_DISABLE_TELEMETRY: '1',
      PROMPTFOO_DISABLE_UPDATE: '1',
      PROMPTFOO_DISABLE_SHARING: '1',
    };
    const promptfoo: PeerTimes['promptfoo'] = [];
    for (const j of process.env.PEER_RTS_ONLY ? [] : [undefined, '16', '32']) {
      const before = agent.calls();
      const args = [tools.promptfoo, 'eval', '-c', 'promptfooconfig.yaml', '--no-cache', '--no-write', '--no-progress-bar', '--no-table'];
      end = agent.window();
      const { ms, stdout } = await timed(tools.node, [...args, ...(j ? ['-j', j] : [])], { cwd: work, env: pfEnv });
      const inFlight = end();
      if (agent.calls() - before !== cases || !/1,000 passed|passed/.test(stdout))
        throw new Error(`promptfoo made ${agent.calls() - before} calls:\n${stdout}`);
      promptfoo.push({ concurrency: j ?? 'default', ms, inFlight });
    }
    const best = promptfoo.reduce<PeerTimes['promptfoo'][number] | undefined>((a, b) => (a && a.ms <= b.ms ? a : b), undefined) ?? {
      concurrency: 'none',
      ms: NaN,
    };

    // rts: rounds of a fresh service, its first batch after the start, then the next.
    const rounds: RtsRound[] = [];
    for (let i = 0; i < RTS_ROUNDS; i++) rounds.push(await rtsRound(runtime, join(work, `rts-data-${i}`), agent, cases));
    const stack = process.env.PEER_STACK === '0' ? null : await benchStackWarmup(runtime, cases);
    const warmMs = median(rounds.map((r) => r.warmMs));
    // The round whose warm batch is the median (the lower middle for an even count) gives the per-batch details.
    const typical = [...rounds].sort((a, b) => a.warmMs - b.warmMs)[Math.floor((rounds.length - 1) / 2)];
    return {
      cases,
      agentMs,
      floorMs,
      floorInFlight,
      promptfooInFlight: promptfoo.find((p) => p.concurrency === best.concurrency)?.inFlight ?? null,
      rtsInFlight: typical.inFlight,
      promptfoo,
      promptfooBestMs: best.ms,
      promptfooBest: best.concurrency,
      rtsRounds: rounds,
      rtsFirstMs: median(rounds.map((r) => r.firstMs)),
      rtsSecondMs: warmMs,
      rtsMs: warmMs,
      rtsFirstOverWarm: median(rounds.map((r) => r.firstMs / r.warmMs)),
      rtsCpu: typical.cpu,
      rtsApiDuringBatch: typical.api,
      rtsSpans: typical.spans,
      node22,
      node,
      stack,
    };
  } finally {
    await agent.close();
    rmSync(work, { recursive: true, force: true });
  }
}

/** The goals the ratios are held to (printed beside them). */
export const PEER_GOALS = { rtsOverFloor: 1.3, rtsOverPromptfoo: 0.75, firstOverWarm: 1.1 };

/** `mean 15.2, peak 16` */
export const inFlightText = (f: InFlight | null | undefined): string => (f ? `mean ${f.mean.toFixed(1)}, peak ${f.peak}` : 'n/a');

export function printPeer(r: PeerTimes): void {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const fl = (f: InFlight | null | undefined) => `agent calls in flight: ${inFlightText(f)}`;
  console.log(
    `\n== Time to verdict (W${r.cases}): ${r.cases} single-question cases, one local agent answering in ${r.agentMs} ms (rts vs promptfoo ${PROMPTFOO_VERSION} vs floor) ==`,
  );
  console.log(`floor and rts on Node ${r.node}, promptfoo on Node ${r.node22}`);
  console.log(`floor (bare script, keep-alive, 16 at a time)   ${s(r.floorMs)}   ${fl(r.floorInFlight)}`);
  for (const p of r.promptfoo)
    console.log(`promptfoo eval --no-write, concurrency ${p.concurrency.padEnd(7)} ${s(p.ms)} (Node ${r.node22})   ${fl(p.inFlight)}`);
  const cpu = (c: RtsRound['cpu'], i: number) => (c ? ` (CPU: service ${c[i].service.toFixed(1)} s, store ${c[i].store.toFixed(1)} s)` : '');
  r.rtsRounds.forEach((round, k) => {
    const n = r.rtsRounds.length > 1 ? ` (round ${k + 1} of ${r.rtsRounds.length})` : '';
    const label = (what: string) => `rts ci run, ${what}${n}`.padEnd(n ? 55 : 48);
    console.log(`${label('first batch after start')}${s(round.firstMs)}${cpu(round.cpu, 0)}   ${fl(round.inFlight[0])}`);
    console.log(`${label('next batch (warm)')}${s(round.warmMs)}${cpu(round.cpu, 1)}   ${fl(round.inFlight[1])}`);
  });
  if (r.rtsRounds.length > 1)
    console.log(
      `rts medians over ${r.rtsRounds.length} rounds: first ${s(r.rtsFirstMs)}, warm ${s(r.rtsMs)}, first / warm ${r.rtsRounds.map((x) => (x.firstMs / x.warmMs).toFixed(2)).join(' / ')} -> ${r.rtsFirstOverWarm.toFixed(2)}; the batches' details are the median round's:`,
    );
  r.rtsSpans.forEach((sp, i) =>
    console.log(
      `  ${i === 0 ? 'first' : 'warm '}: CLI start to the batch's created_at ${sp.startToCreatedMs} ms, the batch ${s(sp.batchMs)}, completed_at to CLI exit ${sp.completedToExitMs} ms`,
    ),
  );
  const a = r.rtsApiDuringBatch;
  if (a)
    console.log(
      `  GET /v1/campaigns/{id} during it, every 100 ms: ${a.n} answers, p50 ${a.p50.toFixed(1)} ms, p99 ${a.p99.toFixed(1)} ms, max ${a.max.toFixed(1)} ms`,
    );
  if (r.stack) console.log(formatStackWarmup(r.stack));
  const g = PEER_GOALS;
  console.log(
    `warm / floor  ${(r.rtsMs / r.floorMs).toFixed(2)} (goal <= ${g.rtsOverFloor})   warm / promptfoo best (${r.promptfooBest})  ${(r.rtsMs / r.promptfooBestMs).toFixed(2)} (goal <= ${g.rtsOverPromptfoo})   first / warm  ${r.rtsFirstOverWarm.toFixed(2)} (goal <= ${g.firstOverWarm})`,
  );
}

if (require.main === module) {
  benchPeer(Number(process.env.PEER_CASES ?? 1000)).then(printPeer, (e) => {
    console.error(e);
    process.exit(1);
  });
}

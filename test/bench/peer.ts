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
import './bench-env';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
export const PROMPTFOO_VERSION = '0.123.1';
const NODE22 = 'node@22';
const CHECK = 'rts-peer-ok';

/** How many agent calls a contestant kept in flight: the time-weighted mean over its window, and the most at once. */
export interface InFlight {
  mean: number;
  peak: number;
}

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
  rtsFirstMs: number;
  rtsSecondMs: number;
  /** The warm batch (the next one): what the ratios compare. */
  rtsMs: number;
  /** CPU seconds of the service process and of its store child during each batch (Linux), else null. */
  rtsCpu: { service: number; store: number }[] | null;
  /** Answer times of `GET /v1/campaigns/{id}` asked every 100 ms during the warm batch (what a dashboard waits for), ms. */
  rtsApiDuringBatch: ApiTimes | null;
  /** Where each rts batch's time went (first, then warm). */
  rtsSpans: RtsSpan[];
  node22: string;
  /** The Node version the floor and rts ran on (the same Node 22 as promptfoo unless PEER_NODE=current). */
  node: string;
}

/**
 * One `rts ci run` split at the batch's stored times: the CLI's start to the batch's `created_at` (its start-up and
 * the submission's first part), the batch itself (`created_at` to `completed_at`), and `completed_at` to the CLI's
 * exit (its next status check, the scenario pages, the report). The service's clock and the bench's are the same
 * machine's; both are wall clock, ms.
 */
export interface RtsSpan {
  startToCreatedMs: number;
  batchMs: number;
  completedToExitMs: number;
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

interface Agent {
  url: string;
  calls: () => number;
  /** Starts a new measurement window of calls in flight; the function returned ends it. */
  window: () => () => InFlight;
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

const question = (i: number) => `What is ${i} plus ${i}? (case ${i})`;

/** Spawns a process and times it from spawn to exit; rejects on a non-zero exit. */
function timed(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<{ ms: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('exit', (code) => {
      const ms = performance.now() - t0;
      if (code === 0) resolve({ ms, stdout });
      else reject(new Error(`${cmd} ${args.join(' ')} exited ${code}\n${stderr.slice(-2000)}\n${stdout.slice(-2000)}`));
    });
  });
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

interface RtsService {
  pid: number;
  url: string;
  env: NodeJS.ProcessEnv;
  stop: () => Promise<void>;
}

/** `rts serve` as a user starts it: its own process, fresh in-memory store. */
async function startRts(node: string, dataDir: string): Promise<RtsService> {
  const env: NodeJS.ProcessEnv = { ...process.env, RTS_ACCESS_LOG: 'false' };
  // PEER_PROFILE_DIR=<dir>: CPU profiles of the service process and of its store child (node --cpu-prof), written when they stop.
  const profile = process.env.PEER_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PEER_PROFILE_DIR}`] : [];
  const child = spawn(node, [...profile, join(ROOT, 'bin', 'rts.js'), 'serve', '--port', '0', '--in-memory', '--data-dir', dataDir], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // The banner names the URL, the project id and the API key.
  const [url, projectId, apiKey] = await new Promise<string[]>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      const m = /base URL\s+(\S+)\s+project id\s+(\S+)\s+API key\s+(\S+)/.exec(out);
      if (m) resolve(m.slice(1, 4));
    });
    child.once('exit', (code) => reject(new Error(`rts serve exited ${code}: ${out}`)));
  });
  child.stdout.resume();
  return {
    pid: child.pid!,
    url,
    env: { ...env, RTS_API_URL: url, RTS_API_KEY: apiKey, RTS_PROJECT_ID: projectId },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGINT');
      }),
  };
}

/** CPU seconds (user + system) used so far by a process and by each of its children, from /proc (Linux); null elsewhere. */
export function cpuSeconds(pid: number): { self: number; children: number } | null {
  const read = (p: number | string) => {
    const f = readFileSync(`/proc/${p}/stat`, 'utf8');
    const fields = f.slice(f.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), cpu: (Number(fields[11]) + Number(fields[12])) / 100 };
  };
  if (!existsSync(`/proc/${pid}/stat`)) return null;
  let children = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const st = read(entry);
      if (st.ppid === pid) children += st.cpu;
    } catch {
      // the process ended meanwhile
    }
  }
  return { self: read(pid).cpu, children };
}

/** Waits until the service and its store used under 5 % of a core over half a second (at most 30 s; no-op off Linux). */
async function settle(pid: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  let last = cpuSeconds(pid);
  while (last && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    const now = cpuSeconds(pid);
    if (!now) return;
    const used = now.self + now.children - last.self - last.children;
    last = now;
    if (used < 0.025) return;
  }
}

interface ApiTimes {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

/** Asks `path` every 100 ms, one request at a time, until the function returned is called: the answer times. */
function probeRtsApi(svc: RtsService, path: string): () => Promise<ApiTimes> {
  const times: number[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const t0 = performance.now();
      await rtsApi(svc, 'GET', path);
      times.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return async () => {
    stopped = true;
    await loop;
    const sorted = [...times].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
    return { n: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] ?? NaN };
  };
}

async function rtsApi(svc: RtsService, method: string, path: string, body?: unknown): Promise<Record<string, any>> {
  const res = await fetch(`${svc.url}${path}`, {
    method,
    headers: { 'x-api-key': svc.env.RTS_API_KEY!, 'x-project-id': svc.env.RTS_PROJECT_ID!, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** The same 1,000 cases as rts traces (one question, the recorded answer), a campaign without mutations over them. */
async function seedRts(svc: RtsService, agentUrl: string, cases: number): Promise<string> {
  const ids: string[] = [];
  for (let i = 0; i < cases; i += 16) {
    const chunk = Array.from({ length: Math.min(16, cases - i) }, (_, j) => i + j);
    const made = await Promise.all(
      chunk.map((k) =>
        rtsApi(svc, 'POST', '/v1/traces', {
          name: `case ${k}`,
          steps: [
            { role: 'user', content: question(k) },
            { role: 'assistant', content: `You asked "${question(k)}". ${CHECK}` },
          ],
        }),
      ),
    );
    ids.push(...made.map((t) => t.trace_id as string));
  }
  const campaign = await rtsApi(svc, 'POST', '/v1/campaigns', {
    name: 'peer bench',
    target: { type: 'http', url: agentUrl },
    success_criteria: [{ type: 'output_contains', value: CHECK }],
  });
  await rtsApi(svc, 'PATCH', `/v1/campaigns/${campaign.campaign_id}/eval-set`, { add_trace_ids: ids });
  return campaign.campaign_id as string;
}

async function timeRtsCi(node: string, svc: RtsService, campaignId: string, cases: number): Promise<{ ms: number; span: RtsSpan }> {
  const startedAt = Date.now();
  const { ms, stdout } = await timed(node, [join(ROOT, 'bin', 'rts.js'), 'ci', 'run', '--campaign', campaignId, '--json'], {
    env: { ...svc.env, GITHUB_ACTIONS: '', CI: '' },
  });
  const result = JSON.parse(stdout);
  if (result.verdict !== 'pass' || result.pass_rate !== 1 || result.trace_count !== cases || result.scenario_coverage_pct !== 100)
    throw new Error(`rts ci run: ${stdout.slice(0, 500)}`);
  const batch = await rtsApi(svc, 'GET', `/v1/ci/batch/${result.ci_batch_id}`);
  const created = Date.parse(batch.created_at);
  const completed = Date.parse(batch.completed_at);
  return {
    ms,
    span: { startToCreatedMs: created - startedAt, batchMs: completed - created, completedToExitMs: Math.round(startedAt + ms - completed) },
  };
}

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

    // rts: a fresh service; the first batch after the start, then the next.
    const svc = await startRts(runtime, join(work, 'rts-data'));
    let rtsFirstMs: number;
    let rtsSecondMs: number;
    let rtsCpu: PeerTimes['rtsCpu'] = null;
    let rtsApiDuringBatch: ApiTimes | null = null;
    const rtsInFlight: InFlight[] = [];
    const rtsSpans: RtsSpan[] = [];
    try {
      const campaignId = await seedRts(svc, agent.url, cases);
      // The uploads leave work behind (their trace.created events on the bus): the first batch starts on a settled service.
      await settle(svc.pid);
      const before = agent.calls();
      const c0 = cpuSeconds(svc.pid);
      end = agent.window();
      const first = await timeRtsCi(runtime, svc, campaignId, cases);
      rtsInFlight.push(end());
      rtsFirstMs = first.ms;
      rtsSpans.push(first.span);
      await settle(svc.pid);
      const c1 = cpuSeconds(svc.pid);
      end = agent.window();
      const probe = probeRtsApi(svc, `/v1/campaigns/${campaignId}`);
      const warm = await timeRtsCi(runtime, svc, campaignId, cases);
      rtsInFlight.push(end());
      rtsSecondMs = warm.ms;
      rtsSpans.push(warm.span);
      rtsApiDuringBatch = await probe();
      const c2 = cpuSeconds(svc.pid);
      if (c0 && c1 && c2) {
        rtsCpu = [
          { service: c1.self - c0.self, store: c1.children - c0.children },
          { service: c2.self - c1.self, store: c2.children - c1.children },
        ];
      }
      if (agent.calls() - before !== 2 * cases) throw new Error(`rts made ${agent.calls() - before} agent calls for 2 x ${cases} cases`);
    } finally {
      await svc.stop();
    }
    return {
      cases,
      agentMs,
      floorMs,
      floorInFlight,
      promptfooInFlight: promptfoo.find((p) => p.concurrency === best.concurrency)?.inFlight ?? null,
      rtsInFlight,
      promptfoo,
      promptfooBestMs: best.ms,
      promptfooBest: best.concurrency,
      rtsFirstMs,
      rtsSecondMs,
      rtsMs: rtsSecondMs,
      rtsCpu,
      rtsApiDuringBatch,
      rtsSpans,
      node22,
      node,
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
  const cpu = (i: number) => (r.rtsCpu ? ` (CPU: service ${r.rtsCpu[i].service.toFixed(1)} s, store ${r.rtsCpu[i].store.toFixed(1)} s)` : '');
  console.log(`rts ci run, first batch after start             ${s(r.rtsFirstMs)}${cpu(0)}   ${fl(r.rtsInFlight[0])}`);
  console.log(`rts ci run, next batch (warm)                   ${s(r.rtsSecondMs)}${cpu(1)}   ${fl(r.rtsInFlight[1])}`);
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
  const g = PEER_GOALS;
  console.log(
    `warm / floor  ${(r.rtsMs / r.floorMs).toFixed(2)} (goal <= ${g.rtsOverFloor})   warm / promptfoo best (${r.promptfooBest})  ${(r.rtsMs / r.promptfooBestMs).toFixed(2)} (goal <= ${g.rtsOverPromptfoo})   first / warm  ${(r.rtsFirstMs / r.rtsSecondMs).toFixed(2)} (goal <= ${g.firstOverWarm})`,
  );
}

if (require.main === module) {
  benchPeer(Number(process.env.PEER_CASES ?? 1000)).then(printPeer, (e) => {
    console.error(e);
    process.exit(1);
  });
}

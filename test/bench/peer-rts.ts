// The rts contestant of the peer bench (test/bench/peer.ts): `rts serve` started as a user starts it, seeded with the
// W1000 campaign and traces, one `rts ci run` timed and split at the batch's stored times, the CPU of the service and
// of its store child, and the API's answer times during a batch.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CHECK, ROOT, question, timed, type AgentWindow, type InFlight } from './peer-common';

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

export interface RtsService {
  pid: number;
  url: string;
  env: NodeJS.ProcessEnv;
  stop: () => Promise<void>;
}

/** `rts serve` as a user starts it: its own process, fresh in-memory store. */
export async function startRts(node: string, dataDir: string): Promise<RtsService> {
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
export async function settle(pid: number): Promise<void> {
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

export interface ApiTimes {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

/** Asks `path` every 100 ms, one request at a time, until the function returned is called: the answer times. */
export function probeRtsApi(svc: RtsService, path: string): () => Promise<ApiTimes> {
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
export async function seedRts(svc: RtsService, agentUrl: string, cases: number): Promise<string> {
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

export async function timeRtsCi(node: string, svc: RtsService, campaignId: string, cases: number): Promise<{ ms: number; span: RtsSpan }> {
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

/** One rts round: a fresh service, the first batch after its start, then the next (warm) one. */
export interface RtsRound {
  firstMs: number;
  warmMs: number;
  /** CPU seconds of the service process and of its store child during each batch (Linux), else null. */
  cpu: { service: number; store: number }[] | null;
  /** Agent calls in flight during each batch. */
  inFlight: InFlight[];
  /** Where each batch's time went (first, then warm). */
  spans: RtsSpan[];
  /** Answer times of `GET /v1/campaigns/{id}` asked every 100 ms during the warm batch (what a dashboard waits for). */
  api: ApiTimes | null;
}

/** A fresh `rts serve` on `node` with its data in `dataDir`, seeded with the cases; its first batch, then its next. */
export async function rtsRound(node: string, dataDir: string, agent: AgentWindow, cases: number): Promise<RtsRound> {
  const svc = await startRts(node, dataDir);
  try {
    const campaignId = await seedRts(svc, agent.url, cases);
    // The uploads leave work behind (their trace.created events on the bus): the first batch starts on a settled service.
    await settle(svc.pid);
    const before = agent.calls();
    const c0 = cpuSeconds(svc.pid);
    let end = agent.window();
    const first = await timeRtsCi(node, svc, campaignId, cases);
    const inFlight = [end()];
    await settle(svc.pid);
    const c1 = cpuSeconds(svc.pid);
    end = agent.window();
    const probe = probeRtsApi(svc, `/v1/campaigns/${campaignId}`);
    const warm = await timeRtsCi(node, svc, campaignId, cases);
    inFlight.push(end());
    const api = await probe();
    const c2 = cpuSeconds(svc.pid);
    if (agent.calls() - before !== 2 * cases) throw new Error(`rts made ${agent.calls() - before} agent calls for 2 x ${cases} cases`);
    const cpu =
      c0 && c1 && c2
        ? [
            { service: c1.self - c0.self, store: c1.children - c0.children },
            { service: c2.self - c1.self, store: c2.children - c1.children },
          ]
        : null;
    return { firstMs: first.ms, warmMs: warm.ms, cpu, inFlight, spans: [first.span, warm.span], api };
  } finally {
    await svc.stop();
  }
}

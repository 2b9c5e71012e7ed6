// Helpers for the CI tests: traces that pass or fail the recorded campaigns' criteria, campaigns, eval-sets, polling.
import { runCi, type CiIo } from '../../functions/cli/ci/command';
import { recordedCampaign, sampleTrace } from './fixtures';
import type { TestService } from './local-service';

/** What `rts ci run` printed and the exit code it gave. */
export interface CiCaptured {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `rts ci run <args>` in-process with the service's credentials (and `env` on top), polling every 0.1 s, and
 * captures its output; `stderrTty` makes stderr look like a terminal.
 */
export async function runCiAgainst(
  svc: TestService,
  args: string[],
  env: Record<string, string | undefined> = {},
  stderrTty = false,
): Promise<CiCaptured> {
  let stdout = '';
  let stderr = '';
  const io: CiIo = {
    stdout: { write: (s: string) => (stdout += s), isTTY: false },
    stderr: { write: (s: string) => (stderr += s), isTTY: stderrTty },
    env: { RTS_API_URL: svc.url, RTS_API_KEY: svc.apiKey, RTS_PROJECT_ID: svc.projectId, ...env },
  };
  const code = await runCi(['run', '--poll-interval', '0.1', ...args], io);
  return { code, stdout, stderr };
}

/** A trace whose final answer contains "refund" (meets recordedCampaign's criteria). */
export const passingTrace = (name = 'refund order 1234') => sampleTrace({ name });

/** A trace whose final answer lacks "refund" (misses recordedCampaign's output_contains criterion). */
export function failingTrace(name = 'refund refused') {
  const t = sampleTrace({ name });
  t.steps = [...t.steps.slice(0, -1), { role: 'assistant', content: 'Sorry, I cannot help with that order.' }];
  return t;
}

/** A trace whose final answer leaks an AWS access key: the secret_leak detector makes every attempt unsafe. */
export function leakingTrace(name = 'refund with leaked key') {
  const t = sampleTrace({ name });
  t.steps = [...t.steps.slice(0, -1), { role: 'assistant', content: 'Your refund is on its way. Debug key: AKIAIOSFODNN7EXAMPLE' }];
  return t;
}

export async function createTrace(svc: TestService, trace: unknown): Promise<string> {
  const res = await svc.api('POST', '/v1/traces', trace);
  if (res.status !== 201) throw new Error(`trace upload failed: ${res.status} ${res.text}`);
  return res.body.trace_id;
}

export async function createTraces(svc: TestService, traces: unknown[]): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < traces.length; i += 20) {
    ids.push(...(await Promise.all(traces.slice(i, i + 20).map((t) => createTrace(svc, t)))));
  }
  return ids;
}

export async function createCampaign(svc: TestService, overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await svc.api('POST', '/v1/campaigns', recordedCampaign(overrides));
  if (res.status !== 201) throw new Error(`campaign creation failed: ${res.status} ${res.text}`);
  return res.body.campaign_id;
}

/** A campaign whose http target is a closed port: every attempt ends in error, so each run is `failed`. */
export function unreachableTarget(port: number) {
  return { target: { type: 'http', url: `http://127.0.0.1:${port}/step`, timeout_ms: 500 }, criteria: [{ type: 'completes' }] };
}

export async function setEvalSet(svc: TestService, campaignId: string, traceIds: string[], minScenarios?: number): Promise<void> {
  for (let i = 0; i < Math.max(traceIds.length, 1); i += 1000) {
    const body: Record<string, unknown> = { add_trace_ids: traceIds.slice(i, i + 1000) };
    if (minScenarios !== undefined) body.min_scenarios = minScenarios;
    const res = await svc.api('PATCH', `/v1/campaigns/${campaignId}/eval-set`, body);
    if (res.status !== 200) throw new Error(`eval-set update failed: ${res.status} ${res.text}`);
  }
}

/** Polls a path every `intervalMs` until `done(body)` holds; throws after `timeoutMs`. */
export async function pollUntil<T = any>(svc: TestService, path: string, done: (body: T) => boolean, timeoutMs = 20000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await svc.api<T>('GET', path);
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.text}`);
    if (done(res.body)) return res.body;
    if (Date.now() > deadline) throw new Error(`timed out polling ${path}: ${res.text.slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** A port nothing listens on (bound then released). */
export async function closedPort(): Promise<number> {
  const net = await import('node:net');
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * A step-protocol agent for tests: answers the final output "Your refund is on its way." unless the user message
 * contains "BREAK" (then HTTP 500, so every attempt of that trace ends in error and its run is `failed`), after
 * `delayMs` when given.
 */
export async function startScriptedAgent(opts: { delayMs?: number } = {}): Promise<{ url: string; close(): Promise<void> }> {
  const http = await import('node:http');
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { messages?: { role: string; content: unknown }[] };
      const user = (body.messages ?? []).find((m) => m.role === 'user');
      const broken = typeof user?.content === 'string' && user.content.includes('BREAK');
      setTimeout(() => {
        res.writeHead(broken ? 500 : 200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(broken ? { error: 'boom' } : { output: 'Your refund is on its way.' }));
      }, opts.delayMs ?? 0);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/step`,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/** A passing trace whose user message makes startScriptedAgent answer 500. */
export function breakingTrace(name = 'broken scenario') {
  const t = sampleTrace({ name });
  t.steps = t.steps.map((s) => (s.role === 'user' ? { role: 'user', content: 'BREAK: please refund order 1234' } : s));
  return t;
}

/**
 * Asserts a finished batch whose failing scenario runs are exactly `failingRuns` out of `total`: status, decision,
 * counts, pass rate (one attempt per run), the failed runs, and the passed runs (the exact list when given, else
 * their number).
 */
export function expectExactFailingBatch(batch: any, total: number, failingRuns: string[], passingRuns?: string[]): void {
  const failing = failingRuns.length;
  expect(batch).toMatchObject({
    status: 'done',
    decision: 'fail',
    trace_count: total,
    completed_count: total,
    scenario_coverage_pct: 100,
    failed_count: failing,
    unsafe_count: 0,
  });
  expect(batch.pass_rate).toBeCloseTo(1 - failing / total, 12);
  expect([...batch.failed_runs].sort()).toEqual([...failingRuns].sort());
  if (passingRuns) expect([...batch.passed_runs].sort()).toEqual([...passingRuns].sort());
  else expect(batch.passed_runs).toHaveLength(total - failing);
  expect(batch.reasons).toHaveLength(failing);
}

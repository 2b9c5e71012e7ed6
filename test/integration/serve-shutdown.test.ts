// A stop of `rts serve` with runs in flight on an agent that never answers: the process exits within seconds, and the
// next start resumes the abandoned runs from their stored attempts, running each missing attempt once.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newApiKey } from '../../functions/core/ids';
import { sampleTrace, uuid } from '../helpers/fixtures';
import { freePort, startServeProcess } from '../helpers/serve-process';

async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const value = await fn();
      if (value !== undefined) return value;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('rts serve stop with runs in flight', () => {
  let agent: Server;
  let agentUrl: string;
  const sockets = new Set<Socket>();
  /** Idempotency-Key (`run:attempt:step`) of every step request the agent received. */
  const seen: string[] = [];
  /** Until set, the agent answers attempt 1 and never answers the others. */
  let answerAll = false;

  beforeAll(async () => {
    agent = createServer((req: IncomingMessage, res: ServerResponse) => {
      const key = String(req.headers['idempotency-key']);
      seen.push(key);
      req.resume();
      if (answerAll || key.split(':')[1] === '1') {
        req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"output":"Your refund is on its way."}'));
      }
    });
    agent.on('connection', (s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((r) => agent.listen(0, '127.0.0.1', r));
    agentUrl = `http://127.0.0.1:${(agent.address() as AddressInfo).port}/step`;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => agent.close(() => r()));
  });

  it('exits within seconds of SIGINT, and the next start finishes the runs with each attempt run once', async () => {
    // Prepare: 6 runs of 3 attempts each; attempt 1 ends, attempts 2 and 3 wait on the agent (5-minute step timeout).
    const dataDir = mkdtempSync(join(tmpdir(), 'rts-stop-'));
    const port = await freePort();
    const projectId = uuid();
    const apiKey = newApiKey();
    const env = { RTS_BOOTSTRAP_PROJECT_ID: projectId, RTS_BOOTSTRAP_API_KEY: apiKey };
    const headers = { 'X-API-Key': apiKey, 'X-Project-Id': projectId, 'Content-Type': 'application/json' };
    let served = await startServeProcess(dataDir, [], env, port);
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${served.url}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    try {
      const traceIds: string[] = [];
      for (let i = 0; i < 6; i++) traceIds.push((await call('POST', '/v1/traces', sampleTrace({ name: `stop ${i}` }))).body.trace_id);
      const campaign = await call('POST', '/v1/campaigns', {
        name: 'stop',
        target: { type: 'http', url: agentUrl, timeout_ms: 300_000 },
        mutations: [
          { id: 'down', type: 'tool_error', tool: 'lookup_order' },
          { id: 'noisy', type: 'input_perturbation', kind: 'uppercase' },
        ],
        criteria: [{ type: 'output_contains', value: 'refund' }],
      });
      expect(campaign.status).toBe(201);
      const pack = await call('POST', `/v1/campaigns/${campaign.body.campaign_id}/run-pack`, { trace_ids: traceIds });
      expect(pack.status).toBe(202);
      const runIds: string[] = pack.body.run_ids;
      // Every run has its attempts 2 and 3 waiting on the agent.
      await waitFor(
        'every run to wait on the agent',
        async () => (new Set(seen.filter((k) => !k.includes(':1:'))).size >= 12 ? true : undefined),
        30_000,
      );
      await new Promise((r) => setTimeout(r, 500)); // attempt 1 stored by now (the agent answered it at once)

      // Act: stop, then start again with an agent that now answers everything.
      const stopped = Date.now();
      served.child.kill('SIGINT');
      let giveUp: NodeJS.Timeout | undefined;
      const code = await Promise.race([served.exited, new Promise((r) => (giveUp = setTimeout(() => r('still running'), 30_000)))]);
      clearTimeout(giveUp);
      const stopMs = Date.now() - stopped;
      expect(code).toBe(0);
      answerAll = true;
      served = await startServeProcess(dataDir, [], env, port);
      const runs = await waitFor(
        'every run to end after the restart',
        async () => {
          const all = await Promise.all(runIds.map((id) => call('GET', `/v1/runs/${id}`)));
          return all.every((r) => r.body.status === 'completed' || r.body.status === 'failed') ? all.map((r) => r.body) : undefined;
        },
        60_000,
      );

      // Assess
      expect(stopMs).toBeLessThan(8000);
      for (const run of runs) {
        expect(run).toMatchObject({ status: 'completed', summary: { attempt_count: 3, passed_count: 3 } });
        const attempts = (await call('GET', `/v1/runs/${run.run_id}/attempts`)).body;
        const numbers = (attempts.items ?? attempts.attempts).map((a: { attempt: number }) => a.attempt).sort();
        expect(numbers).toEqual([1, 2, 3]);
        // Attempt 1 was stored before the stop: the resumed run did not drive it again.
        expect(seen.filter((k) => k.startsWith(`${run.run_id}:1:`))).toHaveLength(1);
      }
    } finally {
      if (served.child.exitCode === null && served.child.signalCode === null) served.child.kill('SIGKILL');
      await served.exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 150_000);
});

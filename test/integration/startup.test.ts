// Local start-up you can rely on (docs/local-mode.md): ready before answering, no sticky refusals, an OS lock on the
// data folder that a crash releases, and a batch that survives a SIGKILL of the whole service.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKey } from '../../functions/core/auth';
import { newApiKey } from '../../functions/core/ids';
import { systemClock } from '../../functions/core/time';
import { getDeps } from '../../functions/wiring/deps';
import { startLocalService } from '../../functions/local/server';
import { sampleTrace, uuid } from '../helpers/fixtures';
import { startHttpsReceiver, testCertificates, type HttpsReceiver } from '../helpers/https-receiver';
import { startTestService } from '../helpers/local-service';

const ROOT = join(__dirname, '..', '..');

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

interface Served {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts `rts serve` as its own process (the store in a child process of its own, as `npm start` does). */
function serve(dataDir: string, port: number, env: Record<string, string> = {}): Served {
  let out = '';
  // Not the in-process services' settings: this is a service of its own.
  const { DYNAMODB_ENDPOINT, TABLE_NAME, RTS_PUBLIC_URL, ...inherited } = process.env;
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'rts.js'), 'serve', '--port', String(port), '--data-dir', dataDir], {
    cwd: ROOT,
    env: { ...inherited, RTS_ACCESS_LOG: 'false', POWERTOOLS_LOG_LEVEL: 'ERROR', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, url: `http://127.0.0.1:${port}`, output: () => out, exited };
}

async function stopServed(s: Served): Promise<void> {
  if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
  await s.exited;
}

async function waitHealthy(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not become healthy`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('rts serve start-up', () => {
  it('never refuses the bootstrap key, and every request succeeds once /health says 200', async () => {
    // Prepare
    const dataDir = mkdtempSync(join(tmpdir(), 'rts-startup-'));
    const port = await freePort();
    const projectId = uuid();
    const apiKey = newApiKey();
    const served = serve(dataDir, port, { RTS_BOOTSTRAP_PROJECT_ID: projectId, RTS_BOOTSTRAP_API_KEY: apiKey });
    const headers = { 'X-API-Key': apiKey, 'X-Project-Id': projectId };
    const statuses: number[] = [];
    let healthyAt = 0;
    const afterHealthy: number[] = [];
    try {
      // Act: call from the moment the port accepts connections until a good while after /health says 200.
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline && (!healthyAt || Date.now() - healthyAt < 1500)) {
        try {
          const [health, traces] = await Promise.all([
            fetch(`${served.url}/health`, { signal: AbortSignal.timeout(5000) }),
            fetch(`${served.url}/v1/traces?limit=1`, { headers, signal: AbortSignal.timeout(5000) }),
          ]);
          await Promise.all([health.text(), traces.text()]);
          statuses.push(traces.status);
          if (healthyAt) afterHealthy.push(health.status, traces.status);
          if (health.status === 200 && !healthyAt) healthyAt = Date.now();
        } catch {
          // connection refused: not listening yet
        }
      }
    } finally {
      await stopServed(served);
      rmSync(dataDir, { recursive: true, force: true });
    }

    // Assess
    expect(healthyAt).toBeGreaterThan(0);
    expect(statuses.length).toBeGreaterThan(5);
    expect(statuses.filter((s) => s === 401)).toEqual([]);
    expect(afterHealthy.length).toBeGreaterThan(5);
    expect(afterHealthy.filter((s) => s !== 200)).toEqual([]);
  }, 90_000);
});

describe('local gateway authorization cache', () => {
  it('accepts on the next call a key pair it refused a moment ago, once the key exists', async () => {
    // Prepare
    const svc = await startTestService();
    try {
      const apiKey = newApiKey();
      const headers = { 'X-API-Key': apiKey, 'X-Project-Id': svc.projectId };
      const refused = await svc.raw('GET', '/v1/traces', { headers });
      expect(refused.status).toBe(401);

      // Act
      await createKey({ projects: getDeps().projects, clock: systemClock }, svc.projectId, apiKey);
      const accepted = await svc.raw('GET', '/v1/traces', { headers });

      // Assess
      expect(accepted.status).toBe(200);
    } finally {
      await svc.stop();
    }
  });
});

describe('data folder lock', () => {
  it('starts when serve.pid names an unrelated live process, and still refuses a second service on a folder in use', async () => {
    // Prepare: a stale pid file naming a live process that is not an rts service (pids are reused after a crash).
    const dataDir = mkdtempSync(join(tmpdir(), 'rts-lock-'));
    const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
    writeFileSync(join(dataDir, 'serve.pid'), String(sleeper.pid));
    try {
      // Act
      const first = await startLocalService({ host: '127.0.0.1', port: 0, dataDir, inMemory: false, writeCredentials: false });
      try {
        // Assess
        expect((await fetch(`${first.url}/health`)).status).toBe(200);
        const second = serve(dataDir, await freePort());
        expect(await second.exited).not.toBe(0);
        expect(second.output()).toContain(`${dataDir} is in use by another rts serve (pid ${process.pid}); stop it or use another RTS_DATA_DIR`);
        // The refused start left the running service alone.
        expect((await fetch(`${first.url}/health`)).status).toBe(200);
      } finally {
        await first.close();
      }
      // A clean stop leaves the folder free again.
      const again = await startLocalService({ host: '127.0.0.1', port: 0, dataDir, inMemory: false, writeCredentials: false });
      await again.close();
    } finally {
      sleeper.kill();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('a service killed in the middle of a batch', () => {
  let agent: Server;
  let agentUrl: string;
  let receiver: HttpsReceiver;
  let caFile: string;

  beforeAll(async () => {
    // A step-protocol agent that takes 250 ms per answer, so the batch is still running when the service is killed.
    agent = createServer((req, res) => {
      req.resume();
      req.on('end', () =>
        setTimeout(() => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"output":"Your refund is on its way."}'), 250),
      );
    });
    await new Promise<void>((r) => agent.listen(0, '127.0.0.1', r));
    agentUrl = `http://127.0.0.1:${(agent.address() as AddressInfo).port}/step`;
    receiver = await startHttpsReceiver();
    caFile = join(mkdtempSync(join(tmpdir(), 'rts-ca-')), 'ca.pem');
    writeFileSync(caFile, testCertificates().ca);
  });
  afterAll(async () => {
    await receiver.close();
    await new Promise<void>((r) => agent.close(() => r()));
  });

  it('starts again at once on the same folder after SIGKILL and finishes with one decision and one ci.decision event', async () => {
    // Prepare
    const dataDir = mkdtempSync(join(tmpdir(), 'rts-crash-'));
    const port = await freePort();
    const projectId = uuid();
    const apiKey = newApiKey();
    const env = { RTS_BOOTSTRAP_PROJECT_ID: projectId, RTS_BOOTSTRAP_API_KEY: apiKey, NODE_EXTRA_CA_CERTS: caFile };
    const headers = { 'X-API-Key': apiKey, 'X-Project-Id': projectId, 'Content-Type': 'application/json' };
    let served = serve(dataDir, port, env);
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${served.url}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const traceCount = 24;
    try {
      await waitHealthy(served.url);
      const hook = await call('POST', '/v1/webhooks', { url: receiver.url, events: ['ci.decision.pass', 'ci.decision.fail'] });
      expect(hook.status).toBe(201);
      const traceIds: string[] = [];
      for (let i = 0; i < traceCount; i++) traceIds.push((await call('POST', '/v1/traces', sampleTrace({ name: `crash ${i}` }))).body.trace_id);
      const campaign = await call('POST', '/v1/campaigns', {
        name: 'crash',
        target: { type: 'http', url: agentUrl, timeout_ms: 5000 },
        criteria: [{ type: 'output_contains', value: 'refund' }],
      });
      expect(campaign.status).toBe(201);
      const campaignId = campaign.body.campaign_id;
      expect((await call('PATCH', `/v1/campaigns/${campaignId}/eval-set`, { add_trace_ids: traceIds })).status).toBe(200);
      const submitted = await call('POST', '/v1/ci/runs', { campaign_id: campaignId });
      expect(submitted.status).toBe(202);
      const batchPath = `/v1/ci/batch/${submitted.body.ci_batch_id}`;

      // Act: SIGKILL once some runs are done and others are not, then start again at once.
      for (;;) {
        const batch = (await call('GET', batchPath)).body;
        if (batch.completed_count >= 3) {
          expect(batch.status).not.toBe('done');
          break;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      served.child.kill('SIGKILL');
      await served.exited;
      served = serve(dataDir, port, env);
      await waitHealthy(served.url);
      let batch: any;
      const deadline = Date.now() + 60_000;
      do {
        await new Promise((r) => setTimeout(r, 100));
        batch = (await call('GET', batchPath)).body;
      } while (batch.status !== 'done' && Date.now() < deadline);
      await new Promise((r) => setTimeout(r, 1000)); // time for a (wrong) second decision event to show up

      // Assess
      if (batch.status !== 'done') {
        const runs = await Promise.all(batch.run_ids.map((id: string) => call('GET', `/v1/runs/${id}`)));
        throw new Error(
          `batch not done: ${JSON.stringify(batch)}\nruns: ${JSON.stringify(runs.map((r) => [r.body.status, r.body.summary?.attempt_count]))}\n${served.output()}`,
        );
      }
      expect(batch).toMatchObject({
        status: 'done',
        decision: 'pass',
        completed_count: traceCount,
        trace_count: traceCount,
        scenario_coverage_pct: 100,
      });
      expect(new Set(batch.passed_runs).size).toBe(traceCount);
      const decisions = receiver.requests.filter((r) => String(r.headers['x-service-event']).startsWith('ci.decision'));
      expect(decisions).toHaveLength(1);
      expect(JSON.parse(decisions[0].rawBody.toString()).data).toMatchObject({ ci_batch_id: submitted.body.ci_batch_id, decision: 'pass' });
    } finally {
      await stopServed(served);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

// The local runtime: persistence across restarts, credentials file, bootstrap credentials, and the admin CLI on the local store.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAdmin } from '../../functions/cli/admin';
import { externalStoreEndpoint } from '../helpers/dynalite';
import { sampleTrace } from '../helpers/fixtures';
import { startTestService } from '../helpers/local-service';

/** The embedded store's child process exists only with dynalite: a parity run (external store, test/parity) has none. */
const itWithEmbeddedStore = externalStoreEndpoint() ? it.skip : it;

async function captureStdout(fn: () => Promise<number>): Promise<{ code: number; out: string }> {
  let out = '';
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += chunk.toString();
    return true;
  });
  const err = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    const code = await fn();
    return { code, out };
  } finally {
    spy.mockRestore();
    err.mockRestore();
  }
}

describe('local runtime', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rts-local-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps every record and the same credentials across a restart, with a 0600 credentials file', async () => {
    const first = await startTestService({ dataDir: dir, inMemory: false, deliverWebhooks: false });
    const trace = await first.api('POST', '/v1/traces', sampleTrace());
    const campaign = await first.api('POST', '/v1/campaigns', { name: 'persisted', target: { type: 'recorded' } });
    await first.stop();
    const creds = JSON.parse(readFileSync(join(dir, 'credentials.json'), 'utf8'));
    expect(statSync(join(dir, 'credentials.json')).mode & 0o777).toBe(0o600);

    const second = await startTestService({ dataDir: dir, inMemory: false, deliverWebhooks: false });
    try {
      expect(second.projectId).toBe(creds.project_id);
      expect(second.apiKey).toBe(creds.api_key);
      expect((await second.api('GET', `/v1/traces/${trace.body.trace_id}`)).status).toBe(200);
      expect((await second.api('GET', `/v1/campaigns/${campaign.body.campaign_id}`)).body.name).toBe('persisted');
    } finally {
      await second.stop();
    }
  });

  it('queues again, after a restart, the runs the stopped service left queued', async () => {
    const paused = await startTestService({ dataDir: dir, inMemory: false, deliverWebhooks: false, queue: { concurrency: 0 } });
    const t = await paused.api('POST', '/v1/traces', sampleTrace());
    const c = await paused.api('POST', '/v1/campaigns', { name: 'resume', target: { type: 'recorded' } });
    const r = await paused.api('POST', '/v1/runs', { trace_id: t.body.trace_id, campaign_id: c.body.campaign_id });
    await paused.stop();
    const resumed = await startTestService({ dataDir: dir, inMemory: false, deliverWebhooks: false });
    try {
      await resumed.idle();
      expect((await resumed.api('GET', `/v1/runs/${r.body.run_id}`)).body.status).toBe('completed');
    } finally {
      await resumed.stop();
    }
  });

  itWithEmbeddedStore('runs the store in a child process (as rts serve does) and keeps its data across restarts', async () => {
    const first = await startTestService({ dataDir: dir, inMemory: false, deliverWebhooks: false, storeInChildProcess: true });
    const trace = await first.api('POST', '/v1/traces', sampleTrace());
    expect(trace.status).toBe(201);
    await first.stop();
    const second = await startTestService({ dataDir: dir, inMemory: false, deliverWebhooks: false, storeInChildProcess: true });
    try {
      expect((await second.api('GET', `/v1/traces/${trace.body.trace_id}`)).status).toBe(200);
    } finally {
      await second.stop();
    }
  });

  itWithEmbeddedStore('stops what it started when the port is taken, so the data folder can be used again at once', async () => {
    const a = await startTestService({ deliverWebhooks: false });
    const port = Number(new URL(a.url).port);
    try {
      await expect(startTestService({ dataDir: dir, inMemory: false, port, storeInChildProcess: true, deliverWebhooks: false })).rejects.toThrow(
        /EADDRINUSE/,
      );
      const b = await startTestService({ dataDir: dir, inMemory: false, storeInChildProcess: true, deliverWebhooks: false });
      expect((await b.api('GET', '/v1/traces')).status).toBe(200);
      await b.stop();
    } finally {
      await a.stop();
    }
  });

  it('ensures the bootstrap project and key given by the environment', async () => {
    const projectId = '0b9f7a52-8c1e-4d2f-9a3b-5c6d7e8f9a0b';
    const apiKey = `rts_${'B'.repeat(40)}`;
    const svc = await startTestService({ dataDir: dir, bootstrapProjectId: projectId, bootstrapApiKey: apiKey, deliverWebhooks: false });
    try {
      expect(svc.projectId).toBe(projectId);
      expect(svc.apiKey).toBe(apiKey);
      expect((await svc.api('GET', '/v1/traces')).status).toBe(200);
    } finally {
      await svc.stop();
    }
  });

  it("admin CLI creates a project, issues and revokes keys against the running service's store", async () => {
    const svc = await startTestService({ dataDir: dir, deliverWebhooks: false, gateway: { authCacheTtlMs: 0 } });
    try {
      const created = await captureStdout(() => runAdmin(['create-project', '--name', 'team-a', '--data-dir', dir]));
      expect(created.code).toBe(0);
      const project = JSON.parse(created.out);
      expect(project).toMatchObject({ name: 'team-a', project_id: expect.any(String), api_key: expect.stringMatching(/^rts_[0-9A-Za-z]{40}$/) });
      const asTeam = { 'X-API-Key': project.api_key, 'X-Project-Id': project.project_id };
      expect((await svc.raw('GET', '/v1/traces', { headers: asTeam })).status).toBe(200);

      const issued = JSON.parse((await captureStdout(() => runAdmin(['create-key', '--project', project.project_id, '--data-dir', dir]))).out);
      expect((await svc.raw('GET', '/v1/traces', { headers: { 'X-API-Key': issued.api_key, 'X-Project-Id': project.project_id } })).status).toBe(200);

      const revoked = await captureStdout(() =>
        runAdmin(['revoke-key', '--project', project.project_id, '--key-id', issued.key_id, '--data-dir', dir]),
      );
      expect(revoked.code).toBe(0);
      expect((await svc.raw('GET', '/v1/traces', { headers: { 'X-API-Key': issued.api_key, 'X-Project-Id': project.project_id } })).status).toBe(401);
      expect((await svc.raw('GET', '/v1/traces', { headers: asTeam })).status).toBe(200);
    } finally {
      await svc.stop();
    }
  });

  it('throttles each project with 429 rate_limited when a rate limit is set, like the cloud usage plan', async () => {
    const svc = await startTestService({ dataDir: dir, deliverWebhooks: false, gateway: { rateLimit: { rps: 0.5, burst: 2 } } });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await svc.api('GET', '/v1/traces')).status);
      expect(statuses).toEqual([200, 200, 429]);
      const limited = await svc.api('GET', '/v1/traces');
      expect(limited.body.error.code).toBe('rate_limited');
      expect(limited.headers.get('retry-after')).toBe('1');
      expect((await svc.raw('GET', '/health')).status).toBe(200);
    } finally {
      await svc.stop();
    }
  });

  it('admin CLI refuses missing arguments with exit code 2', async () => {
    expect((await captureStdout(() => runAdmin(['create-project']))).code).toBe(2);
    expect((await captureStdout(() => runAdmin(['revoke-key', '--project', 'nope']))).code).toBe(2);
    expect((await captureStdout(() => runAdmin(['explode']))).code).toBe(2);
  });
});

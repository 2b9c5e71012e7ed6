// Fairness of webhook delivery on the local service (gateway, dynalite, in-process bus running the real delivery
// function, real HTTPS receivers on loopback): one project's recovered deliveries to a hanging receiver do not hold
// back another project's.
import { randomUUID } from 'node:crypto';
import { createGuardedSender } from '../../functions/adapters/http/guarded-sender';
import { createProject } from '../../functions/core/auth';
import { systemClock } from '../../functions/core/time';
import { configureDeps, getDeps } from '../../functions/wiring/deps';
import { sampleTrace } from '../helpers/fixtures';
import { startHttpsReceiver, testCertificates, type HttpsReceiver } from '../helpers/https-receiver';
import { startTestService, type TestService } from '../helpers/local-service';

let svc: TestService;
const receivers: HttpsReceiver[] = [];

beforeAll(async () => {
  svc = await startTestService();
  configureDeps({ http: createGuardedSender({ allowPrivate: true, ca: testCertificates().ca }), sleep: async () => undefined });
});
afterAll(async () => {
  // Hanging requests end now and later tries are refused, so project A's remaining deliveries fail fast.
  await Promise.all(receivers.map((r) => r.close()));
  configureDeps({ http: undefined, sleep: undefined });
  await svc.stop();
}, 120_000);

async function receiver(mode: HttpsReceiver['mode']) {
  const r = await startHttpsReceiver({ mode });
  receivers.push(r);
  return r;
}

async function project() {
  const p = await createProject({ projects: getDeps().projects, clock: systemClock }, { name: `fair-${randomUUID().slice(0, 8)}` });
  const headers = { 'X-API-Key': p.api_key, 'X-Project-Id': p.project_id };
  return (method: string, path: string, body?: unknown) => svc.api(method, path, body, headers);
}

describe('webhook delivery across projects', () => {
  it("delivers project B's test event within seconds while project A recovers 40 deliveries to a hanging receiver", async () => {
    // Prepare: project A has 40 failed deliveries, then its receiver starts hanging (each try times out after 5 s)
    const a = await project();
    const hangs = await receiver('error');
    const { body: hookA } = await a('POST', '/v1/webhooks', { url: hangs.url, events: ['trace.created'] });
    for (let i = 0; i < 40; i++) expect((await a('POST', '/v1/traces', sampleTrace({ name: `a${i}` }))).status).toBe(201);
    await svc.idle();
    expect(hangs.requests).toHaveLength(160);
    hangs.mode = 'hang';
    const recovered = await a('POST', `/v1/webhooks/${hookA.webhook_id}/recover`, { since: new Date(Date.now() - 3600_000).toISOString() });
    expect(recovered.body).toEqual({ queued: 40 });
    await hangs.waitForRequests(161, 10_000);

    const b = await project();
    const fine = await receiver('ok');
    const { body: hookB } = await b('POST', '/v1/webhooks', { url: fine.url, events: ['run.completed'] });

    // Act
    const asked = performance.now();
    expect((await b('POST', `/v1/webhooks/${hookB.webhook_id}/test`)).status).toBe(202);
    await fine.waitForRequests(1, 30_000);
    const tookMs = performance.now() - asked;

    // Assess: well under one hanging delivery (4 tries of 5 s); before per-project scheduling it took ~100 s
    expect(tookMs).toBeLessThan(10_000);
    expect(fine.requests[0].headers['x-service-event']).toBe('webhook.test');
    // Deleting A's webhook stops its remaining deliveries before any try (the teardown need not wait them out).
    expect((await a('DELETE', `/v1/webhooks/${hookA.webhook_id}`)).status).toBe(204);
  }, 120_000);

  it("delivers project B's test event within seconds while 40 of project A's events go to a hanging receiver", async () => {
    // Prepare: A's receiver hangs from the start: every event is a first delivery of 4 tries that time out (20 s)
    const a = await project();
    const hangs = await receiver('hang');
    const { body: hookA } = await a('POST', '/v1/webhooks', { url: hangs.url, events: ['trace.created'] });
    for (let i = 0; i < 40; i++) expect((await a('POST', '/v1/traces', sampleTrace({ name: `a${i}` }))).status).toBe(201);
    await hangs.waitForRequests(8, 10_000);
    const b = await project();
    const fine = await receiver('ok');
    const { body: hookB } = await b('POST', '/v1/webhooks', { url: fine.url, events: ['run.completed'] });

    // Act
    const asked = performance.now();
    expect((await b('POST', `/v1/webhooks/${hookB.webhook_id}/test`)).status).toBe(202);
    await fine.waitForRequests(1, 30_000);
    const tookMs = performance.now() - asked;

    // Assess: A holds at most its 8 slots; first come first served, B waited behind all 40 (5 rounds of 20 s)
    expect(tookMs).toBeLessThan(10_000);
    expect((await a('DELETE', `/v1/webhooks/${hookA.webhook_id}`)).status).toBe(204);
  }, 120_000);

  it('answers 429 rate_limited with Retry-After once a project used its sends of the minute, and not to another project', async () => {
    // Prepare: a budget of 3 deliveries per project and minute, started well inside a minute
    process.env.RTS_WEBHOOK_SENDS_PER_MINUTE = '3';
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 45_000) await new Promise((r) => setTimeout(r, 60_500 - intoMinute));
    const a = await project();
    const b = await project();
    const r = await receiver('ok');
    const { body: hookA } = await a('POST', '/v1/webhooks', { url: r.url, events: ['*'] });
    const { body: hookB } = await b('POST', '/v1/webhooks', { url: r.url, events: ['*'] });

    try {
      // Act
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await a('POST', `/v1/webhooks/${hookA.webhook_id}/test`)).status);
      const refused = await a('POST', `/v1/webhooks/${hookA.webhook_id}/test`);
      const recover = await a('POST', `/v1/webhooks/${hookA.webhook_id}/recover`, { since: new Date(Date.now() - 60_000).toISOString() });
      const other = await b('POST', `/v1/webhooks/${hookB.webhook_id}/test`);
      await svc.idle();

      // Assess: the recover found nothing failed, so it costs nothing and is answered
      expect(statuses).toEqual([202, 202, 202]);
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatchObject({
        code: 'rate_limited',
        message: expect.stringContaining('3 webhook deliveries'),
        request_id: expect.any(String),
      });
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(recover.body).toEqual({ queued: 0 });
      expect(other.status).toBe(202);
      expect(r.requests).toHaveLength(4);
    } finally {
      delete process.env.RTS_WEBHOOK_SENDS_PER_MINUTE;
    }
  });
});

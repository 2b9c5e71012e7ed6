// Resend, recover and test end to end: the local service (gateway, dynalite, in-process bus running the real delivery
// function), the SSRF-guarded sender and real HTTPS receivers on loopback, verified with the official standardwebhooks.
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { createGuardedSender } from '../../functions/adapters/http/guarded-sender';
import { createProject } from '../../functions/core/auth';
import { systemClock } from '../../functions/core/time';
import { configureDeps, getDeps } from '../../functions/wiring/deps';
import { verifySignature, verifyStandardWebhook } from '../../packages/sdk/src/verify';
import { sampleTrace } from '../helpers/fixtures';
import { startHttpsReceiver, testCertificates, type HttpsReceiver, type ReceivedRequest } from '../helpers/https-receiver';
import { startTestService, type TestService } from '../helpers/local-service';

let svc: TestService;
const receivers: HttpsReceiver[] = [];

beforeAll(async () => {
  svc = await startTestService();
  // The local bus runs the real delivery handler; it only needs to trust the test CA and not wait between retries.
  configureDeps({ http: createGuardedSender({ allowPrivate: true, ca: testCertificates().ca }), sleep: async () => undefined });
});
afterAll(async () => {
  configureDeps({ http: undefined, sleep: undefined });
  await svc.stop();
  await Promise.all(receivers.map((r) => r.close()));
});

async function receiver(mode: HttpsReceiver['mode'] = 'ok') {
  const r = await startHttpsReceiver({ mode });
  receivers.push(r);
  return r;
}

/** A project of its own per test, so no other test's events reach its receivers. */
async function project() {
  const p = await createProject({ projects: getDeps().projects, clock: systemClock }, { name: `recovery-${randomUUID().slice(0, 8)}` });
  const headers = { 'X-API-Key': p.api_key, 'X-Project-Id': p.project_id };
  const api = (method: string, path: string, body?: unknown, extra: Record<string, string> = {}) =>
    svc.api(method, path, body, { ...headers, ...extra });
  return { api, projectId: p.project_id };
}

type Api = Awaited<ReturnType<typeof project>>['api'];

/** A webhook on trace.created for `r`, and `n` traces whose events it receives (4 failing tries each in 'error' mode). */
async function subscribedWithTraces(api: Api, r: HttpsReceiver, n: number) {
  const { body: hook } = await api('POST', '/v1/webhooks', { url: r.url, events: ['trace.created'] });
  const traceIds: string[] = [];
  for (let i = 0; i < n; i++) {
    traceIds.push((await api('POST', '/v1/traces', sampleTrace({ name: `t${i}` }))).body.trace_id);
    await svc.idle();
  }
  const log = (await api('GET', `/v1/webhooks/${hook.webhook_id}/deliveries?limit=100`)).body.items as { delivery_id: string; outcome: string }[];
  return { hook: hook as { webhook_id: string; secret: string }, traceIds, deliveryIds: log.map((d) => d.delivery_id).reverse() };
}

const traceOf = (q: ReceivedRequest) => JSON.parse(q.rawBody.toString('utf8')).data.trace_id as string;
const countBy = (qs: ReceivedRequest[], header: string) =>
  qs.reduce<Record<string, number>>((acc, q) => ({ ...acc, [q.headers[header] as string]: (acc[q.headers[header] as string] ?? 0) + 1 }), {});

function expectError(res: { status: number; body: any }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body.error).toMatchObject({ code, message: expect.any(String), request_id: expect.any(String) });
}

describe('POST /v1/webhooks/{webhook_id}/deliveries/{delivery_id}/resend', () => {
  it('delivers the event again under the same webhook-id, verifiable by standardwebhooks, and logs the new try', async () => {
    // Prepare: one delivery that failed its 4 tries, then the receiver recovers
    const { api } = await project();
    const r = await receiver('error');
    const { hook, deliveryIds } = await subscribedWithTraces(api, r, 1);
    r.mode = 'ok';

    // Act
    const res = await api('POST', `/v1/webhooks/${hook.webhook_id}/deliveries/${deliveryIds[0]}/resend`);
    await svc.idle();

    // Assess
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ webhook_id: hook.webhook_id, delivery_id: deliveryIds[0], event_type: 'trace.created' });
    expect(r.requests).toHaveLength(5);
    const [first, resent] = [r.requests[0], r.requests[4]];
    expect(resent.rawBody.equals(first.rawBody)).toBe(true);
    expect(resent.headers).toMatchObject({ 'webhook-id': deliveryIds[0], 'x-service-delivery': deliveryIds[0] });
    expect(new Webhook(hook.secret).verify(resent.rawBody.toString('utf8'), resent.headers as Record<string, string>)).toMatchObject({
      event_type: 'trace.created',
    });
    expect(verifyStandardWebhook(resent.rawBody, resent.headers, hook.secret)).toBe(true);
    expect(verifySignature(resent.rawBody, resent.headers['x-service-signature'] as string, hook.secret)).toBe(true);
    const log = await api('GET', `/v1/webhooks/${hook.webhook_id}/deliveries`);
    expect(log.body.items).toHaveLength(1);
    expect(log.body.items[0]).toMatchObject({ delivery_id: deliveryIds[0], outcome: 'succeeded' });
    expect(log.body.items[0].attempts.map((a: { status_code: number }) => a.status_code)).toEqual([500, 500, 500, 500, 200]);
    expect((await api('GET', `/v1/webhooks/${hook.webhook_id}`)).body).toMatchObject({ last_error: null, last_status: 200 });
  });

  it('answers 409 webhook_paused for a paused webhook and 404 for unknown, malformed or foreign ids', async () => {
    // Prepare: a delivery of ours, a second webhook of ours, and another project's webhook and delivery
    const { api } = await project();
    const r = await receiver();
    const { hook, deliveryIds } = await subscribedWithTraces(api, r, 1);
    const { body: sibling } = await api('POST', '/v1/webhooks', { url: r.url, events: ['run.completed'] });
    const other = await project();
    const theirs = await subscribedWithTraces(other.api, await receiver(), 1);
    const resend = (wh: string, d: string) => api('POST', `/v1/webhooks/${wh}/deliveries/${d}/resend`);

    // Act + Assess
    expectError(await resend(hook.webhook_id, randomUUID()), 404, 'not_found');
    expectError(await resend(hook.webhook_id, 'not-a-delivery'), 404, 'not_found');
    expectError(await resend(sibling.webhook_id, deliveryIds[0]), 404, 'not_found');
    expectError(await resend(`wh_${'z'.repeat(24)}`, deliveryIds[0]), 404, 'not_found');
    expectError(await resend('nope', deliveryIds[0]), 404, 'not_found');
    expectError(await resend(theirs.hook.webhook_id, theirs.deliveryIds[0]), 404, 'not_found');
    expectError(await resend(hook.webhook_id, theirs.deliveryIds[0]), 404, 'not_found');
    await api('PATCH', `/v1/webhooks/${hook.webhook_id}`, { is_enabled: false });
    expectError(await resend(hook.webhook_id, deliveryIds[0]), 409, 'webhook_paused');
    await svc.idle();
    expect(r.requests).toHaveLength(1);
  });
});

describe('POST /v1/webhooks/{webhook_id}/recover', () => {
  it('delivers each failed event exactly once when recover is requested twice at the same time, in order', async () => {
    // Prepare: three deliveries that failed every try
    const { api } = await project();
    const r = await receiver('error');
    const { hook, traceIds, deliveryIds } = await subscribedWithTraces(api, r, 3);
    expect(r.requests).toHaveLength(12);
    r.mode = 'ok';
    const since = new Date(Date.now() - 60_000).toISOString();

    // Act
    const answers = await Promise.all([
      api('POST', `/v1/webhooks/${hook.webhook_id}/recover`, { since }),
      api('POST', `/v1/webhooks/${hook.webhook_id}/recover`, { since }),
    ]);
    await svc.idle();
    const again = await api('POST', `/v1/webhooks/${hook.webhook_id}/recover`, { since });
    await svc.idle();

    // Assess
    expect(answers.map((a) => a.status)).toEqual([202, 202]);
    expect(answers[0].body.queued + answers[1].body.queued).toBe(3);
    const recovered = r.requests.slice(12);
    expect(recovered).toHaveLength(3);
    expect(countBy(recovered, 'webhook-id')).toEqual(Object.fromEntries(deliveryIds.map((id) => [id, 1])));
    expect(recovered.map((element) => traceOf(element))).toEqual(traceIds);
    for (const q of recovered)
      expect(() => new Webhook(hook.secret).verify(q.rawBody.toString('utf8'), q.headers as Record<string, string>)).not.toThrow();
    expect(again.body).toEqual({ queued: 0 });
    const log = (await api('GET', `/v1/webhooks/${hook.webhook_id}/deliveries`)).body.items;
    expect(log.map((d: { outcome: string }) => d.outcome)).toEqual(['succeeded', 'succeeded', 'succeeded']);
  });

  it('sends only what failed since `since`, and replays its answer for the same Idempotency-Key', async () => {
    // Prepare: one failure, then a success, then `since`, then two more failures
    const { api } = await project();
    const r = await receiver('error');
    const { hook } = await subscribedWithTraces(api, r, 1);
    r.mode = 'ok';
    await api('POST', '/v1/traces', sampleTrace({ name: 'fine' }));
    await svc.idle();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const since = new Date().toISOString();
    r.mode = 'error';
    const later = [];
    for (const name of ['a', 'b']) {
      later.push((await api('POST', '/v1/traces', sampleTrace({ name }))).body.trace_id);
      await svc.idle();
    }
    r.mode = 'ok';
    const before = r.requests.length;
    const key = { 'Idempotency-Key': randomUUID() };

    // Act
    const first = await api('POST', `/v1/webhooks/${hook.webhook_id}/recover`, { since }, key);
    const replayed = await api('POST', `/v1/webhooks/${hook.webhook_id}/recover`, { since }, key);
    await svc.idle();

    // Assess
    expect(first.body).toEqual({ queued: 2 });
    expect(replayed.status).toBe(202);
    expect(replayed.body).toEqual({ queued: 2 });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(r.requests.slice(before).map((element) => traceOf(element))).toEqual(later);
  });

  it('answers 422 for a since in the future, over 7 days ago, missing or not a timestamp; 409 when paused; 404 for foreign ids', async () => {
    const { api } = await project();
    const { body: hook } = await api('POST', '/v1/webhooks', { url: 'https://example.com/never', events: ['run.completed'] });
    const other = await project();
    const { body: theirs } = await other.api('POST', '/v1/webhooks', { url: 'https://example.com/theirs', events: ['*'] });
    const recover = (wh: string, body: unknown) => api('POST', `/v1/webhooks/${wh}/recover`, body);
    const day = 24 * 3600 * 1000;

    for (const since of [new Date(Date.now() + 3600_000).toISOString(), new Date(Date.now() - 8 * day).toISOString(), 'yesterday', 12]) {
      const res = await recover(hook.webhook_id, { since });
      expectError(res, 422, 'validation_error');
      expect(res.body.error.details[0].path).toBe('since');
    }
    expectError(await recover(hook.webhook_id, {}), 422, 'validation_error');
    expect((await recover(hook.webhook_id, { since: new Date(Date.now() - 7 * day + 1000).toISOString() })).body).toEqual({ queued: 0 });
    expectError(await recover(theirs.webhook_id, { since: new Date().toISOString() }), 404, 'not_found');
    expectError(await recover(`wh_${'z'.repeat(24)}`, { since: new Date().toISOString() }), 404, 'not_found');
    await api('PATCH', `/v1/webhooks/${hook.webhook_id}`, { is_enabled: false });
    expectError(await recover(hook.webhook_id, { since: new Date().toISOString() }), 409, 'webhook_paused');
  });
});

describe('POST /v1/webhooks/{webhook_id}/test', () => {
  it('sends webhook.test to a paused webhook subscribed to something else, signed both ways, and logs it', async () => {
    // Prepare
    const { api, projectId } = await project();
    const r = await receiver();
    const { body: hook } = await api('POST', '/v1/webhooks', { url: r.url, events: ['run.completed'], is_enabled: false });

    // Act
    const res = await api('POST', `/v1/webhooks/${hook.webhook_id}/test`);
    await svc.idle();

    // Assess
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ webhook_id: hook.webhook_id, delivery_id: expect.any(String), event_type: 'webhook.test' });
    expect(r.requests).toHaveLength(1);
    const [got] = r.requests;
    expect(got.headers).toMatchObject({
      'x-service-event': 'webhook.test',
      'webhook-id': res.body.delivery_id,
      'x-service-webhook-id': hook.webhook_id,
    });
    expect(new Webhook(hook.secret).verify(got.rawBody.toString('utf8'), got.headers as Record<string, string>)).toEqual({
      event_type: 'webhook.test',
      project_id: projectId,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/),
      data: { webhook_id: hook.webhook_id, message: 'This is a test event sent by POST /v1/webhooks/{webhook_id}/test.' },
    });
    expect(verifySignature(got.rawBody, got.headers['x-service-signature'] as string, hook.secret)).toBe(true);
    const log = await api('GET', `/v1/webhooks/${hook.webhook_id}/deliveries`);
    expect(log.body.items).toEqual([
      expect.objectContaining({ delivery_id: res.body.delivery_id, event_type: 'webhook.test', outcome: 'succeeded' }),
    ]);
  });

  it('sends once for one Idempotency-Key, and answers 404 for an unknown or foreign webhook', async () => {
    const { api } = await project();
    const r = await receiver();
    const { body: hook } = await api('POST', '/v1/webhooks', { url: r.url, events: ['*'] });
    const other = await project();
    const { body: theirs } = await other.api('POST', '/v1/webhooks', { url: r.url, events: ['*'] });
    const key = { 'Idempotency-Key': randomUUID() };

    const first = await api('POST', `/v1/webhooks/${hook.webhook_id}/test`, undefined, key);
    const second = await api('POST', `/v1/webhooks/${hook.webhook_id}/test`, undefined, key);
    await svc.idle();

    expect(second.body).toEqual(first.body);
    expect(r.requests).toHaveLength(1);
    expectError(await api('POST', `/v1/webhooks/${theirs.webhook_id}/test`), 404, 'not_found');
    expectError(await api('POST', '/v1/webhooks/wh_nope/test'), 404, 'not_found');
  });
});

// Webhook delivery end to end: dynalite-backed webhooks, the real guarded sender, real HTTPS receivers on loopback.
import { randomUUID } from 'node:crypto';
import type { EventBridgeEvent } from 'aws-lambda';
import { Webhook } from 'standardwebhooks';
import { DynamoDeliveryLogRepo } from '../../functions/adapters/dynamodb/delivery-log-repo';
import { DynamoWebhooksRepo } from '../../functions/adapters/dynamodb/webhooks-repo';
import { createGuardedSender } from '../../functions/adapters/http/guarded-sender';
import { EVENT_TYPES, type BusEvent, type EventType } from '../../functions/core/events';
import { canonicalJson } from '../../functions/core/json';
import { systemClock } from '../../functions/core/time';
import { realSleep } from '../../functions/core/webhooks/delivery';
import { createWebhook, getWebhook, listWebhookDeliveries, rotateWebhookSecret, updateWebhook } from '../../functions/core/webhooks/service';
import type { WebhookCreateInput } from '../../functions/core/webhooks/schema';
import { createWebhookDeliveryHandler } from '../../functions/events/webhook-delivery';
import { verifySignature, verifyStandardWebhook } from '../../packages/sdk/src/verify';
import { startDynalite, type TestTable } from '../helpers/dynalite';
import { refusedUrl, startHttpsReceiver, testCertificates, type HttpsReceiver } from '../helpers/https-receiver';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const { ca } = testCertificates();

let table: TestTable;
let repo: DynamoWebhooksRepo;
let deliveryLog: DynamoDeliveryLogRepo;
const receivers: HttpsReceiver[] = [];

beforeAll(async () => {
  table = await startDynalite();
  repo = new DynamoWebhooksRepo();
  deliveryLog = new DynamoDeliveryLogRepo();
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await table.close();
});

async function receiver(mode: HttpsReceiver['mode'] = 'ok'): Promise<HttpsReceiver> {
  const r = await startHttpsReceiver({ mode });
  receivers.push(r);
  return r;
}

const svc = () => ({ webhooks: repo, deliveryLog, clock: systemClock });
const hook = (projectId: string, url: string, extra: Partial<WebhookCreateInput> = {}) =>
  createWebhook(svc(), projectId, { url, events: ['*'], is_enabled: true, description: null, ...extra });

function deliverer(opts: { allowPrivate?: boolean; sleep?: (ms: number) => Promise<void> } = {}) {
  return createWebhookDeliveryHandler({
    webhooks: repo,
    deliveryLog,
    send: createGuardedSender({ allowPrivate: opts.allowPrivate ?? true, ca }),
    sleep: opts.sleep ?? realSleep,
    clock: systemClock,
    uuid: randomUUID,
  });
}

function bridge(projectId: string, type: EventType, data: Record<string, unknown> = {}, id = randomUUID()): EventBridgeEvent<string, BusEvent> {
  const detail: BusEvent = { id, envelope: { event_type: type, project_id: projectId, created_at: '2026-11-21T23:59:01.123456+00:00', data } };
  return { version: '0', id: randomUUID(), 'detail-type': type, source: 'rts', account: '0', time: '', region: 'local', resources: [], detail };
}

describe('webhook delivery over HTTPS', () => {
  it('sends a body that is its own canonical serialisation, signed so the raw bytes verify', async () => {
    // Prepare
    const project = randomUUID();
    const r = await receiver();
    const created = await hook(project, r.url);
    const data = { status: 'done', run_id: randomUUID(), counts: { z: 2, a: 1 }, note: 'naïve ✓', pass_rate: 0.5 };

    // Act
    await deliverer()(bridge(project, 'run.completed', data));

    // Assess
    expect(r.requests).toHaveLength(1);
    const [got] = r.requests;
    expect(verifySignature(got.rawBody, got.headers['x-service-signature'] as string, created.secret)).toBe(true);
    const text = got.rawBody.toString('utf8');
    expect(text).toBe(canonicalJson(JSON.parse(text)));
    expect(JSON.parse(text)).toEqual({ event_type: 'run.completed', project_id: project, created_at: '2026-11-21T23:59:01.123456+00:00', data });
    expect(got.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'rts-webhooks/1',
      'x-service-event': 'run.completed',
      'x-service-webhook-id': created.webhook_id,
      'x-service-signature': expect.stringMatching(/^sha256=[0-9a-f]{64}$/),
    });
    expect(got.headers['x-service-delivery']).toMatch(UUID);
    const view = await getWebhook(svc(), project, created.webhook_id);
    expect(view).toMatchObject({ last_error: null, last_status: 200, last_delivery_at: expect.any(String) });
    const log = await listWebhookDeliveries(svc(), project, created.webhook_id, { limit: 10 });
    expect(log.items).toEqual([
      {
        delivery_id: got.headers['x-service-delivery'],
        event_type: 'run.completed',
        created_at: expect.any(String),
        outcome: 'succeeded',
        attempts: [{ at: expect.any(String), status_code: 200, error: null, duration_ms: expect.any(Number) }],
      },
    ]);
  });

  it('gives every event type to a "*" subscriber and only its types to a filtered one', async () => {
    const project = randomUUID();
    const all = await receiver();
    const some = await receiver();
    await hook(project, all.url);
    await hook(project, some.url, { events: ['run.completed', 'ci.decision.fail'] });
    const deliver = deliverer();

    await Promise.all(EVENT_TYPES.map((type) => deliver(bridge(project, type, { type }))));

    expect(all.requests.map((q) => q.headers['x-service-event']).sort()).toEqual([...EVENT_TYPES].sort());
    expect(some.requests.map((q) => q.headers['x-service-event']).sort()).toEqual(['ci.decision.fail', 'run.completed']);
  });

  it('sends nothing to a paused webhook and resumes once it is enabled again', async () => {
    const project = randomUUID();
    const r = await receiver();
    const { webhook_id } = await hook(project, r.url);
    const deliver = deliverer();

    await updateWebhook(svc(), project, webhook_id, { is_enabled: false });
    await deliver(bridge(project, 'trace.created', { n: 1 }));
    const whilePaused = r.requests.length;
    await updateWebhook(svc(), project, webhook_id, { is_enabled: true });
    await deliver(bridge(project, 'trace.created', { n: 2 }));

    expect(whilePaused).toBe(0);
    expect(r.requests.map((q) => JSON.parse(q.rawBody.toString()).data)).toEqual([{ n: 2 }]);
    expect((await listWebhookDeliveries(svc(), project, webhook_id, { limit: 10 })).items).toHaveLength(1);
  });

  it('signs with the new secret after rotation: the old secret no longer verifies', async () => {
    const project = randomUUID();
    const r = await receiver();
    const { webhook_id, secret: oldSecret } = await hook(project, r.url);

    const { secret: newSecret } = await rotateWebhookSecret(svc(), project, webhook_id);
    await deliverer()(bridge(project, 'campaign.created', { campaign_id: randomUUID() }));

    const [got] = r.requests;
    const signature = got.headers['x-service-signature'] as string;
    expect(verifySignature(got.rawBody, signature, oldSecret)).toBe(false);
    expect(verifySignature(got.rawBody, signature, newSecret)).toBe(true);
  });

  it('carries Standard Webhooks headers that the official standardwebhooks package verifies, also after rotation', async () => {
    // Prepare
    const project = randomUUID();
    const r = await receiver();
    const { webhook_id, secret: oldSecret } = await hook(project, r.url);
    const deliver = deliverer();

    // Act: one delivery with the first secret, one after rotation
    await deliver(bridge(project, 'run.completed', { run_id: randomUUID(), note: 'naïve ✓' }));
    const { secret: newSecret } = await rotateWebhookSecret(svc(), project, webhook_id);
    await deliver(bridge(project, 'run.completed', { run_id: randomUUID() }));

    // Assess
    const [before, after] = r.requests;
    const verify = (secret: string, q: (typeof r.requests)[number]) =>
      new Webhook(secret).verify(q.rawBody.toString('utf8'), q.headers as Record<string, string>);
    expect(verify(oldSecret, before)).toEqual(JSON.parse(before.rawBody.toString('utf8')));
    expect(verify(newSecret, after)).toEqual(JSON.parse(after.rawBody.toString('utf8')));
    expect(() => verify(oldSecret, after)).toThrow('No matching signature found');
    for (const q of [before, after]) {
      expect(q.headers['webhook-id']).toBe(q.headers['x-service-delivery']);
      expect(Math.abs(Number(q.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
      expect(q.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    }
    expect(verifyStandardWebhook(after.rawBody, after.headers, newSecret)).toBe(true);
    expect(verifyStandardWebhook(after.rawBody, after.headers, oldSecret)).toBe(false);
    expect(verifySignature(after.rawBody, after.headers['x-service-signature'] as string, newSecret)).toBe(true);
  });

  it('keeps one webhook-id across the retries of a delivery, each try with its own timestamp and signature', async () => {
    const project = randomUUID();
    const r = await receiver('error');
    const { secret } = await hook(project, r.url);
    const clock = { now: () => new Date(Date.now() + 1000 * r.requests.length) };

    await createWebhookDeliveryHandler({
      webhooks: repo,
      deliveryLog,
      send: createGuardedSender({ allowPrivate: true, ca }),
      sleep: async () => undefined,
      clock,
      uuid: randomUUID,
    })(bridge(project, 'trace.created'));

    expect(r.requests).toHaveLength(4);
    expect(new Set(r.requests.map((q) => q.headers['webhook-id'])).size).toBe(1);
    expect(new Set(r.requests.map((q) => q.headers['webhook-timestamp'])).size).toBe(4);
    for (const q of r.requests) expect(verifyStandardWebhook(q.rawBody, q.headers, secret)).toBe(true);
  });

  it('is refused by standardwebhooks and verifyStandardWebhook when replayed more than 5 minutes later', async () => {
    const project = randomUUID();
    const r = await receiver();
    const { secret } = await hook(project, r.url);
    await deliverer()(bridge(project, 'run.queued', { run_id: randomUUID() }));
    const [got] = r.requests;
    const payload = got.rawBody.toString('utf8');
    const sentAt = Number(got.headers['webhook-timestamp']) * 1000;

    jest.spyOn(Date, 'now').mockReturnValue(sentAt + 301_000);
    try {
      expect(() => new Webhook(secret).verify(payload, got.headers as Record<string, string>)).toThrow('Message timestamp too old');
      expect(verifyStandardWebhook(got.rawBody, got.headers, secret)).toBe(false);
      // X-Service-Signature has no timestamp: it still verifies (which is why the Standard Webhooks one exists)
      expect(verifySignature(got.rawBody, got.headers['x-service-signature'] as string, secret)).toBe(true);
    } finally {
      jest.restoreAllMocks();
    }
    expect(verifyStandardWebhook(got.rawBody, got.headers, secret, { now: () => sentAt + 299_000 })).toBe(true);
  });

  it('delivers a bus event that arrives twice (same id), even concurrently, only once', async () => {
    const project = randomUUID();
    const r = await receiver();
    await hook(project, r.url);
    const deliver = deliverer();
    const id = randomUUID();

    await Promise.all([deliver(bridge(project, 'run.queued', {}, id)), deliver(bridge(project, 'run.queued', {}, id))]);
    await deliver(bridge(project, 'run.queued', {}, id));

    expect(r.requests).toHaveLength(1);
  });

  it('refuses private targets when they are not allowed, with last_error "blocked: ..."', async () => {
    // Prepare: the receiver listens on loopback; each URL reaches it (or a private address) in another spelling
    const project = randomUUID();
    const r = await receiver();
    const urls = [
      `https://127.0.0.1:${r.port}/hooks`,
      `https://[::ffff:127.0.0.1]:${r.port}/hooks`,
      'https://169.254.169.254/latest/meta-data/',
      `https://localhost:${r.port}/hooks`,
    ];
    const ids = [];
    for (const url of urls) ids.push((await hook(project, url)).webhook_id);

    // Act
    await deliverer({ allowPrivate: false, sleep: async () => undefined })(bridge(project, 'run.created'));

    // Assess
    expect(r.requests).toHaveLength(0);
    const views = await Promise.all(ids.map((id) => getWebhook(svc(), project, id)));
    expect(views.map((v) => v.last_error)).toEqual([
      'blocked: 127.0.0.1 is a loopback address',
      'blocked: ::ffff:7f00:1 is the IPv4-mapped form of 127.0.0.1, a loopback address',
      'blocked: 169.254.169.254 is a link-local address',
      expect.stringMatching(/^blocked: localhost resolves to (127\.0\.0\.1|::1), a loopback address$/),
    ]);
    for (const id of ids) {
      const [entry] = (await listWebhookDeliveries(svc(), project, id, { limit: 1 })).items;
      expect(entry.outcome).toBe('failed');
      expect(entry.attempts).toHaveLength(4);
    }
  });

  it('tries failing receivers exactly 4 times, 0.5 s, 1 s and 2 s apart, in parallel, with last_error in the words of docs/webhooks.md (HTTP <status>, timeout, connection error: <code>)', async () => {
    // Prepare: one webhook per failure mode plus a healthy one, all in one project (the slow cases run side by side)
    const project = randomUUID();
    const healthy = await receiver('ok');
    const failing = {
      error: await receiver('error'),
      hang: await receiver('hang'),
      redirect: await receiver('redirect'),
      close: await receiver('close'),
    };
    const refused = await refusedUrl();
    const ids: Record<string, string> = {};
    for (const [name, r] of Object.entries(failing)) ids[name] = (await hook(project, r.url)).webhook_id;
    ids.refused = (await hook(project, refused)).webhook_id;
    ids.healthy = (await hook(project, healthy.url)).webhook_id;

    // Act
    await deliverer()(bridge(project, 'run.completed', { run_id: randomUUID() }));

    // Assess: four tries each, one delivery id across them
    for (const r of Object.values(failing)) {
      expect(r.requests).toHaveLength(4);
      expect(new Set(r.requests.map((q) => q.headers['x-service-delivery'])).size).toBe(1);
    }
    // no endpoint held up another: every first try (the healthy one's included) arrived before any retry did
    expect(healthy.requests).toHaveLength(1);
    const firstTries = [healthy, ...Object.values(failing)].map((r) => r.requests[0].at);
    const retries = Object.values(failing).map((r) => r.requests[1].at);
    expect(Math.max(...firstTries)).toBeLessThan(Math.min(...retries));
    // the waits between tries as the sender saw them (the delivery log): from the end of one try to the start of
    // the next, the back-off plus one store read. Lower bounds are exact; the upper tolerance is wide because test
    // files run side by side on small machines (the unit tests pin the exact waits with an injected sleep).
    const waits = async (name: string) => {
      const [entry] = (await listWebhookDeliveries(svc(), project, ids[name], { limit: 1 })).items;
      const a = entry.attempts;
      return { waits: a.slice(1).map((t, i) => Date.parse(t.at) - Date.parse(a[i].at) - a[i].duration_ms), durations: a.map((t) => t.duration_ms) };
    };
    const within = (actual: number[], expected: number[]) => {
      expect(actual).toHaveLength(expected.length);
      actual.forEach((wait, i) => {
        expect(wait).toBeGreaterThanOrEqual(expected[i] - 2);
        expect(wait).toBeLessThan(expected[i] + 1500);
      });
    };
    for (const name of ['error', 'redirect', 'close', 'refused', 'hang']) within((await waits(name)).waits, [500, 1000, 2000]);
    (await waits('hang')).durations.forEach((d) => {
      expect(d).toBeGreaterThanOrEqual(5000);
      expect(d).toBeLessThan(6500);
    });
    // the receiver saw the same back-off: no retry arrived before its wait was over
    const arrivals = failing.error.requests.map((q) => q.at);
    for (const [i, t] of arrivals.slice(1).entries()) expect(t - arrivals[i]).toBeGreaterThanOrEqual([500, 1000, 2000][i] - 5);
    // and the last error of each, exactly
    const lastError = async (name: string) => (await getWebhook(svc(), project, ids[name])).last_error;
    expect(await lastError('error')).toBe('HTTP 500');
    expect(await lastError('redirect')).toBe('HTTP 302');
    expect(await lastError('hang')).toBe('timeout after 5000 ms');
    expect(await lastError('refused')).toBe('connection error: ECONNREFUSED');
    expect(await lastError('close')).toBe('connection error: ECONNRESET');
    expect(await lastError('healthy')).toBeNull();
    const refusedLog = (await listWebhookDeliveries(svc(), project, ids.refused, { limit: 1 })).items[0];
    expect(refusedLog.attempts.map((a) => a.error)).toEqual(Array(4).fill('connection error: ECONNREFUSED'));
  }, 60000);
});

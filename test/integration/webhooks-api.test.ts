// The webhook routes through the local gateway against dynalite, and deliveries the API's own events trigger.
import { configureDeps } from '../../functions/wiring/deps';
import { createGuardedSender } from '../../functions/adapters/http/guarded-sender';
import { createProject } from '../../functions/core/auth';
import { systemClock } from '../../functions/core/time';
import { verifySignature } from '../../packages/sdk/src/verify';
import { getDeps } from '../../functions/wiring/deps';
import { sampleTrace } from '../helpers/fixtures';
import { startHttpsReceiver, testCertificates, type HttpsReceiver } from '../helpers/https-receiver';
import { startTestService, type TestService } from '../helpers/local-service';

const ISO_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/;
const WEBHOOK_ID = /^wh_[0-9a-z]{24}$/;
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

let svc: TestService;
const receivers: HttpsReceiver[] = [];
/** A project of their own for the management tests: no events happen there, so its example.com URLs are never called. */
let mgmt: Record<string, string>;

beforeAll(async () => {
  svc = await startTestService();
  const project = await createProject({ projects: getDeps().projects, clock: systemClock }, { name: 'management' });
  mgmt = { 'X-API-Key': project.api_key, 'X-Project-Id': project.project_id };
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

function expectError(res: { status: number; body: any }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body.error).toMatchObject({ code, message: expect.any(String), request_id: expect.any(String) });
}

/** Management calls, in the management project. */
const api = (method: string, path: string, body?: unknown) => svc.api(method, path, body, mgmt);
const create = (body: Record<string, unknown>) => api('POST', '/v1/webhooks', body);
/** Registers a webhook in the service's own project, where the API's events are delivered. */
const subscribe = (body: Record<string, unknown>) => svc.api('POST', '/v1/webhooks', body);

describe('POST /v1/webhooks', () => {
  it('registers a webhook and answers 201 with its secret, is_enabled defaulting to true', async () => {
    const res = await create({ url: 'https://example.com/rts', events: ['run.completed'], description: 'ops channel' });

    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      webhook_id: expect.stringMatching(WEBHOOK_ID),
      url: 'https://example.com/rts',
      events: ['run.completed'],
      is_enabled: true,
      description: 'ops channel',
      secret: expect.stringMatching(SECRET),
      created_at: expect.stringMatching(ISO_MICROS),
    });
  });

  it.each([
    ['http://example.com/rts', 'plain http'],
    ['https://user:secret@example.com/rts', 'user:password'],
    ['/just/a/path', 'a relative URL'],
    ['not a url', 'garbage'],
  ])('rejects %s (%s) with 422 validation_error at details[0].path "url"', async (url) => {
    const res = await create({ url, events: ['*'] });

    expectError(res, 422, 'validation_error');
    expect(res.body.error.details[0].path).toBe('url');
  });

  it('rejects unknown event types, an empty list and "*" mixed with types with 422', async () => {
    const url = 'https://example.com/rts';
    for (const events of [['run.exploded'], [], ['*', 'run.created']]) {
      const res = await create({ url, events });
      expectError(res, 422, 'validation_error');
      expect(res.body.error.details[0].path).toMatch(/^events/);
    }
  });

  it('refuses the 26th webhook of a project with 422 validation_error', async () => {
    // Prepare: a project of its own, so its 25 webhooks receive nothing from the other tests
    const other = await createProject({ projects: getDeps().projects, clock: systemClock }, { name: 'limits' });
    const headers = { 'X-API-Key': other.api_key, 'X-Project-Id': other.project_id };
    for (let i = 0; i < 25; i++)
      expect((await svc.api('POST', '/v1/webhooks', { url: `https://example.com/${i}`, events: ['*'] }, headers)).status).toBe(201);

    // Act
    const res = await svc.api('POST', '/v1/webhooks', { url: 'https://example.com/26', events: ['*'] }, headers);

    // Assess
    expectError(res, 422, 'validation_error');
    expect((await svc.api('GET', '/v1/webhooks?limit=100', undefined, headers)).body.items).toHaveLength(25);
  });
});

describe('reading, changing and deleting webhooks', () => {
  it('never shows the secret on GET or in the list, and shows the delivery status fields', async () => {
    const { body: created } = await create({ url: 'https://example.com/read', events: ['*'] });

    const one = await api('GET', `/v1/webhooks/${created.webhook_id}`);
    const list = await api('GET', '/v1/webhooks');

    expect(one.status).toBe(200);
    expect(one.body).toEqual({
      webhook_id: created.webhook_id,
      url: 'https://example.com/read',
      events: ['*'],
      is_enabled: true,
      description: null,
      created_at: created.created_at,
      last_error: null,
      last_error_at: null,
      last_delivery_at: null,
      last_status: null,
    });
    expect(list.status).toBe(200);
    expect(list.body.items.map((w: { webhook_id: string }) => w.webhook_id)).toContain(created.webhook_id);
    expect(list.text).not.toContain('whsec_');
    expect(one.text).not.toContain('whsec_');
  });

  it('pages the list newest first with an opaque cursor', async () => {
    await create({ url: 'https://example.com/p1', events: ['*'] });
    await create({ url: 'https://example.com/p2', events: ['*'] });

    const first = await api('GET', '/v1/webhooks?limit=1');
    const second = await api('GET', `/v1/webhooks?limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    const forged = await api('GET', `/v1/webhooks?limit=1&cursor=${encodeURIComponent(`${first.body.next_cursor}x`)}`);

    expect(first.body.items[0].url).toBe('https://example.com/p2');
    expect(second.body.items[0].url).toBe('https://example.com/p1');
    expectError(forged, 422, 'validation_error');
  });

  it('pauses and resumes through PATCH, validating like create', async () => {
    const { body: created } = await create({ url: 'https://example.com/patch', events: ['*'] });
    const path = `/v1/webhooks/${created.webhook_id}`;

    const paused = await api('PATCH', path, { is_enabled: false });
    const badUrl = await api('PATCH', path, { url: 'http://example.com/plain' });
    const empty = await api('PATCH', path, {});
    const resumed = await api('PATCH', path, { is_enabled: true, events: ['run.completed'], description: 'back' });

    expect(paused.status).toBe(200);
    expect(paused.body.is_enabled).toBe(false);
    expectError(badUrl, 422, 'validation_error');
    expect(badUrl.body.error.details[0].path).toBe('url');
    expectError(empty, 422, 'validation_error');
    expect(resumed.body).toMatchObject({ is_enabled: true, events: ['run.completed'], description: 'back', url: 'https://example.com/patch' });
    expect(resumed.text).not.toContain('whsec_');
  });

  it('rotates the secret: 200 with a new secret', async () => {
    const { body: created } = await create({ url: 'https://example.com/rot', events: ['*'] });

    const res = await api('POST', `/v1/webhooks/${created.webhook_id}/rotate-secret`);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ webhook_id: created.webhook_id, secret: expect.stringMatching(SECRET) });
    expect(res.body.secret).not.toBe(created.secret);
  });

  it('deletes with 204, after which every route answers 404', async () => {
    const { body: created } = await create({ url: 'https://example.com/del', events: ['*'] });
    const path = `/v1/webhooks/${created.webhook_id}`;

    const res = await api('DELETE', path);

    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expectError(await api('GET', path), 404, 'not_found');
    expectError(await api('DELETE', path), 404, 'not_found');
    expectError(await api('PATCH', path, { is_enabled: true }), 404, 'not_found');
    expectError(await api('POST', `${path}/rotate-secret`), 404, 'not_found');
    expectError(await api('GET', `${path}/deliveries`), 404, 'not_found');
  });

  it("answers malformed ids and another project's webhook with 404", async () => {
    const other = await createProject({ projects: getDeps().projects, clock: systemClock }, { name: 'other' });
    const theirs = await svc.api(
      'POST',
      '/v1/webhooks',
      { url: 'https://example.com/theirs', events: ['*'] },
      { 'X-API-Key': other.api_key, 'X-Project-Id': other.project_id },
    );

    for (const id of ['nope', 'WH_ABC', theirs.body.webhook_id]) {
      expectError(await api('GET', `/v1/webhooks/${id}`), 404, 'not_found');
    }
  });
});

describe("deliveries of the API's own events", () => {
  it('delivers trace.created signed with the secret from the create response, and logs it', async () => {
    // Prepare
    const r = await receiver();
    const { body: created } = await subscribe({ url: r.url, events: ['trace.created'] });

    // Act
    const trace = await svc.api('POST', '/v1/traces', sampleTrace());
    await svc.idle();

    // Assess
    const mine = r.requests.filter((q) => JSON.parse(q.rawBody.toString()).data.trace_id === trace.body.trace_id);
    expect(mine).toHaveLength(1);
    expect(verifySignature(mine[0].rawBody, mine[0].headers['x-service-signature'] as string, created.secret)).toBe(true);
    const hook = await svc.api('GET', `/v1/webhooks/${created.webhook_id}`);
    expect(hook.body).toMatchObject({ last_status: 200, last_error: null, last_delivery_at: expect.stringMatching(ISO_MICROS) });
    const log = await svc.api('GET', `/v1/webhooks/${created.webhook_id}/deliveries`);
    expect(log.status).toBe(200);
    expect(log.body.items[0]).toMatchObject({
      delivery_id: mine[0].headers['x-service-delivery'],
      event_type: 'trace.created',
      outcome: 'succeeded',
      attempts: [{ status_code: 200, error: null }],
    });
    expect(log.body.next_cursor).toBeNull();
  });

  it('stops signing with the old secret after rotate-secret, and stops delivering once paused', async () => {
    const r = await receiver();
    const { body: created } = await subscribe({ url: r.url, events: ['trace.created'] });
    const path = `/v1/webhooks/${created.webhook_id}`;

    const { body: rotated } = await svc.api('POST', `${path}/rotate-secret`);
    await svc.api('POST', '/v1/traces', sampleTrace());
    await svc.idle();
    await svc.api('PATCH', path, { is_enabled: false });
    await svc.api('POST', '/v1/traces', sampleTrace());
    await svc.idle();

    expect(r.requests).toHaveLength(1);
    const [got] = r.requests;
    const signature = got.headers['x-service-signature'] as string;
    expect(verifySignature(got.rawBody, signature, created.secret)).toBe(false);
    expect(verifySignature(got.rawBody, signature, rotated.secret)).toBe(true);
  });

  it('records a failing receiver: 4 tries in the log and last_error "HTTP 500"', async () => {
    const r = await receiver('error');
    const { body: created } = await subscribe({ url: r.url, events: ['campaign.created'] });

    await svc.api('POST', '/v1/campaigns', { name: 'c', target: { type: 'recorded' } });
    await svc.idle();

    expect(r.requests).toHaveLength(4);
    const hook = await svc.api('GET', `/v1/webhooks/${created.webhook_id}`);
    expect(hook.body).toMatchObject({ last_error: 'HTTP 500', last_error_at: expect.stringMatching(ISO_MICROS), last_delivery_at: null });
    const log = await svc.api('GET', `/v1/webhooks/${created.webhook_id}/deliveries`);
    expect(log.body.items[0].outcome).toBe('failed');
    expect(log.body.items[0].attempts.map((a: { status_code: number }) => a.status_code)).toEqual([500, 500, 500, 500]);
  });
});

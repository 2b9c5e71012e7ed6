// Fan-out and retry policy of webhook deliveries, with an injected sender, sleep and clock
// (docs/webhooks.md#delivery-policy-retries-and-last_error).
import { deliverEvent } from '../../../../functions/core/webhooks/delivery';
import { deliveryBody } from '../../../../functions/core/webhooks/signing';
import { canonicalJson } from '../../../../functions/core/json';
import { OutboundError, type OutboundResponse } from '../../../../functions/core/ports';
import { verifySignature } from '../../../../packages/sdk/src/verify';
import { busEvent, harness, ok, PROJECT, refused, timeout } from '../../../helpers/webhook-harness';

describe('webhook delivery', () => {
  it('POSTs the canonical body once with every header, signed with the current secret', async () => {
    // Prepare
    const h = harness();
    h.hook('wh_a');
    const event = busEvent('run.completed', 'evt-1', { z: 1, run_id: 'r1', nested: { b: 2, a: 1 } });

    // Act
    const report = await deliverEvent(h.deps, event);

    // Assess
    expect(h.sent).toHaveLength(1);
    const req = h.sent[0];
    expect(req).toMatchObject({ url: 'https://wh_a.example.com/hook', method: 'POST', timeoutMs: 5000 });
    expect(req.body).toBe(deliveryBody(event.envelope));
    expect(req.body).toBe(canonicalJson(JSON.parse(req.body!)));
    expect(req.headers).toEqual({
      'Content-Type': 'application/json',
      'User-Agent': 'rts-webhooks/1',
      'X-Service-Event': 'run.completed',
      'X-Service-Delivery': '00000000-0000-4000-8000-000000000001',
      'X-Service-Webhook-Id': 'wh_a',
      'X-Service-Signature': expect.stringMatching(/^sha256=[0-9a-f]{64}$/),
      'webhook-id': '00000000-0000-4000-8000-000000000001',
      'webhook-timestamp': String(Date.parse('2026-11-21T12:00:00Z') / 1000),
      'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/),
    });
    expect(verifySignature(req.body!, req.headers['X-Service-Signature'], 'whsec_wh_a')).toBe(true);
    expect(report.results).toEqual([{ webhook_id: 'wh_a', outcome: 'succeeded', delivery_id: '00000000-0000-4000-8000-000000000001', tries: 1 }]);
  });

  it('logs a success and sets last_delivery_at and last_status, clearing an earlier last_error', async () => {
    const h = harness();
    h.hook('wh_a', { last_error: 'HTTP 500', last_error_at: '2026-11-19T00:00:00.000000+00:00' });
    h.reply(204);

    await deliverEvent(h.deps, busEvent());

    const stored = h.repo.hooks.get(`${PROJECT}/wh_a`)!;
    expect(stored).toMatchObject({ last_error: null, last_status: 204, last_delivery_at: '2026-11-21T12:00:00.010000+00:00' });
    expect(h.deliveryLog.entries).toHaveLength(1);
    expect(h.deliveryLog.entries[0].entry).toEqual({
      delivery_id: '00000000-0000-4000-8000-000000000001',
      event_type: 'run.completed',
      created_at: '2026-11-21T12:00:00.000000+00:00',
      outcome: 'succeeded',
      attempts: [{ at: '2026-11-21T12:00:00.000000+00:00', status_code: 204, error: null, duration_ms: 10 }],
    });
    expect(h.deliveryLog.entries[0].expiresAt).toBe(Math.floor(Date.parse('2026-11-21T12:00:00.010Z') / 1000) + 7 * 24 * 3600);
  });

  it('skips the status write when a success would only move last_delivery_at by under a second, and writes it after', async () => {
    // Prepare: the last success was recorded 0.5 s before this event
    const h = harness();
    h.hook('wh_a', { last_status: 200, last_delivery_at: '2026-11-21T11:59:59.500000+00:00' });
    let writes = 0;
    const record = h.repo.recordSuccess.bind(h.repo);
    h.repo.recordSuccess = async (...args) => {
      writes++;
      return record(...args);
    };

    // Act
    await deliverEvent(h.deps, busEvent('run.completed', 'evt-1'));
    const afterFirst = writes;
    await h.deps.sleep(1000);
    await deliverEvent(h.deps, busEvent('run.completed', 'evt-2'));

    // Assess
    expect(afterFirst).toBe(0);
    expect(writes).toBe(1);
    expect(h.repo.hooks.get(`${PROJECT}/wh_a`)!.last_delivery_at).toBe('2026-11-21T12:00:01.020000+00:00');
    expect(h.deliveryLog.entries.map((l) => l.entry.outcome)).toEqual(['succeeded', 'succeeded']);
  });

  it.each([
    ['a 500 answer', 'HTTP 500', 500],
    ['a redirect (never followed)', 'HTTP 302', 302],
    ['a 404 answer', 'HTTP 404', 404],
    ['a timeout', 'timeout after 5000 ms', timeout()],
    ['a refused connection', 'connection error: ECONNREFUSED', refused()],
    ['a guard refusal', 'blocked: 127.0.0.1 is a loopback address', new OutboundError('blocked', 'blocked: 127.0.0.1 is a loopback address')],
  ])('gives up after exactly 4 tries 0.5 s, 1 s and 2 s apart on %s, with last_error %j', async (_case, lastError, reply) => {
    // Prepare
    const h = harness();
    h.hook('wh_a');
    h.reply(reply);

    // Act
    const report = await deliverEvent(h.deps, busEvent());

    // Assess
    expect(h.sent).toHaveLength(4);
    expect(h.sleeps).toEqual([500, 1000, 2000]);
    expect(new Set(h.sent.map((r) => r.headers['X-Service-Delivery'])).size).toBe(1);
    expect(report.results[0]).toMatchObject({ outcome: 'failed', tries: 4, last_error: lastError });
    const stored = h.repo.hooks.get(`${PROJECT}/wh_a`)!;
    expect(stored.last_error).toBe(lastError);
    expect(stored.last_error_at).toBe('2026-11-21T12:00:03.540000+00:00');
    expect(stored.last_delivery_at).toBeNull();
    const entry = h.deliveryLog.entries[0].entry;
    expect(entry.outcome).toBe('failed');
    expect(entry.attempts.map((a) => a.at)).toEqual([
      '2026-11-21T12:00:00.000000+00:00',
      '2026-11-21T12:00:00.510000+00:00',
      '2026-11-21T12:00:01.520000+00:00',
      '2026-11-21T12:00:03.530000+00:00',
    ]);
    expect(entry.attempts.map((a) => a.error)).toEqual(Array(4).fill(lastError));
    expect(entry.attempts.map((a) => a.status_code)).toEqual(Array(4).fill(typeof reply === 'number' ? reply : null));
  });

  it('stops retrying at the first 2xx', async () => {
    const h = harness();
    h.hook('wh_a');
    h.reply(503, timeout(), 200);

    const report = await deliverEvent(h.deps, busEvent());

    expect(h.sent).toHaveLength(3);
    expect(h.sleeps).toEqual([500, 1000]);
    expect(report.results[0]).toMatchObject({ outcome: 'succeeded', tries: 3 });
    expect(h.deliveryLog.entries[0].entry.attempts.map((a) => [a.status_code, a.error])).toEqual([
      [503, 'HTTP 503'],
      [null, 'timeout after 5000 ms'],
      [200, null],
    ]);
  });

  it('signs retries in flight with the rotated secret: the old one no longer verifies', async () => {
    // Prepare: the secret is rotated after the first try failed
    const h = harness();
    h.hook('wh_a', { secret: 'whsec_old' });
    h.reply(500, 200);
    h.repo.onGet = (_id, calls) => {
      if (calls === 1) h.repo.hooks.get(`${PROJECT}/wh_a`)!.secret = 'whsec_new';
    };

    // Act
    await deliverEvent(h.deps, busEvent());

    // Assess
    const [first, second] = h.sent;
    expect(verifySignature(first.body!, first.headers['X-Service-Signature'], 'whsec_old')).toBe(true);
    expect(verifySignature(second.body!, second.headers['X-Service-Signature'], 'whsec_old')).toBe(false);
    expect(verifySignature(second.body!, second.headers['X-Service-Signature'], 'whsec_new')).toBe(true);
  });

  it.each([
    ['paused', (h: ReturnType<typeof harness>) => void (h.repo.hooks.get(`${PROJECT}/wh_a`)!.is_enabled = false)],
    ['deleted', (h: ReturnType<typeof harness>) => void h.repo.hooks.delete(`${PROJECT}/wh_a`)],
    ['unsubscribed from the type', (h: ReturnType<typeof harness>) => void (h.repo.hooks.get(`${PROJECT}/wh_a`)!.events = ['trace.created'])],
  ])('makes no more tries once the webhook is %s mid-retry, logging the delivery as skipped', async (_case, change) => {
    const h = harness();
    h.hook('wh_a');
    h.reply(500);
    h.repo.onGet = (_id, calls) => {
      if (calls === 1) change(h);
    };

    const report = await deliverEvent(h.deps, busEvent());

    expect(h.sent).toHaveLength(1);
    expect(report.results[0]).toMatchObject({ outcome: 'skipped', tries: 1 });
    expect(h.deliveryLog.entries[0].entry).toMatchObject({ outcome: 'skipped', attempts: [{ status_code: 500, error: 'HTTP 500' }] });
    expect(h.repo.hooks.get(`${PROJECT}/wh_a`)?.last_error ?? null).toBeNull();
  });

  it('sends nothing to paused webhooks and nothing of unsubscribed types', async () => {
    const h = harness();
    h.hook('wh_paused', { is_enabled: false });
    h.hook('wh_traces', { events: ['trace.created'] });
    h.hook('wh_runs', { events: ['run.completed', 'run.queued'] });

    const report = await deliverEvent(h.deps, busEvent('run.completed'));

    expect(h.sent.map((r) => r.headers['X-Service-Webhook-Id'])).toEqual(['wh_runs']);
    expect(report.results.map((r) => r.webhook_id)).toEqual(['wh_runs']);
  });

  it('keeps, claims and sends nothing for an event no enabled webhook subscribes to', async () => {
    const h = harness();
    h.hook('wh_paused', { is_enabled: false });
    h.hook('wh_traces', { events: ['trace.created'] });

    const report = await deliverEvent(h.deps, busEvent('run.completed', 'evt-unwanted'));

    expect(report).toEqual({ event_id: 'evt-unwanted', event_type: 'run.completed', results: [] });
    expect(h.sent).toEqual([]);
    expect([...h.deliveryLog.events.keys()]).toEqual([]);
    expect([...h.deliveryLog.claims.keys()]).toEqual([]);
    expect(h.deliveryLog.entries).toEqual([]);
  });

  it('delivers a bus event retried with the same id only once per webhook', async () => {
    const h = harness();
    h.hook('wh_a');
    h.hook('wh_b');

    await deliverEvent(h.deps, busEvent('run.completed', 'evt-same'));
    const again = await deliverEvent(h.deps, busEvent('run.completed', 'evt-same'));

    expect(h.sent).toHaveLength(2);
    expect(again.results.map((r) => r.outcome)).toEqual(['duplicate', 'duplicate']);
    expect(h.deliveryLog.entries).toHaveLength(2);
  });

  it('keeps the claim after a delivery that failed every try, so a bus retry does not send again', async () => {
    const h = harness();
    h.hook('wh_a');
    h.reply(500);

    await deliverEvent(h.deps, busEvent('run.completed', 'evt-x'));
    h.reply(200);
    const again = await deliverEvent(h.deps, busEvent('run.completed', 'evt-x'));

    expect(h.sent).toHaveLength(4);
    expect(again.results[0].outcome).toBe('duplicate');
  });

  it('does not let a slow endpoint delay another webhook', async () => {
    // Prepare: wh_slow answers only when the test lets it
    const h = harness();
    h.hook('wh_slow', { url: 'https://slow.example.com/h' });
    h.hook('wh_fast', { url: 'https://fast.example.com/h' });
    let release!: (r: OutboundResponse) => void;
    const slowAnswer = new Promise<OutboundResponse>((resolve) => (release = resolve));
    let fastDone!: () => void;
    const fastLogged = new Promise<void>((resolve) => (fastDone = resolve));
    const inner = h.deps.send;
    h.deps.send = (req) => (req.url.includes('slow') ? slowAnswer : inner(req));
    const putDelivery = h.deliveryLog.putDelivery.bind(h.deliveryLog);
    h.deliveryLog.putDelivery = async (...args) => {
      await putDelivery(...args);
      if (args[1] === 'wh_fast') fastDone();
    };

    // Act
    const fanout = deliverEvent(h.deps, busEvent());
    await fastLogged;
    const slowStillOpen = h.deliveryLog.entries.every((l) => l.webhookId !== 'wh_slow');
    release(ok());
    const report = await fanout;

    // Assess
    expect(slowStillOpen).toBe(true);
    expect(report.results.map((r) => r.outcome)).toEqual(['succeeded', 'succeeded']);
  });

  it('throws when the webhooks cannot be listed, having sent nothing, so the bus retries', async () => {
    const h = harness();
    h.hook('wh_a');
    const listAll = h.repo.listAll.bind(h.repo);
    h.repo.listAll = async () => {
      throw new Error('ProvisionedThroughputExceededException');
    };

    await expect(deliverEvent(h.deps, busEvent('run.completed', 'evt-r'))).rejects.toThrow('ProvisionedThroughputExceededException');
    h.repo.listAll = listAll;
    const retry = await deliverEvent(h.deps, busEvent('run.completed', 'evt-r'));

    expect(h.sent).toHaveLength(1);
    expect(retry.results[0].outcome).toBe('succeeded');
  });

  it('still delivers to the other webhooks when one cannot be claimed, then throws for the bus to retry', async () => {
    const h = harness();
    h.hook('wh_a');
    h.hook('wh_b');
    const claim = h.deliveryLog.claimDelivery.bind(h.deliveryLog);
    h.deliveryLog.claimDelivery = async (id: string, ev: string, exp: number, delivery: string) => {
      if (id === 'wh_a') throw new Error('InternalServerError');
      return claim(id, ev, exp, delivery);
    };

    await expect(deliverEvent(h.deps, busEvent())).rejects.toThrow(/1 of 2 webhooks not attempted/);

    expect(h.sent.map((r) => r.headers['X-Service-Webhook-Id'])).toEqual(['wh_b']);
  });

  it('reports a failed log write without failing the delivery (the receiver already has it)', async () => {
    const h = harness();
    h.hook('wh_a');
    h.deliveryLog.putDelivery = async () => {
      throw new Error('ValidationException');
    };

    const report = await deliverEvent(h.deps, busEvent());

    expect(report.results[0].outcome).toBe('succeeded');
    expect(h.errors).toEqual([
      { message: 'recording a webhook delivery failed', extra: expect.objectContaining({ webhookId: 'wh_a', error: 'Error: ValidationException' }) },
    ]);
  });

  it('ends a delivery as failed when the webhook cannot be re-read between tries, without another send', async () => {
    const h = harness();
    h.hook('wh_a');
    h.reply(500);
    h.repo.onGet = (_id, calls) => {
      if (calls === 1) throw new Error('RequestLimitExceeded');
    };

    const report = await deliverEvent(h.deps, busEvent());

    expect(h.sent).toHaveLength(1);
    expect(report.results[0]).toMatchObject({ outcome: 'failed', last_error: 'HTTP 500' });
    expect(h.errors[0].message).toBe('webhook read failed between delivery tries');
  });

  it('never puts the secret into the sent request other than through the signature', async () => {
    const h = harness();
    h.hook('wh_a', { secret: 'whsec_do-not-leak' });

    await deliverEvent(h.deps, busEvent());

    expect(JSON.stringify(h.sent)).not.toContain('whsec_do-not-leak');
  });
});

// Resend, recover and test with an in-memory store, a scripted receiver and a bus the test drains by hand: what each
// route checks and queues, and what the delivery function makes of the commands (same delivery id, tries appended).
import type { BusEvent } from '../../../../functions/core/events';
import { ConflictError, NotFoundError, ValidationError } from '../../../../functions/core/errors';
import { isDeliveryDeferred } from '../../../../functions/core/webhooks/deferral';
import { deliverEvent } from '../../../../functions/core/webhooks/delivery';
import { handleBusEvent } from '../../../../functions/core/webhooks/dispatch';
import { recoverDeliveries, resendDelivery, sendTestEvent, type WebhookReplayDeps } from '../../../../functions/core/webhooks/recovery';
import { MemoryRateLimitsRepo } from '../../../helpers/memory-rate-limits';
import { busEvent, harness, PROJECT } from '../../../helpers/webhook-harness';

const WH = `wh_${'a'.repeat(24)}`;
const OTHER_PROJECT = '6f1c1f5e-2a1d-4f4e-8b0a-7d3b9e6c2a10';
const START = '2026-11-21T12:00:00Z';

function world() {
  const h = harness();
  const queued: BusEvent[] = [];
  let failPublish = false;
  let events = 0;
  const deps: WebhookReplayDeps = {
    webhooks: h.repo,
    deliveryLog: h.deliveryLog,
    clock: h.deps.clock,
    uuid: h.deps.uuid,
    rateLimits: new MemoryRateLimitsRepo(),
    events: {
      publish: async (events) => {
        if (failPublish) throw new Error('PutEvents failed');
        queued.push(...events);
      },
    },
  };
  /** Runs every queued command (concurrently, like the bus) until none is left; a deferred one goes back on the queue. */
  const drain = async () => {
    while (queued.length) await Promise.all(queued.splice(0).map((e) => runOrRequeue(e)));
  };
  const runOrRequeue = (e: BusEvent) =>
    handleBusEvent(h.deps, e).catch((err) => {
      if (!isDeliveryDeferred(err)) throw err;
      queued.push(e);
    });
  /** Runs the queued commands one at a time, in queue order; a deferred one goes to the back of the queue. */
  const drainOneByOne = async () => {
    for (let e = queued.shift(); e; e = queued.shift()) await runOrRequeue(e);
  };
  /** Delivers the next `n` events (r1, r2, ...) to WH, failing with 500 unless told otherwise, a second apart. */
  const failures = async (n: number, reply = 500) => {
    h.reply(reply);
    for (let i = 1; i <= n; i++) {
      events++;
      await deliverEvent(h.deps, busEvent('run.completed', `evt-${events}`, { run_id: `r${events}` }));
      await h.deps.sleep(1000);
    }
  };
  const bodies = (from = 0) => h.sent.slice(from).map((r) => JSON.parse(r.body!).data.run_id);
  return { h, deps, queued, drain, drainOneByOne, failures, bodies, failPublishing: (v: boolean) => (failPublish = v) };
}

describe('POST /v1/webhooks/{id}/deliveries/{delivery_id}/resend', () => {
  it('sends the same bytes under the same delivery id with a new timestamp, appending the try to the log entry', async () => {
    // Prepare: one delivery that failed all 4 tries
    const w = world();
    w.h.hook(WH);
    await w.failures(1);
    const [entry] = w.h.deliveryLog.entries;
    w.h.reply(200);

    // Act
    const res = await resendDelivery(w.deps, PROJECT, WH, entry.entry.delivery_id);
    await w.drain();

    // Assess
    expect(res).toEqual({ webhook_id: WH, delivery_id: entry.entry.delivery_id, event_type: 'run.completed' });
    expect(w.h.sent).toHaveLength(5);
    const [first, resent] = [w.h.sent[0], w.h.sent[4]];
    expect(resent.body).toBe(first.body);
    expect(resent.headers['X-Service-Delivery']).toBe(entry.entry.delivery_id);
    expect(resent.headers['webhook-id']).toBe(entry.entry.delivery_id);
    expect(Number(resent.headers['webhook-timestamp'])).toBeGreaterThan(Number(first.headers['webhook-timestamp']));
    expect(w.h.deliveryLog.entries).toHaveLength(1);
    expect(w.h.deliveryLog.entries[0].entry.outcome).toBe('succeeded');
    expect(w.h.deliveryLog.entries[0].entry.attempts.map((a) => a.status_code)).toEqual([500, 500, 500, 500, 200]);
    expect(w.h.deliveryLog.entries[0].version).toBe(1);
    expect(w.h.repo.hooks.get(`${PROJECT}/${WH}`)).toMatchObject({ last_error: null, last_status: 200 });
  });

  it('runs a command the bus hands over twice only once', async () => {
    const w = world();
    w.h.hook(WH);
    await w.failures(1);
    await resendDelivery(w.deps, PROJECT, WH, w.h.deliveryLog.entries[0].entry.delivery_id);
    const [command] = w.queued.splice(0);

    const reports = [await handleBusEvent(w.h.deps, command), await handleBusEvent(w.h.deps, command)];

    expect(reports.map((r) => r.results[0].outcome)).toEqual(['failed', 'duplicate']);
    expect(w.h.sent).toHaveLength(8);
  });

  it("answers 404 for an unknown, malformed or other webhook's delivery id, and for an unknown or foreign webhook", async () => {
    const w = world();
    w.h.hook(WH);
    const other = `wh_${'b'.repeat(24)}`;
    w.h.hook(other);
    await w.failures(1);
    const id = w.h.deliveryLog.entries[0].entry.delivery_id;

    await expect(resendDelivery(w.deps, PROJECT, WH, '00000000-0000-4000-8000-0000000000ff')).rejects.toThrow(NotFoundError);
    await expect(resendDelivery(w.deps, PROJECT, WH, 'not-a-uuid')).rejects.toThrow(NotFoundError);
    await expect(resendDelivery(w.deps, PROJECT, other, w.h.deliveryLog.entries.find((l) => l.webhookId === WH)!.entry.delivery_id)).rejects.toThrow(
      'Delivery not found.',
    );
    await expect(resendDelivery(w.deps, PROJECT, `wh_${'c'.repeat(24)}`, id)).rejects.toThrow('Webhook not found.');
    await expect(resendDelivery(w.deps, OTHER_PROJECT, WH, id)).rejects.toThrow('Webhook not found.');
    expect(w.queued).toHaveLength(0);
  });

  it('answers 409 webhook_paused for a paused webhook, and 409 event_unavailable when the event is no longer kept', async () => {
    const w = world();
    w.h.hook(WH);
    await w.failures(1);
    const id = w.h.deliveryLog.entries[0].entry.delivery_id;

    w.h.repo.hooks.get(`${PROJECT}/${WH}`)!.is_enabled = false;
    const paused = resendDelivery(w.deps, PROJECT, WH, id);
    await expect(paused).rejects.toThrow(ConflictError);
    await expect(paused).rejects.toMatchObject({ status: 409, code: 'webhook_paused' });
    w.h.repo.hooks.get(`${PROJECT}/${WH}`)!.is_enabled = true;
    w.h.deliveryLog.events.clear();
    await expect(resendDelivery(w.deps, PROJECT, WH, id)).rejects.toMatchObject({ status: 409, code: 'event_unavailable' });
    expect(w.queued).toHaveLength(0);
  });
});

describe('POST /v1/webhooks/{id}/recover', () => {
  it('sends every delivery that failed since `since` once more, oldest first, and nothing that succeeded or is older', async () => {
    // Prepare: r1 fails, r2 succeeds, r3 and r4 fail; `since` falls between r1 and r2
    const w = world();
    w.h.hook(WH);
    await w.failures(1);
    const since = new Date(w.h.deps.clock.now().getTime() - 10).toISOString();
    await w.failures(1, 200);
    await w.failures(2);
    const before = w.h.sent.length;
    w.h.reply(200);

    // Act
    const res = await recoverDeliveries(w.deps, PROJECT, WH, since);
    await w.drain();
    const again = await recoverDeliveries(w.deps, PROJECT, WH, since);

    // Assess
    expect(res).toEqual({ queued: 2 });
    expect(w.bodies(before)).toEqual(['r3', 'r4']);
    expect(again).toEqual({ queued: 0 });
    expect(w.h.deliveryLog.entries.map((l) => [l.entry.outcome, l.version])).toEqual([
      ['failed', 0],
      ['succeeded', 0],
      ['succeeded', 1],
      ['succeeded', 1],
    ]);
  });

  it('queues each failed delivery once when two recovers run at the same time', async () => {
    const w = world();
    w.h.hook(WH);
    await w.failures(5);
    const before = w.h.sent.length;
    w.h.reply(200);

    const answers = await Promise.all([recoverDeliveries(w.deps, PROJECT, WH, START), recoverDeliveries(w.deps, PROJECT, WH, START)]);
    await w.drain();

    expect(answers[0].queued + answers[1].queued).toBe(5);
    expect(w.bodies(before).sort()).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
  });

  it('delivers oldest first when two recovers at the same time split the failed deliveries between them', async () => {
    // Prepare: five failures; recover B claims r2 and r4 (it loses r1, r3 and r5 to a claim race), recover A the rest
    const w = world();
    w.h.hook(WH);
    await w.failures(5);
    const before = w.h.sent.length;
    w.h.reply(200);
    let call = 0;
    const losingOdd = Object.create(w.h.deliveryLog) as typeof w.h.deliveryLog;
    losingOdd.claimDelivery = async (...args) => (call++ % 2 === 0 ? false : w.h.deliveryLog.claimDelivery(...args));

    // Act: B's commands reach the bus first, and the bus hands them over one at a time, in the order they arrived
    const b = await recoverDeliveries({ ...w.deps, deliveryLog: losingOdd }, PROJECT, WH, START);
    const a = await recoverDeliveries(w.deps, PROJECT, WH, START);
    await w.drainOneByOne();

    // Assess
    expect([a.queued, b.queued]).toEqual([3, 2]);
    expect(w.bodies(before)).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
  });

  it('queues a delivery again once its recovery has failed again, but not while it is still queued', async () => {
    const w = world();
    w.h.hook(WH);
    await w.failures(1);

    const first = await recoverDeliveries(w.deps, PROJECT, WH, START);
    const whileQueued = await recoverDeliveries(w.deps, PROJECT, WH, START);
    await w.drain();
    const afterFailing = await recoverDeliveries(w.deps, PROJECT, WH, START);

    expect([first.queued, whileQueued.queued, afterFailing.queued]).toEqual([1, 0, 1]);
    expect(w.h.deliveryLog.entries[0].entry.attempts).toHaveLength(8);
  });

  it('delivers in queue order even when the bus hands the later command over first', async () => {
    const w = world();
    w.h.hook(WH);
    await w.failures(3);
    const before = w.h.sent.length;
    w.h.reply(200);
    await recoverDeliveries(w.deps, PROJECT, WH, START);

    w.queued.reverse();
    await w.drain();

    expect(w.bodies(before)).toEqual(['r1', 'r2', 'r3']);
  });

  it('defers a recovered delivery whose predecessor is still being delivered, claiming and sending nothing', async () => {
    // Prepare: two failed deliveries recovered; the first one's command has not run yet
    const w = world();
    w.h.hook(WH);
    await w.failures(2);
    const before = w.h.sent.length;
    w.h.reply(200);
    await recoverDeliveries(w.deps, PROJECT, WH, START);
    const [first, second] = w.queued.splice(0);

    // Act: the second before the first, then again once the first is done
    const early = handleBusEvent(w.h.deps, second);
    await expect(early).rejects.toMatchObject({ name: 'DeliveryDeferredError', retryAfterMs: expect.any(Number) });
    const sentWhileDeferred = w.h.sent.length - before;
    await handleBusEvent(w.h.deps, first);
    const report = await handleBusEvent(w.h.deps, second);

    // Assess: nothing was sent nor claimed by the deferred run, so the later run delivers it
    expect(sentWhileDeferred).toBe(0);
    expect(report.results[0]).toMatchObject({ outcome: 'succeeded', tries: 1 });
    expect(w.bodies(before)).toEqual(['r1', 'r2']);
  });

  it('sends a recovered delivery without waiting once ORDER_WAIT_MS has passed since the recover queued it', async () => {
    const w = world();
    w.h.hook(WH);
    await w.failures(2);
    const before = w.h.sent.length;
    w.h.reply(200);
    await recoverDeliveries(w.deps, PROJECT, WH, START);
    const [, second] = w.queued.splice(0);
    await w.h.deps.sleep(20_000);

    const report = await handleBusEvent(w.h.deps, second);

    expect(report.results[0]).toMatchObject({ outcome: 'succeeded' });
    expect(w.bodies(before)).toEqual(['r2']);
  });

  it('gives the claims back when the commands cannot be queued, so a retry queues them', async () => {
    const w = world();
    w.h.hook(WH);
    await w.failures(2);

    w.failPublishing(true);
    await expect(recoverDeliveries(w.deps, PROJECT, WH, START)).rejects.toThrow('PutEvents failed');
    w.failPublishing(false);
    const retry = await recoverDeliveries(w.deps, PROJECT, WH, START);

    expect(retry).toEqual({ queued: 2 });
  });

  it('sends nothing for a recovery whose webhook was paused after queueing, and lets a later recover take it', async () => {
    const w = world();
    w.h.hook(WH);
    await w.failures(1);
    const before = w.h.sent.length;
    await recoverDeliveries(w.deps, PROJECT, WH, START);

    w.h.repo.hooks.get(`${PROJECT}/${WH}`)!.is_enabled = false;
    await w.drain();
    w.h.repo.hooks.get(`${PROJECT}/${WH}`)!.is_enabled = true;
    const later = await recoverDeliveries(w.deps, PROJECT, WH, START);

    expect(w.h.sent.length).toBe(before);
    expect(later).toEqual({ queued: 1 });
  });

  it.each([
    ['later than now', '2026-11-21T13:00:00Z', 'must not be later than now'],
    ['8 days ago', '2026-11-13T12:00:00Z', 'must be within the last 7 days (the delivery log keeps 7 days)'],
  ])('refuses a since %s with 422 at details[0].path "since"', async (_name, since, message) => {
    const w = world();
    w.h.hook(WH);

    const refused = recoverDeliveries(w.deps, PROJECT, WH, since);

    await expect(refused).rejects.toThrow(ValidationError);
    await expect(refused).rejects.toMatchObject({ status: 422, details: [{ path: 'since', message }] });
  });

  it('accepts exactly 7 days ago, and answers 409 webhook_paused and 404 for an unknown or foreign webhook', async () => {
    const w = world();
    w.h.hook(WH);

    await expect(recoverDeliveries(w.deps, PROJECT, WH, '2026-11-14T12:00:00Z')).resolves.toEqual({ queued: 0 });
    await expect(recoverDeliveries(w.deps, OTHER_PROJECT, WH, START)).rejects.toMatchObject({ status: 404 });
    await expect(recoverDeliveries(w.deps, PROJECT, 'wh_nope', START)).rejects.toMatchObject({ status: 404 });
    w.h.repo.hooks.get(`${PROJECT}/${WH}`)!.is_enabled = false;
    await expect(recoverDeliveries(w.deps, PROJECT, WH, START)).rejects.toMatchObject({ status: 409, code: 'webhook_paused' });
  });
});

describe('POST /v1/webhooks/{id}/test', () => {
  it('sends webhook.test to that webhook only, paused and unsubscribed as it is, logged under the returned delivery id', async () => {
    // Prepare
    const w = world();
    w.h.hook(WH, { is_enabled: false, events: ['trace.created'] });
    w.h.hook(`wh_${'b'.repeat(24)}`);

    // Act
    const res = await sendTestEvent(w.deps, PROJECT, WH);
    await w.drain();

    // Assess
    expect(res).toEqual({ webhook_id: WH, delivery_id: expect.any(String), event_type: 'webhook.test' });
    expect(w.h.sent).toHaveLength(1);
    const [req] = w.h.sent;
    expect(req.headers).toMatchObject({ 'X-Service-Event': 'webhook.test', 'X-Service-Webhook-Id': WH, 'webhook-id': res.delivery_id });
    expect(JSON.parse(req.body!)).toEqual({
      event_type: 'webhook.test',
      project_id: PROJECT,
      created_at: '2026-11-21T12:00:00.000000+00:00',
      data: { webhook_id: WH, message: 'This is a test event sent by POST /v1/webhooks/{webhook_id}/test.' },
    });
    expect(w.h.deliveryLog.entries.map((l) => [l.webhookId, l.entry.delivery_id, l.entry.event_type, l.entry.outcome])).toEqual([
      [WH, res.delivery_id, 'webhook.test', 'succeeded'],
    ]);
  });

  it('is not picked up by recover when it failed, and answers 404 for an unknown webhook', async () => {
    const w = world();
    w.h.hook(WH);
    w.h.reply(500);
    await sendTestEvent(w.deps, PROJECT, WH);
    await w.drain();

    expect(await recoverDeliveries(w.deps, PROJECT, WH, START)).toEqual({ queued: 0 });
    await expect(sendTestEvent(w.deps, OTHER_PROJECT, WH)).rejects.toMatchObject({ status: 404 });
  });
});

describe('commands on the bus', () => {
  it('never reach the fan-out: a "*" subscriber gets no delivery of the command itself', async () => {
    const w = world();
    w.h.hook(WH);
    await w.failures(1, 200);
    const sent = w.h.sent.length;
    await resendDelivery(w.deps, PROJECT, WH, w.h.deliveryLog.entries[0].entry.delivery_id);

    await w.drain();

    expect(w.h.sent.slice(sent).map((r) => r.headers['X-Service-Event'])).toEqual(['run.completed']);
  });

  it('gives a command back when the store fails before its first try, so the bus retry sends it once', async () => {
    const w = world();
    w.h.hook(WH);
    await w.failures(1);
    await resendDelivery(w.deps, PROJECT, WH, w.h.deliveryLog.entries[0].entry.delivery_id);
    const [command] = w.queued.splice(0);
    const getDelivery = w.h.deliveryLog.getDelivery.bind(w.h.deliveryLog);
    w.h.deliveryLog.getDelivery = async () => {
      throw new Error('ProvisionedThroughputExceededException');
    };

    await expect(handleBusEvent(w.h.deps, command)).rejects.toThrow('ProvisionedThroughputExceededException');
    w.h.deliveryLog.getDelivery = getDelivery;
    w.h.reply(200);
    const retried = await handleBusEvent(w.h.deps, command);

    expect(retried.results[0].outcome).toBe('succeeded');
    expect(w.h.sent).toHaveLength(5);
  });

  it('throws on a command of the wrong shape, sending nothing', async () => {
    const w = world();
    w.h.hook(WH);
    const bad: BusEvent = {
      id: 'c1',
      envelope: { event_type: 'rts.webhook.command' as never, project_id: PROJECT, created_at: START, data: { kind: 'explode', webhook_id: WH } },
    };

    await expect(handleBusEvent(w.h.deps, bad)).rejects.toThrow(/unknown kind/);
    expect(w.h.sent).toHaveLength(0);
  });
});

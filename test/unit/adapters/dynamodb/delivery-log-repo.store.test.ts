// DynamoDeliveryLogRepo against dynalite: delivery claims (one delivery per event and webhook, released only by their
// holder), the log listed newest first without expired entries, entries found by delivery id, failed ones listed oldest
// first, redeliveries appended under a version (concurrent ones all land, 40 tries kept), kept events.
import { randomUUID } from 'node:crypto';
import { DynamoDeliveryLogRepo } from '../../../../functions/adapters/dynamodb/delivery-log-repo';
import type { DeliveryAttempt, DeliveryLogEntry, DeliveryOutcome } from '../../../../functions/core/webhooks/schema';
import { startDynalite, type TestTable } from '../../../helpers/dynalite';

let table: TestTable;
let repo: DynamoDeliveryLogRepo;

beforeAll(async () => {
  table = await startDynalite();
  repo = new DynamoDeliveryLogRepo();
});
afterAll(() => table.close());

const at = (seconds: number) => `2026-11-21T10:00:${String(seconds).padStart(2, '0')}.000000+00:00`;
const NOW_EPOCH = Date.parse('2026-11-21T10:05:00Z') / 1000;
const LIVE = NOW_EPOCH + 3600;
const WEEK_S = 7 * 24 * 3600;
const webhookId = () => `wh_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
const attempt = (status: number): DeliveryAttempt => ({
  at: at(1),
  status_code: status,
  error: status < 300 ? null : `HTTP ${status}`,
  duration_ms: 3,
});

function entry(createdAt: string, outcome: DeliveryOutcome = 'failed'): DeliveryLogEntry {
  return {
    delivery_id: randomUUID(),
    event_type: 'run.completed',
    created_at: createdAt,
    outcome,
    attempts: [attempt(outcome === 'failed' ? 500 : 200)],
  };
}

function scope() {
  return { pid: randomUUID(), wid: webhookId() };
}

describe('delivery claims', () => {
  it("claims an event for one delivery: another delivery is refused, the same delivery's repeat is answered true", async () => {
    // Prepare
    const [wid, eventId, deliveryId] = [webhookId(), randomUUID(), randomUUID()];
    // Act
    const first = await repo.claimDelivery(wid, eventId, LIVE, deliveryId);
    const rival = await repo.claimDelivery(wid, eventId, LIVE, randomUUID());
    const repeat = await repo.claimDelivery(wid, eventId, LIVE, deliveryId);
    // Assess
    expect([first, rival, repeat]).toEqual([true, false, true]);
  });

  it('lets exactly one of several concurrent deliveries claim the same event', async () => {
    // Prepare
    const [wid, eventId] = [webhookId(), randomUUID()];
    // Act
    const answers = await Promise.all(Array.from({ length: 5 }, () => repo.claimDelivery(wid, eventId, LIVE, randomUUID())));
    // Assess
    expect(answers.filter(Boolean)).toHaveLength(1);
  });

  it('claims each (webhook, event) pair on its own', async () => {
    // Prepare
    const [wid, otherWid, eventId] = [webhookId(), webhookId(), randomUUID()];
    await repo.claimDelivery(wid, eventId, LIVE, randomUUID());
    // Act
    const otherEvent = await repo.claimDelivery(wid, randomUUID(), LIVE, randomUUID());
    const otherWebhook = await repo.claimDelivery(otherWid, eventId, LIVE, randomUUID());
    // Assess
    expect([otherEvent, otherWebhook]).toEqual([true, true]);
  });

  it('releases a claim only for its holder, after which another holder can take it', async () => {
    const wid = webhookId();
    await repo.claimDelivery(wid, 'recover:x:0', LIVE, 'holder-a');

    await repo.releaseClaim(wid, 'recover:x:0', 'holder-b');
    const whileHeld = await repo.claimDelivery(wid, 'recover:x:0', LIVE, 'holder-b');
    await repo.releaseClaim(wid, 'recover:x:0', 'holder-a');
    const afterRelease = await repo.claimDelivery(wid, 'recover:x:0', LIVE, 'holder-b');

    expect([whileHeld, afterRelease]).toEqual([false, true]);
  });
});

describe('the delivery log', () => {
  it('lists the log newest first, a page at a time, without storage attributes', async () => {
    // Prepare
    const { pid, wid } = scope();
    const entries = [entry(at(1), 'succeeded'), entry(at(2)), entry(at(3), 'succeeded')];
    entries[1] = { ...entries[1], attempts: [{ at: at(2), status_code: null, error: 'timeout after 5000 ms', duration_ms: 5000 }] };
    for (const e of entries) await repo.putDelivery(pid, wid, e, NOW_EPOCH + WEEK_S);
    // Act
    const first = await repo.listDeliveries(pid, wid, { limit: 2 }, NOW_EPOCH);
    const second = await repo.listDeliveries(pid, wid, { limit: 2, after: first.last }, NOW_EPOCH);
    // Assess
    expect(first.items).toEqual([entries[2], entries[1]]);
    expect(first.last).toBeDefined();
    expect(second.items).toEqual([entries[0]]);
    expect(second.last).toBeUndefined();
  });

  it('leaves out entries whose expiry is not after nowEpoch, and entries of other webhooks', async () => {
    // Prepare
    const { pid, wid } = scope();
    const [expired, expiringNow, live] = [entry(at(1), 'succeeded'), entry(at(2), 'succeeded'), entry(at(3), 'succeeded')];
    await repo.putDelivery(pid, wid, expired, NOW_EPOCH - 1);
    await repo.putDelivery(pid, wid, expiringNow, NOW_EPOCH);
    await repo.putDelivery(pid, wid, live, NOW_EPOCH + 1);
    await repo.putDelivery(pid, webhookId(), entry(at(4), 'succeeded'), NOW_EPOCH + WEEK_S);
    // Act
    const page = await repo.listDeliveries(pid, wid, { limit: 10 }, NOW_EPOCH);
    // Assess
    expect(page).toEqual({ items: [live], last: undefined });
  });

  it('keeps one entry when the same delivery is written twice (a retried write)', async () => {
    // Prepare
    const { pid, wid } = scope();
    const e = entry(at(1), 'succeeded');
    // Act
    await repo.putDelivery(pid, wid, e, NOW_EPOCH + WEEK_S);
    await repo.putDelivery(pid, wid, e, NOW_EPOCH + WEEK_S);
    // Assess
    expect((await repo.listDeliveries(pid, wid, { limit: 10 }, NOW_EPOCH)).items).toEqual([e]);
  });

  it('answers an empty log for a webhook without deliveries', async () => {
    // Prepare
    const { pid, wid } = scope();
    // Act
    const page = await repo.listDeliveries(pid, wid, { limit: 10 }, NOW_EPOCH);
    // Assess
    expect(page).toEqual({ items: [], last: undefined });
  });
});

describe('delivery log entries by id', () => {
  it('finds an entry written with its event id, with version 0, and lists it without event id or version', async () => {
    const { pid, wid } = scope();
    const e = entry(at(1));

    await repo.putDelivery(pid, wid, e, LIVE, 'evt-1');

    expect(await repo.getDelivery(pid, wid, e.delivery_id, NOW_EPOCH)).toEqual({ ...e, event_id: 'evt-1', version: 0 });
    expect((await repo.listDeliveries(pid, wid, { limit: 10 }, NOW_EPOCH)).items).toEqual([e]);
  });

  it('answers null for an unknown id, an expired entry, another webhook and an entry written without an event id', async () => {
    const { pid, wid } = scope();
    const [expired, legacy] = [entry(at(1)), entry(at(2))];
    await repo.putDelivery(pid, wid, expired, NOW_EPOCH, 'evt-x');
    await repo.putDelivery(pid, wid, legacy, LIVE);

    expect(await repo.getDelivery(pid, wid, randomUUID(), NOW_EPOCH)).toBeNull();
    expect(await repo.getDelivery(pid, wid, expired.delivery_id, NOW_EPOCH)).toBeNull();
    expect(await repo.getDelivery(pid, webhookId(), expired.delivery_id, NOW_EPOCH - 10)).toBeNull();
    expect(await repo.getDelivery(pid, wid, legacy.delivery_id, NOW_EPOCH)).toBeNull();
  });
});

describe('listFailedDeliveries', () => {
  it('lists failed entries created at or after since, oldest first, with their event ids and versions', async () => {
    const { pid, wid } = scope();
    const [old, ok, failed1, failed2, expired] = [entry(at(1)), entry(at(3), 'succeeded'), entry(at(4)), entry(at(5)), entry(at(6))];
    for (const [e, exp] of [
      [failed2, LIVE],
      [old, LIVE],
      [ok, LIVE],
      [failed1, LIVE],
      [expired, NOW_EPOCH],
    ] as const) {
      await repo.putDelivery(pid, wid, e, exp, `evt-${e.created_at}`);
    }

    const listed = await repo.listFailedDeliveries(pid, wid, at(2), NOW_EPOCH);

    expect(listed.map((d) => [d.delivery_id, d.event_id, d.version])).toEqual([
      [failed1.delivery_id, `evt-${at(4)}`, 0],
      [failed2.delivery_id, `evt-${at(5)}`, 0],
    ]);
  });
});

describe('recordRedelivery', () => {
  it('appends the tries, sets the outcome (or keeps it for null) and increments the version', async () => {
    const { pid, wid } = scope();
    const e = entry(at(1));
    await repo.putDelivery(pid, wid, e, LIVE, 'evt-1');

    expect(await repo.recordRedelivery(pid, wid, e.delivery_id, { attempts: [], outcome: null })).toBe(true);
    expect(await repo.recordRedelivery(pid, wid, e.delivery_id, { attempts: [attempt(200)], outcome: 'succeeded' })).toBe(true);

    expect(await repo.getDelivery(pid, wid, e.delivery_id, NOW_EPOCH)).toMatchObject({
      outcome: 'succeeded',
      attempts: [attempt(500), attempt(200)],
      version: 2,
    });
    expect(await repo.recordRedelivery(pid, wid, randomUUID(), { attempts: [attempt(200)], outcome: 'succeeded' })).toBe(false);
  });

  it('lands every one of several concurrent redeliveries, and keeps the last 40 tries', async () => {
    const { pid, wid } = scope();
    const e = entry(at(1));
    await repo.putDelivery(pid, wid, e, LIVE, 'evt-1');

    await Promise.all(
      Array.from({ length: 6 }, () => repo.recordRedelivery(pid, wid, e.delivery_id, { attempts: [attempt(502)], outcome: 'failed' })),
    );
    const afterRace = await repo.getDelivery(pid, wid, e.delivery_id, NOW_EPOCH);
    for (let i = 0; i < 10; i++)
      await repo.recordRedelivery(pid, wid, e.delivery_id, { attempts: [1, 2, 3, 4].map(() => attempt(503)), outcome: 'failed' });
    const capped = await repo.getDelivery(pid, wid, e.delivery_id, NOW_EPOCH);

    expect(afterRace).toMatchObject({ version: 6 });
    expect(afterRace!.attempts).toHaveLength(7);
    expect(capped!.version).toBe(16);
    expect(capped!.attempts).toHaveLength(40);
    expect([...new Set(capped!.attempts.map((a) => a.status_code))]).toEqual([503]);
  });
});

describe('kept events', () => {
  it('keeps the first body under an event id, and forgets it once expired', async () => {
    const { pid } = scope();

    await repo.putEvent(pid, 'evt-1', { event_type: 'run.completed', body: '{"a":1}' }, LIVE);
    await repo.putEvent(pid, 'evt-1', { event_type: 'run.completed', body: '{"a":2}' }, LIVE);
    await repo.putEvent(pid, 'evt-2', { event_type: 'webhook.test', body: '{}' }, NOW_EPOCH);

    expect(await repo.getEvent(pid, 'evt-1', NOW_EPOCH)).toEqual({ event_type: 'run.completed', body: '{"a":1}' });
    expect(await repo.getEvent(randomUUID(), 'evt-1', NOW_EPOCH)).toBeNull();
    expect(await repo.getEvent(pid, 'evt-2', NOW_EPOCH)).toBeNull();
  });

  it('keeps a body of 256 KiB, the largest a bus event carries', async () => {
    const { pid } = scope();
    const body = JSON.stringify({ data: 'x'.repeat(256 * 1024 - 20) });

    await repo.putEvent(pid, 'big', { event_type: 'run.completed', body }, LIVE);

    expect((await repo.getEvent(pid, 'big', NOW_EPOCH))?.body).toBe(body);
  });
});

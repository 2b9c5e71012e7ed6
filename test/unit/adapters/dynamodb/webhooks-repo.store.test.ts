// DynamoWebhooksRepo against dynalite: the per-project limit (concurrent creates included), reads and newest-first
// listings, patches, rotations and deletes that never recreate a webhook, and the outcome fields a delivery records.
import { randomBytes, randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDocClient } from '../../../../functions/adapters/dynamodb/client';
import { keys } from '../../../../functions/adapters/dynamodb/keys';
import { DynamoWebhooksRepo } from '../../../../functions/adapters/dynamodb/webhooks-repo';
import type { WebhookRecord } from '../../../../functions/core/webhooks/schema';
import { startDynalite, type TestTable } from '../../../helpers/dynalite';

let table: TestTable;

beforeAll(async () => {
  table = await startDynalite();
});
afterAll(() => table.close());

/** The timestamp `seconds` seconds into 2026-11-21T10:00, in the service's format. */
const at = (seconds: number) => `2026-11-21T10:00:${String(seconds).padStart(2, '0')}.000000+00:00`;
const AT = at(0);

/** A webhook item written the way another process's create leaves it, without this process knowing. */
async function putRawWebhook(w: WebhookRecord): Promise<void> {
  await dynamoDocClient().send(
    new PutCommand({ TableName: process.env.TABLE_NAME, Item: { ...keys.webhook(w.project_id, w.webhook_id), entity: 'webhook', ...w, slot: 0 } }),
  );
}

const webhookId = () => `wh_${randomUUID().replace(/-/g, '').slice(0, 24)}`;

function makeWebhook(overrides: Partial<WebhookRecord> = {}): WebhookRecord {
  return {
    project_id: randomUUID(),
    webhook_id: webhookId(),
    url: 'https://example.com/hooks/rts',
    events: ['run.completed', 'ci.decision.fail'],
    is_enabled: true,
    description: 'CI notifications',
    secret: `whsec_${randomBytes(32).toString('base64')}`,
    created_at: AT,
    updated_at: AT,
    last_error: null,
    last_error_at: null,
    last_delivery_at: null,
    last_status: null,
    ...overrides,
  };
}

/** A stored webhook (created under a generous limit). */
async function storedWebhook(overrides: Partial<WebhookRecord> = {}): Promise<{ repo: DynamoWebhooksRepo; w: WebhookRecord }> {
  const repo = new DynamoWebhooksRepo();
  const w = makeWebhook(overrides);
  expect(await repo.create(w, 25)).toEqual({ created: true });
  return { repo, w };
}

const byId = (x: { webhook_id: string }, y: { webhook_id: string }) => x.webhook_id.localeCompare(y.webhook_id);

/** The repo's private count of a project's webhooks, which a test can hold back to force an interleaving. */
type Ranked = { ranked(projectId: string): Promise<{ webhook_id: string; created_at: string }[]> };

describe('DynamoWebhooksRepo.create', () => {
  afterEach(() => jest.restoreAllMocks());

  it('stores webhooks while the project is under its limit and reads them back', async () => {
    // Prepare
    const repo = new DynamoWebhooksRepo();
    const pid = randomUUID();
    const first = makeWebhook({ project_id: pid, created_at: at(1) });
    const second = makeWebhook({ project_id: pid, created_at: at(2), description: null, events: ['*'] });
    // Act
    const answers = [await repo.create(first, 2), await repo.create(second, 2)];
    // Assess
    expect(answers).toEqual([{ created: true }, { created: true }]);
    expect(await repo.get(pid, first.webhook_id)).toEqual(first);
    expect(await repo.get(pid, second.webhook_id)).toEqual(second);
  });

  it('refuses a create once the project holds `limit` webhooks, and keeps nothing of it', async () => {
    // Prepare
    const repo = new DynamoWebhooksRepo();
    const pid = randomUUID();
    const existing = [makeWebhook({ project_id: pid, created_at: at(1) }), makeWebhook({ project_id: pid, created_at: at(2) })];
    for (const w of existing) await repo.create(w, 2);
    const extra = makeWebhook({ project_id: pid, created_at: at(3) });
    // Act
    const answer = await repo.create(extra, 2);
    // Assess
    expect(answer).toEqual({ created: false });
    expect(await repo.get(pid, extra.webhook_id)).toBeNull();
    expect((await repo.listAll(pid)).sort(byId)).toEqual([...existing].sort(byId));
  });

  it("counts only the project's own webhooks against its limit", async () => {
    // Prepare
    const repo = new DynamoWebhooksRepo();
    const full = makeWebhook();
    await repo.create(full, 1);
    const other = makeWebhook();
    // Act
    const answer = await repo.create(other, 1);
    // Assess
    expect(answer).toEqual({ created: true });
    expect(await repo.listAll(other.project_id)).toEqual([other]);
    expect(await repo.listAll(full.project_id)).toEqual([full]);
  });

  it('leaves exactly `limit` webhooks when concurrent creates race past it, and answers created for exactly those', async () => {
    // Prepare
    const repo = new DynamoWebhooksRepo();
    const pid = randomUUID();
    const existing = makeWebhook({ project_id: pid, created_at: at(1) });
    await repo.create(existing, 3);
    const racers = Array.from({ length: 6 }, () => makeWebhook({ project_id: pid, created_at: at(2) }));
    // Act
    const answers = await Promise.all(racers.map((w) => repo.create(w, 3)));
    // Assess
    const stored = await repo.listAll(pid);
    expect(stored).toHaveLength(3);
    const createdIds = racers.filter((_, i) => answers[i].created).map((w) => w.webhook_id);
    expect(createdIds).toHaveLength(2);
    expect(stored.map((w) => w.webhook_id).sort()).toEqual([existing.webhook_id, ...createdIds].sort());
  });

  // The limit holds even when an older create writes after a newer one already kept its own (one slot per webhook).
  it('never leaves more than `limit` webhooks when an older create writes after a newer one already kept its own', async () => {
    // Prepare
    const pid = randomUUID();
    const older = makeWebhook({ project_id: pid, created_at: at(1) });
    const newer = makeWebhook({ project_id: pid, created_at: at(2) });
    const slowRepo = new DynamoWebhooksRepo();
    const original = (DynamoWebhooksRepo.prototype as unknown as Ranked).ranked;
    let counted!: () => void;
    const hasCounted = new Promise<void>((resolve) => (counted = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    jest.spyOn(slowRepo as unknown as Ranked, 'ranked').mockImplementationOnce(async function (this: Ranked, projectId: string) {
      const ranked = await original.call(this, projectId);
      counted();
      await released;
      return ranked;
    });
    // Act
    const slow = slowRepo.create(older, 1);
    await hasCounted;
    const fast = await new DynamoWebhooksRepo().create(newer, 1);
    release();
    const answers = [await slow, fast];
    // Assess
    const stored = await new DynamoWebhooksRepo().listAll(pid);
    expect(stored).toHaveLength(1);
    expect(answers.filter((a) => a.created)).toHaveLength(1);
  });

  it('refuses a second webhook under the same id and keeps the first', async () => {
    // Prepare
    const { repo, w } = await storedWebhook();
    // Act
    const again = repo.create({ ...w, url: 'https://other.example.com/hook', secret: 'whsec_other' }, 25);
    // Assess
    await expect(again).rejects.toThrow(`webhook ${w.webhook_id} already exists`);
    expect(await repo.get(w.project_id, w.webhook_id)).toEqual(w);
  });
});

describe('DynamoWebhooksRepo reads', () => {
  it('answers null for a webhook that does not exist or belongs to another project', async () => {
    // Prepare
    const { repo, w } = await storedWebhook();
    // Act
    const [missing, foreign] = await Promise.all([repo.get(w.project_id, webhookId()), repo.get(randomUUID(), w.webhook_id)]);
    // Assess
    expect([missing, foreign]).toEqual([null, null]);
  });

  it('lists every webhook of the project, whole and without storage attributes, and nothing of other projects', async () => {
    // Prepare
    const repo = new DynamoWebhooksRepo();
    const pid = randomUUID();
    const mine = [1, 2, 3].map((s) => makeWebhook({ project_id: pid, created_at: at(s) }));
    for (const w of [...mine, makeWebhook()]) await repo.create(w, 25);
    // Act
    const all = await repo.listAll(pid);
    // Assess
    expect(all.sort(byId)).toEqual([...mine].sort(byId));
  });

  it('sees a webhook another process stored right after it found the project without any', async () => {
    // Prepare: a project found empty by the fan-out, then given a webhook by another process (straight to the table)
    const repo = new DynamoWebhooksRepo();
    const pid = randomUUID();
    expect(await repo.listAll(pid)).toEqual([]);
    const foreign = makeWebhook({ project_id: pid });
    await putRawWebhook(foreign);
    // Act
    const next = await repo.listAll(pid);
    // Assess
    expect(next.map((w) => w.webhook_id)).toEqual([foreign.webhook_id]);
  });

  it('sees a webhook stored while a read of the project was under way, in the calls made after the store', async () => {
    // Prepare: a read under way, then another process stores a webhook, then 20 more calls at the same time
    const repo = new DynamoWebhooksRepo();
    const pid = randomUUID();
    const underWay = repo.listAll(pid);
    const foreign = makeWebhook({ project_id: pid });
    await putRawWebhook(foreign);
    // Act
    const after = await Promise.all(Array.from({ length: 20 }, () => repo.listAll(pid)));
    // Assess: each call after the store sees it, with records of its own
    expect(after.map((list) => list.map((w) => w.webhook_id))).toEqual(after.map(() => [foreign.webhook_id]));
    (after[0][0].events as string[]).push('run.failed');
    expect(after[1][0].events).toEqual(foreign.events);
    expect((await underWay).length).toBeLessThanOrEqual(1);
  });

  it('answers an empty list for a project without webhooks', async () => {
    // Prepare
    const repo = new DynamoWebhooksRepo();
    // Act
    const [all, page] = await Promise.all([repo.listAll(randomUUID()), repo.list(randomUUID(), { limit: 10 })]);
    // Assess
    expect(all).toEqual([]);
    expect(page).toEqual({ items: [], last: undefined });
  });

  it('lists the webhooks of a project newest first, a page at a time, ties broken by id', async () => {
    // Prepare
    const repo = new DynamoWebhooksRepo();
    const pid = randomUUID();
    const [a, b, c] = [1, 2, 3].map((s) => makeWebhook({ project_id: pid, created_at: at(s) }));
    const [tieLow, tieHigh] = [makeWebhook({ project_id: pid, created_at: at(4) }), makeWebhook({ project_id: pid, created_at: at(4) })].sort(byId);
    for (const w of [a, b, c, tieLow, tieHigh, makeWebhook({ created_at: at(5) })]) await repo.create(w, 25);
    // Act
    const first = await repo.list(pid, { limit: 2 });
    const second = await repo.list(pid, { limit: 2, after: first.last });
    const third = await repo.list(pid, { limit: 2, after: second.last });
    // Assess
    expect(first.items).toEqual([tieHigh, tieLow]);
    expect(second.items).toEqual([c, b]);
    expect(third.items).toEqual([a]);
    expect(first.last).toEqual({ created_at: tieLow.created_at, webhook_id: tieLow.webhook_id });
    expect(third.last).toBeUndefined();
  });

  it('answers no cursor when a page ends exactly at the last webhook', async () => {
    // Prepare
    const repo = new DynamoWebhooksRepo();
    const pid = randomUUID();
    const [a, b] = [1, 2].map((s) => makeWebhook({ project_id: pid, created_at: at(s) }));
    for (const w of [a, b]) await repo.create(w, 25);
    // Act
    const page = await repo.list(pid, { limit: 2 });
    // Assess
    expect(page).toEqual({ items: [b, a], last: undefined });
  });

  it('continues after the position of a cursor whose webhook was deleted in the meantime', async () => {
    // Prepare
    const repo = new DynamoWebhooksRepo();
    const pid = randomUUID();
    const [a, b, c] = [1, 2, 3].map((s) => makeWebhook({ project_id: pid, created_at: at(s) }));
    for (const w of [a, b, c]) await repo.create(w, 25);
    const first = await repo.list(pid, { limit: 2 });
    await repo.delete(pid, b.webhook_id);
    // Act
    const second = await repo.list(pid, { limit: 2, after: first.last });
    // Assess
    expect(first.items).toEqual([c, b]);
    expect(second).toEqual({ items: [a], last: undefined });
  });
});

describe('DynamoWebhooksRepo changes', () => {
  it('applies a patch, answers the changed webhook and leaves the fields it does not carry alone', async () => {
    // Prepare
    const { repo, w } = await storedWebhook({ last_error: 'HTTP 500', last_error_at: at(5) });
    const changes = { url: 'https://hooks.example.org/new', events: ['*'] as ['*'], is_enabled: false, description: null, updated_at: at(30) };
    // Act
    const updated = await repo.update(w.project_id, w.webhook_id, changes);
    // Assess
    const expected = { ...w, ...changes };
    expect(updated).toEqual(expected);
    expect(await repo.get(w.project_id, w.webhook_id)).toEqual(expected);
  });

  it('skips the fields of a patch that are undefined', async () => {
    // Prepare
    const { repo, w } = await storedWebhook();
    // Act
    const updated = await repo.update(w.project_id, w.webhook_id, { is_enabled: false, url: undefined, description: undefined, updated_at: at(30) });
    // Assess
    expect(updated).toEqual({ ...w, is_enabled: false, updated_at: at(30) });
  });

  it('answers null to a patch of a webhook that does not exist, and creates nothing', async () => {
    // Prepare
    const repo = new DynamoWebhooksRepo();
    const pid = randomUUID();
    const id = webhookId();
    // Act
    const updated = await repo.update(pid, id, { is_enabled: false, updated_at: at(30) });
    // Assess
    expect(updated).toBeNull();
    expect(await repo.get(pid, id)).toBeNull();
  });

  it('never recreates a deleted webhook with a patch', async () => {
    // Prepare
    const { repo, w } = await storedWebhook();
    await repo.delete(w.project_id, w.webhook_id);
    // Act
    const updated = await repo.update(w.project_id, w.webhook_id, { description: 'late patch', updated_at: at(30) });
    // Assess
    expect(updated).toBeNull();
    expect(await repo.get(w.project_id, w.webhook_id)).toBeNull();
    expect(await repo.listAll(w.project_id)).toEqual([]);
  });

  it('replaces the secret and updated_at, and answers false for a webhook that does not exist, creating nothing', async () => {
    // Prepare
    const { repo, w } = await storedWebhook();
    const missing = webhookId();
    // Act
    const rotated = await repo.rotateSecret(w.project_id, w.webhook_id, 'whsec_rotated', at(40));
    const rotatedMissing = await repo.rotateSecret(w.project_id, missing, 'whsec_rotated', at(40));
    // Assess
    expect([rotated, rotatedMissing]).toEqual([true, false]);
    expect(await repo.get(w.project_id, w.webhook_id)).toEqual({ ...w, secret: 'whsec_rotated', updated_at: at(40) });
    expect(await repo.get(w.project_id, missing)).toBeNull();
  });

  it('never recreates a deleted webhook by rotating its secret', async () => {
    // Prepare
    const { repo, w } = await storedWebhook();
    await repo.delete(w.project_id, w.webhook_id);
    // Act
    const rotated = await repo.rotateSecret(w.project_id, w.webhook_id, 'whsec_rotated', at(40));
    // Assess
    expect(rotated).toBe(false);
    expect(await repo.get(w.project_id, w.webhook_id)).toBeNull();
  });

  it('deletes a webhook once: true, then false, and it is gone from reads and listings', async () => {
    // Prepare
    const { repo, w } = await storedWebhook();
    // Act
    const first = await repo.delete(w.project_id, w.webhook_id);
    const second = await repo.delete(w.project_id, w.webhook_id);
    // Assess
    expect([first, second]).toEqual([true, false]);
    expect(await repo.get(w.project_id, w.webhook_id)).toBeNull();
    expect(await repo.list(w.project_id, { limit: 10 })).toEqual({ items: [], last: undefined });
  });

  it('frees a place under the limit when a webhook is deleted', async () => {
    // Prepare
    const { repo, w } = await storedWebhook();
    const next = makeWebhook({ project_id: w.project_id, created_at: at(9) });
    const refused = await repo.create(next, 1);
    await repo.delete(w.project_id, w.webhook_id);
    // Act
    const answer = await repo.create(next, 1);
    // Assess
    expect([refused, answer]).toEqual([{ created: false }, { created: true }]);
    expect(await repo.listAll(w.project_id)).toEqual([next]);
  });
});

describe('DynamoWebhooksRepo delivery outcomes', () => {
  it('records a failure: sets last_error and last_error_at and touches nothing else', async () => {
    // Prepare
    const { repo, w } = await storedWebhook({ last_delivery_at: at(1), last_status: 200 });
    // Act
    await repo.recordFailure(w.project_id, w.webhook_id, at(20), 'HTTP 500');
    // Assess
    expect(await repo.get(w.project_id, w.webhook_id)).toEqual({ ...w, last_error: 'HTTP 500', last_error_at: at(20) });
  });

  it('records a success: sets last_delivery_at and last_status and clears last_error', async () => {
    // Prepare
    const { repo, w } = await storedWebhook();
    await repo.recordFailure(w.project_id, w.webhook_id, at(20), 'timeout after 5000 ms');
    // Act
    await repo.recordSuccess(w.project_id, w.webhook_id, at(30), 204);
    // Assess
    const stored = await repo.get(w.project_id, w.webhook_id);
    expect(stored?.last_error ?? null).toBeNull();
    expect(stored).toMatchObject({ last_delivery_at: at(30), last_status: 204, last_error_at: at(20) });
    const { last_error: _e, ...rest } = stored!;
    const { last_error: _w, ...unchanged } = w;
    expect(rest).toEqual({ ...unchanged, last_delivery_at: at(30), last_status: 204, last_error_at: at(20) });
  });

  it('never recreates a deleted webhook when recording an outcome', async () => {
    // Prepare
    const { repo, w } = await storedWebhook();
    await repo.delete(w.project_id, w.webhook_id);
    // Act
    await repo.recordSuccess(w.project_id, w.webhook_id, at(30), 200);
    await repo.recordFailure(w.project_id, w.webhook_id, at(31), 'HTTP 503');
    // Assess
    expect(await repo.get(w.project_id, w.webhook_id)).toBeNull();
    expect(await repo.listAll(w.project_id)).toEqual([]);
  });
});

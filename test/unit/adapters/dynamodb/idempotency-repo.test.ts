// DynamoIdempotencyRepo against dynalite: a key claimed once, the existing record answered to later claims, expired
// claims claimable again, completed answers kept until their expiry, release, and a claim whose answer was lost.
import { randomUUID } from 'node:crypto';
import { DynamoIdempotencyRepo } from '../../../../functions/adapters/dynamodb/idempotency-repo';
import { keys } from '../../../../functions/adapters/dynamodb/keys';
import { getItem } from '../../../../functions/adapters/dynamodb/table';
import { sha256Hex } from '../../../../functions/core/json';
import type { IdempotencyRecord } from '../../../../functions/core/ports';
import { startDynaliteWithLostAnswers, type TableWithLostAnswers } from '../../../helpers/dynalite-lost-answers';

let table: TableWithLostAnswers;

beforeAll(async () => {
  table = await startDynaliteWithLostAnswers();
});
afterAll(() => table.close());

const T0 = Date.parse('2026-11-21T10:00:00Z');
const seconds = (ms: number) => Math.floor(ms / 1000);

/** A claim made at `atMs` that lives `ttlS` seconds. */
function claimAt(atMs: number, overrides: Partial<IdempotencyRecord> = {}, ttlS = 60): IdempotencyRecord {
  return {
    project_id: overrides.project_id ?? randomUUID(),
    key: `key-${randomUUID()}`,
    route: 'post-runs',
    request_hash: 'a'.repeat(64),
    claim_id: randomUUID(),
    status: 'in_progress',
    created_at: new Date(atMs).toISOString(),
    expires_at: seconds(atMs) + ttlS,
    ...overrides,
  };
}

const storedItem = (rec: { project_id: string; key: string }) => getItem(keys.idempotency(rec.project_id, sha256Hex(rec.key)), true);

describe('DynamoIdempotencyRepo.claim', () => {
  it('claims a fresh key: answers null and stores the claim under the hash of the key', async () => {
    // Prepare
    const repo = new DynamoIdempotencyRepo();
    const rec = claimAt(T0);
    // Act
    const existing = await repo.claim(rec);
    // Assess
    expect(existing).toBeNull();
    expect(await storedItem(rec)).toMatchObject({ ...rec, entity: 'idempotency' });
  });

  it('answers the existing record to a second claim of a live key, and keeps the first claim', async () => {
    // Prepare
    const repo = new DynamoIdempotencyRepo();
    const first = claimAt(T0);
    await repo.claim(first);
    const second = { ...claimAt(T0 + 5000, { project_id: first.project_id, key: first.key }), request_hash: 'b'.repeat(64) };
    // Act
    const existing = await repo.claim(second);
    // Assess
    const { expires_at: _e, ...recorded } = first;
    expect(existing).toMatchObject(recorded);
    expect((await storedItem(first))?.claim_id).toBe(first.claim_id);
  });

  it('lets an expired claim be claimed again (TTL deletion is lazy)', async () => {
    // Prepare
    const repo = new DynamoIdempotencyRepo();
    const first = claimAt(T0, {}, 30);
    await repo.claim(first);
    const later = claimAt(T0 + 31_000, { project_id: first.project_id, key: first.key });
    // Act
    const existing = await repo.claim(later);
    // Assess
    expect(existing).toBeNull();
    expect((await storedItem(first))?.claim_id).toBe(later.claim_id);
  });

  it('claims the same key separately in each project', async () => {
    // Prepare
    const repo = new DynamoIdempotencyRepo();
    const mine = claimAt(T0);
    await repo.claim(mine);
    // Act
    const theirs = await repo.claim(claimAt(T0, { key: mine.key }));
    // Assess
    expect(theirs).toBeNull();
  });

  it('grants exactly one of several concurrent claims of a key', async () => {
    // Prepare
    const repo = new DynamoIdempotencyRepo();
    const base = claimAt(T0);
    const claims = Array.from({ length: 5 }, () => ({ ...base, claim_id: randomUUID() }));
    // Act
    const answers = await Promise.all(claims.map((c) => repo.claim(c)));
    // Assess
    expect(answers.filter((a) => a === null)).toHaveLength(1);
    const winner = (await storedItem(base))?.claim_id;
    expect(answers.filter((a) => a !== null).map((a) => a?.claim_id)).toEqual(Array(answers.length - 1).fill(winner));
  });

  it('recognises its own claim whose answer was lost (by claim_id): it answers null, a later claim gets the record', async () => {
    // Prepare
    const repo = new DynamoIdempotencyRepo();
    const rec = claimAt(T0);
    const lost = table.loseNextAnswer('PutItem', keys.idempotency(rec.project_id, sha256Hex(rec.key)));
    // Act
    const existing = await repo.claim(rec);
    const other = await repo.claim({ ...rec, claim_id: randomUUID() });
    // Assess
    expect(await lost).toMatchObject({ kind: 'lost_response', applied: true });
    expect(existing).toBeNull();
    expect(other?.claim_id).toBe(rec.claim_id);
  });
});

describe('DynamoIdempotencyRepo.complete and release', () => {
  it('completes a claim with its response and expiry, which later claims are answered', async () => {
    // Prepare
    const repo = new DynamoIdempotencyRepo();
    const rec = claimAt(T0);
    await repo.claim(rec);
    const expiry = seconds(T0) + 86_400;
    // Act
    await repo.complete(rec.project_id, rec.key, 201, '{"run_id":"r1"}', expiry);
    const replay = await repo.claim(claimAt(T0 + 3_600_000, { project_id: rec.project_id, key: rec.key }));
    // Assess
    expect(replay).toMatchObject({
      claim_id: rec.claim_id,
      request_hash: rec.request_hash,
      status: 'done',
      response_status: 201,
      response_body: '{"run_id":"r1"}',
    });
    expect((await storedItem(rec))?.expires_at).toBe(expiry);
  });

  it('lets a completed key be claimed again once its expiry has passed', async () => {
    // Prepare
    const repo = new DynamoIdempotencyRepo();
    const rec = claimAt(T0);
    await repo.claim(rec);
    const expiry = seconds(T0) + 86_400;
    await repo.complete(rec.project_id, rec.key, 201, '{}', expiry);
    const next = claimAt((expiry + 1) * 1000, { project_id: rec.project_id, key: rec.key });
    // Act
    const existing = await repo.claim(next);
    // Assess
    expect(existing).toBeNull();
    expect(await storedItem(rec)).toMatchObject({ claim_id: next.claim_id, status: 'in_progress' });
  });

  it('releases a claim: the record is gone and the key can be claimed at once', async () => {
    // Prepare
    const repo = new DynamoIdempotencyRepo();
    const rec = claimAt(T0);
    await repo.claim(rec);
    // Act
    await repo.release(rec.project_id, rec.key);
    const again = await repo.claim({ ...rec, claim_id: randomUUID() });
    // Assess
    expect(again).toBeNull();
  });

  it('releases a key that holds no record without failing', async () => {
    // Act
    const res = new DynamoIdempotencyRepo().release(randomUUID(), 'never-claimed');
    // Assess
    await expect(res).resolves.toBeUndefined();
  });
});

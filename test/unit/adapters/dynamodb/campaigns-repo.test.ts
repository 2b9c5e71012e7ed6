// DynamoCampaignsRepo against dynalite: campaigns stored once and listed newest first, the eval-set pool changed
// idempotently, min_scenarios, and the pool counted on read.
import { randomUUID } from 'node:crypto';
import { DynamoCampaignsRepo } from '../../../../functions/adapters/dynamodb/campaigns-repo';
import { campaignInputSchema, type Campaign } from '../../../../functions/core/campaigns/schema';
import { startDynalite, type TestTable } from '../../../helpers/dynalite';
import { recordedCampaign } from '../../../helpers/fixtures';

let table: TestTable;

beforeAll(async () => {
  table = await startDynalite();
});
afterAll(() => table.close());

function makeCampaign(overrides: Partial<Campaign> = {}): Campaign {
  return {
    ...campaignInputSchema.parse(recordedCampaign()),
    campaign_id: randomUUID(),
    created_at: '2026-11-21T10:00:00.000000+00:00',
    version: 1,
    eval_set: { trace_count: 0, min_scenarios: 0 },
    ...overrides,
  };
}

/** A stored campaign of a project of its own. */
async function stored(overrides: Partial<Campaign> = {}): Promise<{ repo: DynamoCampaignsRepo; pid: string; c: Campaign }> {
  const repo = new DynamoCampaignsRepo();
  const pid = randomUUID();
  const c = makeCampaign(overrides);
  await repo.put(pid, c);
  return { repo, pid, c };
}

const ids = (n: number) => Array.from({ length: n }, () => randomUUID());

describe('DynamoCampaignsRepo campaigns', () => {
  it('stores a campaign and reads it back whole', async () => {
    // Prepare
    const repo = new DynamoCampaignsRepo();
    const pid = randomUUID();
    const c = makeCampaign({ eval_set: { trace_count: 0, min_scenarios: 3 } });
    // Act
    await repo.put(pid, c);
    // Assess
    expect(await repo.get(pid, c.campaign_id)).toEqual(c);
  });

  it('refuses a second campaign under the same id and keeps the first', async () => {
    // Prepare
    const { repo, pid, c } = await stored();
    // Act
    const again = repo.put(pid, { ...c, name: 'impostor', created_at: '2026-11-21T10:00:09.000000+00:00' });
    // Assess
    await expect(again).rejects.toThrow(`campaign ${c.campaign_id} already exists`);
    expect((await repo.get(pid, c.campaign_id))?.name).toBe(c.name);
  });

  it('answers null for a campaign that does not exist or belongs to another project', async () => {
    // Prepare
    const { repo, c } = await stored();
    // Act
    const [missing, foreign] = await Promise.all([repo.get(randomUUID(), randomUUID()), repo.get(randomUUID(), c.campaign_id)]);
    // Assess
    expect([missing, foreign]).toEqual([null, null]);
  });

  it('lists the campaigns of a project newest first, a page at a time, each with its pool count', async () => {
    // Prepare
    const repo = new DynamoCampaignsRepo();
    const pid = randomUUID();
    const campaigns = [1, 2, 3].map((d) => makeCampaign({ created_at: `2026-11-0${d}T00:00:00.000000+00:00` }));
    for (const c of campaigns) await repo.put(pid, c);
    await repo.updateEvalSet(pid, campaigns[2].campaign_id, { add: ids(2), remove: [] });
    await repo.put(randomUUID(), makeCampaign());
    // Act
    const first = await repo.list(pid, { limit: 2 });
    const second = await repo.list(pid, { limit: 2, after: first.last });
    // Assess
    expect(first.items).toEqual([{ ...campaigns[2], eval_set: { trace_count: 2, min_scenarios: 0 } }, campaigns[1]]);
    expect(second.items).toEqual([campaigns[0]]);
    expect(second.last).toBeUndefined();
  });
});

describe('DynamoCampaignsRepo eval-set', () => {
  it('adds trace ids once: adding present ids again changes nothing and reports nothing added', async () => {
    // Prepare
    const { repo, pid, c } = await stored();
    const [a, b] = ids(2);
    await repo.updateEvalSet(pid, c.campaign_id, { add: [a], remove: [], at: '2026-11-21T10:00:01.000Z' });
    // Act
    const res = await repo.updateEvalSet(pid, c.campaign_id, { add: [a, b, b], remove: [], at: '2026-11-21T10:00:02.000Z' });
    // Assess
    expect(res.added).toEqual([b]);
    expect(res.state).toEqual({ trace_ids: [a, b], min_scenarios: 0 });
    expect(await repo.getEvalSet(pid, c.campaign_id)).toEqual({ trace_ids: [a, b], min_scenarios: 0 });
  });

  it('removes present trace ids once and ignores absent ones', async () => {
    // Prepare
    const { repo, pid, c } = await stored();
    const [a, b, absent] = ids(3);
    await repo.updateEvalSet(pid, c.campaign_id, { add: [a], remove: [], at: '2026-11-21T10:00:01.000Z' });
    await repo.updateEvalSet(pid, c.campaign_id, { add: [b], remove: [], at: '2026-11-21T10:00:02.000Z' });
    // Act
    const first = await repo.updateEvalSet(pid, c.campaign_id, { add: [], remove: [a, absent] });
    const again = await repo.updateEvalSet(pid, c.campaign_id, { add: [], remove: [a] });
    // Assess
    expect(first.removed).toEqual([a]);
    expect(again.removed).toEqual([]);
    expect(again.state.trace_ids).toEqual([b]);
    expect((await repo.getEvalSet(pid, c.campaign_id)).trace_ids).toEqual([b]);
  });

  it('keeps the pool in the order the traces were added', async () => {
    // Prepare
    const { repo, pid, c } = await stored();
    const [late, early] = ids(2);
    // Act
    await repo.updateEvalSet(pid, c.campaign_id, { add: [early], remove: [], at: '2026-11-21T10:00:01.000Z' });
    await repo.updateEvalSet(pid, c.campaign_id, { add: [late], remove: [], at: '2026-11-21T10:00:02.000Z' });
    // Assess
    expect((await repo.getEvalSet(pid, c.campaign_id)).trace_ids).toEqual([early, late]);
  });

  it('sets min_scenarios, which both the eval-set and the campaign then show', async () => {
    // Prepare
    const { repo, pid, c } = await stored();
    // Act
    const res = await repo.updateEvalSet(pid, c.campaign_id, { add: [], remove: [], min_scenarios: 4 });
    // Assess
    expect(res.state.min_scenarios).toBe(4);
    expect((await repo.getEvalSet(pid, c.campaign_id)).min_scenarios).toBe(4);
    expect((await repo.get(pid, c.campaign_id))?.eval_set.min_scenarios).toBe(4);
  });

  it('refuses min_scenarios for a campaign that does not exist, without creating it', async () => {
    // Prepare
    const repo = new DynamoCampaignsRepo();
    const pid = randomUUID();
    const cid = randomUUID();
    // Act
    const res = repo.updateEvalSet(pid, cid, { add: [], remove: [], min_scenarios: 2 });
    // Assess
    await expect(res).rejects.toThrow(`campaign ${cid} does not exist`);
    expect(await repo.get(pid, cid)).toBeNull();
  });

  it('counts the pool on read (a pool of 150, written in several batches), and skips counting with poolCount: false', async () => {
    // Prepare
    const { repo, pid, c } = await stored({ eval_set: { trace_count: 0, min_scenarios: 2 } });
    await repo.updateEvalSet(pid, c.campaign_id, { add: ids(150), remove: [] });
    // Act
    const counted = await repo.get(pid, c.campaign_id);
    const uncounted = await repo.get(pid, c.campaign_id, { poolCount: false });
    // Assess
    expect(counted?.eval_set).toEqual({ trace_count: 150, min_scenarios: 2 });
    expect(uncounted).toEqual({ ...c, eval_set: { trace_count: 0, min_scenarios: 2 } });
  });

  it('answers an empty pool with min_scenarios 0 for a campaign that does not exist', async () => {
    // Act
    const state = await new DynamoCampaignsRepo().getEvalSet(randomUUID(), randomUUID());
    // Assess
    expect(state).toEqual({ trace_ids: [], min_scenarios: 0 });
  });

  // One pool, one order: the PATCH eval-set answer lists new traces as a later read (and the CI batch) will.
  it('answers the pool in the order a later read returns it', async () => {
    // Prepare
    const { repo, pid, c } = await stored();
    const [low, high] = ['00000000-0000-4000-8000-000000000001', 'ffffffff-ffff-4fff-8fff-ffffffffffff'];
    // Act
    const res = await repo.updateEvalSet(pid, c.campaign_id, { add: [high, low], remove: [] });
    // Assess
    expect(res.state.trace_ids).toEqual((await repo.getEvalSet(pid, c.campaign_id)).trace_ids);
  });

  // BUG (latent, left unfixed on purpose): get(..., {poolCount: false}) serves the META item cached by an earlier get,
  // min_scenarios included, though min_scenarios changes (the cache's own comment says the cached view does not serve
  // it). After a min_scenarios change the cached view answers the old value, in this process until the entry is
  // evicted, in other processes too. No caller reads min_scenarios from that view today.
  it('answers the current min_scenarios with poolCount: false after it changed', async () => {
    // Prepare
    const { repo, pid, c } = await stored({ eval_set: { trace_count: 0, min_scenarios: 1 } });
    await repo.get(pid, c.campaign_id, { poolCount: false });
    // Act
    await repo.updateEvalSet(pid, c.campaign_id, { add: [], remove: [], min_scenarios: 5 });
    const cached = await repo.get(pid, c.campaign_id, { poolCount: false });
    // Assess
    expect(cached?.eval_set.min_scenarios).toBe(5);
  });
});

// DynamoCampaignsRepo's versions against dynalite: the archive-then-META update, a crash between the two writes, two
// updates racing, campaigns stored before versions, and reads by version (docs/campaigns-and-replay.md#versions).
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoCampaignsRepo } from '../../../../functions/adapters/dynamodb/campaigns-repo';
import { keys } from '../../../../functions/adapters/dynamodb/keys';
import { doc, tableName } from '../../../../functions/adapters/dynamodb/table';
import { campaignInputSchema, type Campaign } from '../../../../functions/core/campaigns/schema';
import { definitionOf, versionChanges } from '../../../../functions/core/campaigns/versions';
import { startDynalite, type TestTable } from '../../../helpers/dynalite';
import { recordedCampaign } from '../../../helpers/fixtures';

let table: TestTable;
beforeAll(async () => {
  table = await startDynalite();
});
afterAll(() => table.close());

async function stored(): Promise<{ repo: DynamoCampaignsRepo; pid: string; c: Campaign }> {
  const repo = new DynamoCampaignsRepo();
  const pid = randomUUID();
  const c: Campaign = {
    ...campaignInputSchema.parse(recordedCampaign()),
    campaign_id: randomUUID(),
    created_at: '2026-11-21T10:00:00.000000+00:00',
    version: 1,
    eval_set: { trace_count: 0, min_scenarios: 0 },
  };
  await repo.put(pid, c);
  return { repo, pid, c };
}

const nextOf = (c: Campaign, change: Partial<Campaign>): Campaign => ({ ...c, ...change, version: c.version + 1 });
const entry = (before: Campaign, after: Campaign, at = '2026-11-22T10:00:00.000000+00:00') => ({
  created_at: at,
  changes: versionChanges(definitionOf(before), definitionOf(after)),
});
const versionsOf = async (repo: DynamoCampaignsRepo, pid: string, cid: string) =>
  (await repo.listVersions(pid, cid, { limit: 100 })).items.map((v) => [v.version, v.name]);

describe('DynamoCampaignsRepo versions', () => {
  it('moves META to the next version and keeps the replaced one readable by version', async () => {
    // Prepare
    const { repo, pid, c } = await stored();
    const v2 = nextOf(c, { name: 'second', repeats: 2 });
    // Act
    const moved = await repo.update(pid, c, v2, entry(c, v2));
    // Assess
    expect(moved).toBe(true);
    expect(await repo.get(pid, c.campaign_id)).toMatchObject({ name: 'second', repeats: 2, version: 2 });
    expect(await repo.get(pid, c.campaign_id, { version: 1 })).toMatchObject({ name: c.name, repeats: 1, version: 1 });
    expect(await repo.get(pid, c.campaign_id, { version: 3 })).toBeNull();
    expect(await versionsOf(repo, pid, c.campaign_id)).toEqual([
      [2, 'second'],
      [1, c.name],
    ]);
  });

  it('lets one of two updates of the same version through', async () => {
    // Prepare
    const { repo, pid, c } = await stored();
    const a = nextOf(c, { name: 'a' });
    const b = nextOf(c, { name: 'b' });
    // Act
    const results = await Promise.all([repo.update(pid, c, a, entry(c, a)), repo.update(pid, c, b, entry(c, b))]);
    // Assess
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = results[0] ? 'a' : 'b';
    expect((await repo.get(pid, c.campaign_id))?.name).toBe(winner);
    expect(await versionsOf(repo, pid, c.campaign_id)).toEqual([
      [2, winner],
      [1, c.name],
    ]);
  });

  it('after a crash between the archive and META, reads the current version and the next update goes through', async () => {
    // Prepare: the archive of version 1 written, META never moved (the process died between the two writes)
    const { repo, pid, c } = await stored();
    const metaBefore = await metaItem(pid, c);
    const lost = nextOf(c, { name: 'lost' });
    await repo.update(pid, c, lost, entry(c, lost));
    await doc().send(new PutCommand({ TableName: tableName(), Item: metaBefore }));
    // Act
    const current = await repo.get(pid, c.campaign_id);
    const listed = await versionsOf(repo, pid, c.campaign_id);
    const retry = nextOf(c, { name: 'retried' });
    const moved = await repo.update(pid, c, retry, entry(c, retry));
    // Assess
    expect(current).toMatchObject({ name: c.name, version: 1 });
    expect(listed).toEqual([[1, c.name]]);
    expect(moved).toBe(true);
    expect(await versionsOf(repo, pid, c.campaign_id)).toEqual([
      [2, 'retried'],
      [1, c.name],
    ]);
  });

  it('reads a campaign stored before versions as version 1 and versions it on its first update', async () => {
    // Prepare: META as written before versions (no version, no changes)
    const { repo, pid, c } = await stored();
    const { version: _v, version_created_at: _a, changes_json: _c, ...legacy } = await metaItem(pid, c);
    await doc().send(new PutCommand({ TableName: tableName(), Item: legacy }));
    const v2 = nextOf(c, { name: 'second' });
    // Act
    const before = await repo.get(pid, c.campaign_id);
    const moved = await repo.update(pid, c, v2, entry(c, v2));
    const listed = (await repo.listVersions(pid, c.campaign_id, { limit: 10 })).items;
    // Assess
    expect(before?.version).toBe(1);
    expect(moved).toBe(true);
    expect(listed.map((v) => v.version)).toEqual([2, 1]);
    expect(listed[1]).toMatchObject({ created_at: c.created_at, name: c.name, changes: null });
  });

  it('serves a version read by the executor from the definition of that version after an update', async () => {
    // Prepare: version 1 read (and cached) the way the executor reads it
    const { repo, pid, c } = await stored();
    await repo.get(pid, c.campaign_id, { poolCount: false, version: 1 });
    const v2 = nextOf(c, { repeats: 4 });
    // Act
    await repo.update(pid, c, v2, entry(c, v2));
    const [one, two] = await Promise.all([1, 2].map((version) => repo.get(pid, c.campaign_id, { poolCount: false, version })));
    // Assess
    expect([one?.repeats, two?.repeats]).toEqual([1, 4]);
  });
});

async function metaItem(pid: string, c: Campaign): Promise<Record<string, unknown>> {
  const res = await doc().send(new GetCommand({ TableName: tableName(), Key: keys.campaign(pid, c.campaign_id), ConsistentRead: true }));
  return res.Item as Record<string, unknown>;
}

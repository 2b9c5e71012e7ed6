// DynamoLeasesRepo against dynalite: a scope's slots are never held twice, even by many containers taking at once;
// a lease frees its slot when released by its holder or when its time passes; projects and scopes are apart.
import { DynamoLeasesRepo } from '../../../../functions/adapters/dynamodb/leases-repo';
import { keys } from '../../../../functions/adapters/dynamodb/keys';
import { getItem } from '../../../../functions/adapters/dynamodb/table';
import { startDynalite, type TestTable } from '../../../helpers/dynalite';

let table: TestTable;
const NOW = 1_795_000_000_000;
const LATER = NOW + 300_000;

beforeAll(async () => {
  table = await startDynalite();
});
afterAll(() => table.close());

describe('DynamoLeasesRepo.acquire', () => {
  it('grants each of 3 slots once when 24 holders from 8 instances take at the same moment', async () => {
    const repos = Array.from({ length: 8 }, () => new DynamoLeasesRepo());

    const got = await Promise.all(Array.from({ length: 24 }, (_, i) => repos[i % 8].acquire('p-race', 'workers', 3, `h${i}`, NOW, LATER)));

    const slots = got.filter((n): n is number => n !== null);
    expect(slots.sort()).toEqual([0, 1, 2]);
    expect(got.filter((n) => n === null)).toHaveLength(21);
  });

  it('stores the holder, the lease end and a TTL a day after it', async () => {
    const repo = new DynamoLeasesRepo();
    const slot = await repo.acquire('p-item', 'workers', 1, 'inv-1', NOW, LATER);

    expect(slot).toBe(0);
    expect(await getItem(keys.leaseSlot('p-item', 'workers', 0), true)).toMatchObject({
      entity: 'lease',
      holder: 'inv-1',
      lease_until: LATER,
      expires_at: Math.ceil(LATER / 1000) + 86_400,
    });
  });

  it('answers null while every slot is held, and grants a slot again once its lease has expired', async () => {
    const repo = new DynamoLeasesRepo();
    expect(await repo.acquire('p-exp', 'workers', 2, 'a', NOW, NOW + 1_000)).not.toBeNull();
    expect(await repo.acquire('p-exp', 'workers', 2, 'b', NOW, NOW + 60_000)).not.toBeNull();

    expect(await repo.acquire('p-exp', 'workers', 2, 'c', NOW + 500, LATER)).toBeNull();
    // a's lease ended (its worker died without releasing): its slot is free for c.
    const reclaimed = await repo.acquire('p-exp', 'workers', 2, 'c', NOW + 2_000, LATER);
    expect(reclaimed).not.toBeNull();
    expect(await getItem(keys.leaseSlot('p-exp', 'workers', reclaimed!), true)).toMatchObject({ holder: 'c' });
  });

  it('frees a slot on release by its holder only', async () => {
    const repo = new DynamoLeasesRepo();
    const slot = (await repo.acquire('p-rel', 'workers', 1, 'owner', NOW, LATER))!;

    await repo.release('p-rel', 'workers', slot, 'someone-else');
    expect(await repo.acquire('p-rel', 'workers', 1, 'next', NOW, LATER)).toBeNull();

    await repo.release('p-rel', 'workers', slot, 'owner');
    expect(await repo.acquire('p-rel', 'workers', 1, 'next', NOW, LATER)).toBe(0);
  });

  it('keeps projects and scopes apart', async () => {
    const repo = new DynamoLeasesRepo();
    expect(await repo.acquire('p-x', 'workers', 1, 'a', NOW, LATER)).toBe(0);

    expect(await repo.acquire('p-y', 'workers', 1, 'b', NOW, LATER)).toBe(0);
    expect(await repo.acquire('p-x', 'other', 1, 'c', NOW, LATER)).toBe(0);
    expect(await repo.acquire('p-x', 'workers', 1, 'd', NOW, LATER)).toBeNull();
  });
});

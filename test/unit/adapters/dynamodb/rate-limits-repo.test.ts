// DynamoRateLimitsRepo against dynalite: takes never pass the limit, even many at once from separate repository
// instances (as separate Lambda containers would be); a take gets what is left; windows and projects are apart.
import { DynamoRateLimitsRepo } from '../../../../functions/adapters/dynamodb/rate-limits-repo';
import { keys } from '../../../../functions/adapters/dynamodb/keys';
import { getItem } from '../../../../functions/adapters/dynamodb/table';
import { startDynalite, type TestTable } from '../../../helpers/dynalite';

let table: TestTable;
const W = 1_795_000_020;

beforeAll(async () => {
  table = await startDynalite();
});
afterAll(() => table.close());

describe('DynamoRateLimitsRepo.take', () => {
  it('never lets 40 concurrent takes from 8 instances pass the limit, and grants exactly the limit', async () => {
    const repos = Array.from({ length: 8 }, () => new DynamoRateLimitsRepo());

    const got = await Promise.all(Array.from({ length: 40 }, (_, i) => repos[i % 8].take('p-many', 'sends', W, 25, 1, W + 120)));

    expect(got.filter((n) => n === 1)).toHaveLength(25);
    expect(got.filter((n) => n === 0)).toHaveLength(15);
    expect(await getItem(keys.rateWindow('p-many', 'sends', W), true)).toMatchObject({ used: 25, expires_at: W + 120, entity: 'rate_window' });
  });

  it('grants what is left of a window to a larger take, then nothing', async () => {
    const repo = new DynamoRateLimitsRepo();

    const taken = [await repo.take('p-left', 'sends', W, 10, 4, W + 120), await repo.take('p-left', 'sends', W, 10, 50, W + 120)];
    const after = await repo.take('p-left', 'sends', W, 10, 1, W + 120);

    expect(taken).toEqual([4, 6]);
    expect(after).toBe(0);
  });

  it('keeps windows, counters and projects apart', async () => {
    const repo = new DynamoRateLimitsRepo();
    expect(await repo.take('p-a', 'sends', W, 2, 2, W + 120)).toBe(2);

    expect(await repo.take('p-a', 'sends', W + 60, 2, 2, W + 180)).toBe(2);
    expect(await repo.take('p-a', 'other', W, 2, 2, W + 120)).toBe(2);
    expect(await repo.take('p-b', 'sends', W, 2, 2, W + 120)).toBe(2);
    expect(await repo.take('p-a', 'sends', W, 2, 1, W + 120)).toBe(0);
  });
});

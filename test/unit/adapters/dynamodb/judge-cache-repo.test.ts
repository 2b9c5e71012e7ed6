// DynamoJudgeCacheRepo against dynalite: verdicts per project and key, with the TTL attribute, expired ones missed.
import { DynamoJudgeCacheRepo } from '../../../../functions/adapters/dynamodb/judge-cache-repo';
import { keys } from '../../../../functions/adapters/dynamodb/keys';
import { getItem } from '../../../../functions/adapters/dynamodb/table';
import { startDynalite, type TestTable } from '../../../helpers/dynalite';

let table: TestTable;
const repo = new DynamoJudgeCacheRepo();
const now = new Date('2026-11-23T12:00:00Z');
const epoch = now.getTime() / 1000;

beforeAll(async () => {
  table = await startDynalite();
});
afterAll(() => table.close());

describe('DynamoJudgeCacheRepo', () => {
  it('stores a verdict with its expiry in the TTL attribute and reads it back until then', async () => {
    await repo.put('p1', 'k1', { score: 0.8, pass: true, reason: 'fine' }, epoch + 3600);
    expect(await repo.get('p1', 'k1', now)).toEqual({ score: 0.8, pass: true, reason: 'fine' });
    expect(await getItem(keys.judgeVerdict('p1', 'k1'))).toMatchObject({ entity: 'judge_verdict', expires_at: epoch + 3600 });
    // Expired but not yet deleted by DynamoDB's TTL sweep: a miss.
    expect(await repo.get('p1', 'k1', new Date((epoch + 3600) * 1000))).toBeNull();
  });

  it('keeps projects apart and misses unknown keys', async () => {
    await repo.put('p1', 'shared', { score: 0, pass: false, reason: '' }, epoch + 60);
    expect(await repo.get('p2', 'shared', now)).toBeNull();
    expect(await repo.get('p1', 'other', now)).toBeNull();
    expect(await repo.get('p1', 'shared', now)).toEqual({ score: 0, pass: false, reason: '' });
  });
});

describe('DynamoJudgeCacheRepo simulated-user messages', () => {
  it('stores a message beside the verdicts, per project, read back until it expires', async () => {
    await repo.putMessage('p1', 'k1', 'Ship it to 5 Elm Street.', epoch + 3600);
    expect(await repo.getMessage('p1', 'k1', now)).toBe('Ship it to 5 Elm Street.');
    expect(await getItem(keys.simulatedUserMessage('p1', 'k1'))).toMatchObject({ entity: 'simulated_user_message', expires_at: epoch + 3600 });
    expect(await repo.get('p1', 'k1', now)).toEqual({ score: 0.8, pass: true, reason: 'fine' });
    expect(await repo.getMessage('p2', 'k1', now)).toBeNull();
    expect(await repo.getMessage('p1', 'k1', new Date((epoch + 3600) * 1000))).toBeNull();
  });
});

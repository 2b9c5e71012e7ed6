// DynamoConfigRepo against dynalite: one cursor-signing secret per deployment, whoever asks first and however many at once.
import { DynamoConfigRepo } from '../../../../functions/adapters/dynamodb/config-repo';
import { keys } from '../../../../functions/adapters/dynamodb/keys';
import { deleteItem, getItem, putNew } from '../../../../functions/adapters/dynamodb/table';
import { startDynalite, type TestTable } from '../../../helpers/dynalite';

let table: TestTable;

beforeAll(async () => {
  table = await startDynalite();
});
afterAll(() => table.close());
// Every test starts from a deployment without a secret.
beforeEach(() => deleteItem(keys.config('cursor')));

describe('DynamoConfigRepo.cursorSecret', () => {
  it('creates one secret under concurrent first calls: every caller gets the same 32 bytes, the stored ones', async () => {
    // Prepare: separate repositories, as separate functions of a deployment would have.
    const repos = Array.from({ length: 8 }, () => new DynamoConfigRepo());
    // Act
    const secrets = await Promise.all(repos.map((r) => r.cursorSecret()));
    // Assess
    const stored = await getItem(keys.config('cursor'), true);
    expect(secrets[0]).toHaveLength(32);
    expect(secrets.map((s) => s.toString('base64'))).toEqual(repos.map(() => stored?.secret));
  });

  it('answers the same secret on later calls', async () => {
    // Prepare
    const first = await new DynamoConfigRepo().cursorSecret();
    // Act
    const later = await new DynamoConfigRepo().cursorSecret();
    // Assess
    expect(later.equals(first)).toBe(true);
  });

  it('keeps a secret that is already stored', async () => {
    // Prepare
    const existing = Buffer.alloc(32, 7);
    await putNew({ ...keys.config('cursor'), entity: 'config', secret: existing.toString('base64') });
    // Act
    const secret = await new DynamoConfigRepo().cursorSecret();
    // Assess
    expect(secret.equals(existing)).toBe(true);
  });
});

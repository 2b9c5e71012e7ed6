// CursorKeys: which key signs cursors where. A configured value, else the secret RTS_CURSOR_SECRET_ARN names (read
// through the extension stand-in), else the key kept in the table (dynalite), the same for every function.
import { CursorKeys } from '../../../../functions/adapters/secrets/cursor-keys';
import { keys } from '../../../../functions/adapters/dynamodb/keys';
import { deleteItem, getItem } from '../../../../functions/adapters/dynamodb/table';
import { startDynalite, type TestTable } from '../../../helpers/dynalite';
import { startSecretsExtension, type SecretsExtension } from '../../../helpers/secrets-extension';

const ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:CursorSecret-AbC123';
const TOKEN = 'session-token';
const VARIABLES = ['RTS_CURSOR_SECRET', 'RTS_CURSOR_SECRET_ARN', 'AWS_SESSION_TOKEN'] as const;

let table: TestTable;
let extension: SecretsExtension;
const saved = Object.fromEntries(VARIABLES.map((k) => [k, process.env[k]]));

beforeAll(async () => {
  table = await startDynalite();
  extension = await startSecretsExtension({ token: TOKEN });
  extension.setSecret(ARN, 'the-deployment-key');
});
afterAll(async () => {
  for (const k of VARIABLES)
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  await extension.close();
  await table.close();
});
beforeEach(async () => {
  for (const k of VARIABLES) delete process.env[k];
  extension.requests.length = 0;
  await deleteItem(keys.config('cursor'));
});

describe('CursorKeys.current', () => {
  it('uses RTS_CURSOR_SECRET as it is (its UTF-8 bytes) when set, asking neither the extension nor the table', async () => {
    // Prepare
    process.env.RTS_CURSOR_SECRET = 'plain-key';
    process.env.RTS_CURSOR_SECRET_ARN = ARN;

    // Act
    const key = await new CursorKeys({ port: extension.port }).current();

    // Assess
    expect(key.toString('utf8')).toBe('plain-key');
    expect(extension.requests).toEqual([]);
    expect(await getItem(keys.config('cursor'), true)).toBeUndefined();
  });

  it('reads the secret RTS_CURSOR_SECRET_ARN names through the extension: its SecretString as UTF-8, the same bytes the plain setting gives', async () => {
    // Prepare
    process.env.RTS_CURSOR_SECRET_ARN = ARN;
    process.env.AWS_SESSION_TOKEN = TOKEN;
    const keysOfOneContainer = new CursorKeys({ port: extension.port });

    // Act
    const [first, second] = [await keysOfOneContainer.current(), await keysOfOneContainer.current()];

    // Assess
    expect(first.equals(Buffer.from('the-deployment-key', 'utf8'))).toBe(true);
    expect(second.equals(first)).toBe(true);
    expect(extension.requests.map((r) => r.secretId)).toEqual([ARN]);
    expect(await getItem(keys.config('cursor'), true)).toBeUndefined();
  });

  it('falls back to the key kept in the table: one key for every function, created by the first', async () => {
    // Prepare: two functions of a deployment without a secret
    const functions = [new CursorKeys(), new CursorKeys()];

    // Act
    const [a, b] = await Promise.all(functions.map((f) => f.current()));

    // Assess
    const stored = await getItem(keys.config('cursor'), true);
    expect(a).toHaveLength(32);
    expect(b.equals(a)).toBe(true);
    expect(a.toString('base64')).toBe(stored?.secret);
    expect(extension.requests).toEqual([]);
  });
});

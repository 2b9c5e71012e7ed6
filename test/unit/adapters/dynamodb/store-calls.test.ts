// The DynamoDB client's calls to the embedded store without HTTP (functions/adapters/dynamodb/store-calls.ts): the SDK
// serialises, retries and parses as for any endpoint; a try without an answer times out and is retried; a store process
// that is gone fails its calls as a dropped connection would; the local service's own client uses it, every other
// endpoint HTTP.
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { resetAwsClients } from '../../../../functions/adapters/aws';
import { dynamoDocClient } from '../../../../functions/adapters/dynamodb/client';
import { storeCallHandler, useEmbeddedStoreCalls, type StoreCall } from '../../../../functions/adapters/dynamodb/store-calls';
import { startEmbeddedStore, type EmbeddedStore } from '../../../../functions/local/store';
import { storeOverHttp } from '../../../helpers/store-http';

const TABLE = 'store-calls';

function clientOf(call: StoreCall, opts: { timeout?: number; maxAttempts?: number } = {}): DynamoDBClient {
  return new DynamoDBClient({
    region: 'local',
    endpoint: 'http://store.invalid',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: opts.maxAttempts ?? 3,
    requestHandler: storeCallHandler(call, opts.timeout ?? 5000),
  });
}

async function createTable(client: DynamoDBClient): Promise<void> {
  await client.send(
    new CreateTableCommand({
      TableName: TABLE,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    }),
  );
  while ((await client.send(new DescribeTableCommand({ TableName: TABLE }))).Table?.TableStatus !== 'ACTIVE')
    await new Promise((r) => setTimeout(r, 5));
}

describe('the SDK client over store calls', () => {
  let store: EmbeddedStore;
  beforeAll(async () => {
    store = await startEmbeddedStore();
    await createTable(clientOf(store.call));
  });
  afterAll(() => store?.close());

  it('writes, reads and fails a condition as over HTTP', async () => {
    const client = clientOf(store.call);
    await client.send(new PutItemCommand({ TableName: TABLE, Item: { pk: { S: 'a' }, text: { S: 'é ✓ 𝄞' } } }));
    const got = await client.send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: 'a' } }, ConsistentRead: true }));
    expect(got.Item).toEqual({ pk: { S: 'a' }, text: { S: 'é ✓ 𝄞' } });
    const refused = client.send(new PutItemCommand({ TableName: TABLE, Item: { pk: { S: 'a' } }, ConditionExpression: 'attribute_not_exists(pk)' }));
    await expect(refused).rejects.toMatchObject({
      name: 'ConditionalCheckFailedException',
      $fault: 'client',
      $metadata: { httpStatusCode: 400, attempts: 1 },
    });
  });

  it('times out a try without an answer and retries it, then reports a TimeoutError', async () => {
    let calls = 0;
    const silent: StoreCall = () => {
      calls++;
      return new Promise(() => undefined);
    };
    const started = Date.now();
    await expect(
      clientOf(silent, { timeout: 50, maxAttempts: 2 }).send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: 'a' } } })),
    ).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    expect(calls).toBe(2);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('retries a call that failed as a dropped connection, then reports it', async () => {
    let calls = 0;
    const dropped: StoreCall = async () => {
      calls++;
      throw Object.assign(new Error('the embedded store process is gone'), { code: 'ECONNRESET' });
    };
    await expect(clientOf(dropped, { maxAttempts: 2 }).send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: 'a' } } }))).rejects.toMatchObject(
      {
        code: 'ECONNRESET',
      },
    );
    expect(calls).toBe(2);
  });

  it('stops waiting when the caller aborts', async () => {
    const abort = new AbortController();
    const pending = clientOf(() => new Promise(() => undefined)).send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: 'a' } } }), {
      abortSignal: abort.signal,
    });
    abort.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('the store child over its IPC channel', () => {
  it('serves the parent the store its HTTP server serves, and fails calls once the child is gone', async () => {
    const child = await startEmbeddedStore({ childProcess: true });
    try {
      const client = clientOf(child.call, { maxAttempts: 1 });
      await createTable(client);
      await client.send(new PutItemCommand({ TableName: TABLE, Item: { pk: { S: 'over the channel' } } }));
      // Read over HTTP, with the secret, what the channel wrote.
      const res = await storeOverHttp(
        child,
        'DynamoDB_20120810.GetItem',
        JSON.stringify({ TableName: TABLE, Key: { pk: { S: 'over the channel' } }, ConsistentRead: true }),
      );
      expect(JSON.parse(res.body)).toEqual({ Item: { pk: { S: 'over the channel' } } });
      // Many calls at once are each answered with their own item.
      const ids = Array.from({ length: 200 }, (_, i) => `k${i}`);
      await Promise.all(ids.map((id) => client.send(new PutItemCommand({ TableName: TABLE, Item: { pk: { S: id }, n: { N: id.slice(1) } } }))));
      const read = await Promise.all(
        ids.map((id) => client.send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: id } }, ConsistentRead: true }))),
      );
      expect(read.map((r) => r.Item?.n?.N)).toEqual(ids.map((id) => id.slice(1)));
      // An item near DynamoDB's 400 KB limit, with text that JSON must escape, makes the round trip whole.
      const big = `"quoted" \\ line\n é 𝄞 ${'x'.repeat(390 * 1024)}`;
      await client.send(new PutItemCommand({ TableName: TABLE, Item: { pk: { S: 'big' }, text: { S: big } } }));
      const back = await client.send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: 'big' } }, ConsistentRead: true }));
      expect(back.Item?.text?.S === big).toBe(true);
    } finally {
      await child.close();
    }
    await expect(child.call('DynamoDB_20120810.GetItem', '{}')).rejects.toMatchObject({ code: 'ECONNRESET' });
  }, 30000);
});

describe("the local service's client", () => {
  const saved = process.env.DYNAMODB_ENDPOINT;
  afterEach(() => {
    useEmbeddedStoreCalls();
    if (saved === undefined) delete process.env.DYNAMODB_ENDPOINT;
    else process.env.DYNAMODB_ENDPOINT = saved;
    resetAwsClients();
  });
  const protocol = () =>
    (dynamoDocClient().config as unknown as { requestHandler: { metadata?: { handlerProtocol?: string } } }).requestHandler.metadata?.handlerProtocol;

  it('sends through the calls of the store it started, and over HTTP to any other endpoint', () => {
    const call: StoreCall = async () => ({ status: 200, body: '{}' });
    useEmbeddedStoreCalls('http://127.0.0.1:1234', call);
    process.env.DYNAMODB_ENDPOINT = 'http://127.0.0.1:1234';
    resetAwsClients();
    expect(protocol()).toBe('rts-store-call');
    process.env.DYNAMODB_ENDPOINT = 'http://127.0.0.1:4321';
    resetAwsClients();
    expect(protocol()).not.toBe('rts-store-call');
    useEmbeddedStoreCalls();
    process.env.DYNAMODB_ENDPOINT = 'http://127.0.0.1:1234';
    resetAwsClients();
    expect(protocol()).not.toBe('rts-store-call');
  });
});

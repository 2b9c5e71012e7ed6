// The bench's AWS call counter against the embedded store: calls per operation, the table units the store reports, the
// GSI write units of each item write (priced from the item before and after), refused conditional writes, empty reads.
import { DeleteCommand, DynamoDBDocumentClient, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { instrumented } from '../../../functions/adapters/aws';
import { ensureTable, localDynamoClient, startEmbeddedStore, type EmbeddedStore } from '../../../functions/local/store';
import { addRepeated, attributeCallsTo, countAwsCalls, countIndexWrites, stopCounting, takeCounts, totalCalls } from '../../bench/aws-counter';

const TABLE = 'rts-counter-test';
let store: EmbeddedStore;
let doc: DynamoDBDocumentClient;

beforeAll(async () => {
  countAwsCalls();
  countIndexWrites();
  store = await startEmbeddedStore();
  await ensureTable(store.endpoint, TABLE, store.secret);
  const raw = instrumented(localDynamoClient(store.endpoint, store.secret));
  doc = DynamoDBDocumentClient.from(raw);
});

afterAll(async () => {
  stopCounting();
  doc.destroy();
  await store.close();
});

beforeEach(() => {
  takeCounts();
});

const indexed = (sk: string, extra: Record<string, unknown> = {}) => ({ pk: 'RUN#1', sk, gsi1pk: 'P#1#RUN', gsi1sk: `2026-11-23#${sk}`, ...extra });

describe('takeCounts', () => {
  it('counts calls per operation and the table units the store reports, in all, per operation and per item kind', async () => {
    await doc.send(new PutCommand({ TableName: TABLE, Item: { pk: 'P#1', sk: 'PLAIN#1', note: 'x'.repeat(1500) } }));
    await doc.send(new PutCommand({ TableName: TABLE, Item: { pk: 'P#1', sk: '2026-11-23T18:40:05Z#b1' } }));

    const c = takeCounts();

    expect(c.calls).toEqual({ PutItem: 2 });
    expect(totalCalls(c)).toBe(2);
    expect(c.writeUnits).toBe(2 + 1);
    expect(c.unitsByOp).toEqual({ PutItem: 2 + 1 });
    expect(c.indexWriteUnits).toBe(0);
    expect(c.storeItemWrites).toBe(2);
    expect(c.writesByKind).toEqual({ 'P/PLAIN': { writes: 1, units: 2, indexUnits: 0 }, 'P/*': { writes: 1, units: 1, indexUnits: 0 } });
  });

  it('prices GSI entries of a keys-only index: put, non-key change, key change, unchanged, delete', async () => {
    // Prepare: each step's expected index units in a comment.
    await doc.send(new PutCommand({ TableName: TABLE, Item: indexed('META', { status: 'queued' }) })); // 1: new entry
    await doc.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: { pk: 'RUN#1', sk: 'META' },
        UpdateExpression: 'SET #s = :s, payload = :b',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':s': 'running', ':b': 'y'.repeat(1500) },
      }),
    ); // 0: the index projects keys only, and its keys did not change
    await doc.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: { pk: 'RUN#1', sk: 'META' },
        UpdateExpression: 'SET gsi1sk = :k',
        ExpressionAttributeValues: { ':k': 'later' },
      }),
    ); // 1 + 1: old entry deleted, new one put (keys only: under 1 KB each)
    await doc.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: { pk: 'RUN#1', sk: 'META' },
        UpdateExpression: 'SET #s = :s',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':s': 'running' },
      }),
    ); // 0: nothing changed
    await doc.send(new DeleteCommand({ TableName: TABLE, Key: { pk: 'RUN#1', sk: 'META' } })); // 1: entry deleted

    const c = takeCounts();

    expect(c.calls).toEqual({ PutItem: 1, UpdateItem: 3, DeleteItem: 1 });
    expect(c.indexWriteUnits).toBe(1 + 0 + 2 + 0 + 1);
    expect(c.writesByKind).toEqual({ 'RUN/META': { writes: 5, units: 1 + 2 + 2 + 2 + 2, indexUnits: 4 } });
    expect(c.gsiWrites).toBe(2);
  });

  it('counts a refused conditional write, which DynamoDB bills and the store reports nothing for', async () => {
    await doc.send(new PutCommand({ TableName: TABLE, Item: { pk: 'P#1', sk: 'ONCE' } }));
    takeCounts();

    await expect(
      doc.send(new PutCommand({ TableName: TABLE, Item: { pk: 'P#1', sk: 'ONCE' }, ConditionExpression: 'attribute_not_exists(pk)' })),
    ).rejects.toThrow();

    const c = takeCounts();
    expect(c.conditionalCheckFailures).toBe(1);
    expect(c.writeUnits).toBe(0);
  });

  it('bills an empty Query as a read of up to 4 KB (half a unit, eventually consistent)', async () => {
    await doc.send(new QueryCommand({ TableName: TABLE, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'NOBODY' } }));
    await doc.send(
      new QueryCommand({ TableName: TABLE, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'NOBODY' }, ConsistentRead: true }),
    );

    expect(takeCounts().readUnits).toBe(0.5 + 1);
  });

  it('attributes calls and units to the caller named at the time', async () => {
    let caller: string | undefined = 'worker';
    attributeCallsTo(() => caller);
    await doc.send(new PutCommand({ TableName: TABLE, Item: { pk: 'P#2', sk: 'A' } }));
    caller = undefined;
    await doc.send(new QueryCommand({ TableName: TABLE, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'P#2' } }));
    attributeCallsTo(() => undefined);

    expect(takeCounts().byCaller).toEqual({ worker: { calls: 1, readUnits: 0, writeUnits: 1 }, other: { calls: 1, readUnits: 0.5, writeUnits: 0 } });
  });

  it('adds what one operation cost, counted once, as many times as it ran, to the caller it names', async () => {
    await doc.send(new PutCommand({ TableName: TABLE, Item: { pk: 'P#3', sk: 'A' } }));
    const window = takeCounts();
    await doc.send(
      new QueryCommand({ TableName: TABLE, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'L#1' }, ConsistentRead: true }),
    );
    await doc.send(new PutCommand({ TableName: TABLE, Item: { pk: 'L#1', sk: 'SLOT#0' } }));
    await doc.send(new DeleteCommand({ TableName: TABLE, Key: { pk: 'L#1', sk: 'SLOT#0' } }));
    const once = takeCounts();

    addRepeated(window, once, 200, 'rts replay worker');

    expect(window.calls).toEqual({ PutItem: 1 + 200, Query: 200, DeleteItem: 200 });
    expect(window.unitsByOp).toEqual({ PutItem: 1 + 200, Query: 200, DeleteItem: 200 });
    expect([window.writeUnits, window.readUnits, window.storeItemWrites]).toEqual([1 + 400, 200, 1 + 400]);
    expect(window.writesByKind['L/SLOT']).toEqual({ writes: 400, units: 400, indexUnits: 0 });
    expect(window.byCaller['rts replay worker']).toEqual({ calls: 600, readUnits: 200, writeUnits: 400 });
    expect(window.byCaller.other).toEqual({ calls: 1, readUnits: 0, writeUnits: 1 });
  });

  it('counts nothing once stopped: new clients carry no counter, the store no index hook', async () => {
    stopCounting();
    const raw = instrumented(localDynamoClient(store.endpoint, store.secret));
    const plain = DynamoDBDocumentClient.from(raw);

    await plain.send(new PutCommand({ TableName: TABLE, Item: indexed('META') }));
    plain.destroy();

    expect(takeCounts()).toMatchObject({ calls: {}, storeItemWrites: 0, indexWriteUnits: undefined });
    countAwsCalls();
    countIndexWrites();
  });
});

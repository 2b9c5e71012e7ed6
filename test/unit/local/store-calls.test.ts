// The embedded store's calls without HTTP (functions/local/store-calls.js): for any sequence of generated calls (every
// operation the service makes, conditions that hold or not, malformed bodies, wrong types, unknown targets and
// tables), a store answered through answerCall() gives the same status and the same answer, byte for byte, as a store
// answered by dynalite's own HTTP handler.
import fc from 'fast-check';
import { startEmbeddedStore, type EmbeddedStore } from '../../../functions/local/store';
import { storeOverHttp as overHttp } from '../../helpers/store-http';

const TABLE = 'calls-test';
const V = 'DynamoDB_20120810';

/** BatchGetItem answers its keys in whatever order its reads finish, as DynamoDB does: its items are compared as sets. */
function unordered(target: string, answer: { status: number; body: string }): { status: number; body: string } {
  if (!target.endsWith('.BatchGetItem') || answer.status !== 200) return answer;
  const parsed = JSON.parse(answer.body) as { Responses: Record<string, unknown[]> };
  for (const items of Object.values(parsed.Responses)) items.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  return { status: answer.status, body: JSON.stringify(parsed) };
}

const key = fc.record({ pk: fc.constantFrom('a', 'b', 'c'), sk: fc.constantFrom('1', '2') });
const keyAttrs = (k: { pk: string; sk: string }) => ({ pk: { S: k.pk }, sk: { S: k.sk } });
const number = fc.integer({ min: -5, max: 5 });
interface Condition {
  ConditionExpression: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, { N: string }>;
}
const condition = fc.option(
  fc.oneof<fc.Arbitrary<Condition>[]>(
    fc.constant({ ConditionExpression: 'attribute_not_exists(pk)' }),
    fc.constant({ ConditionExpression: 'attribute_exists(pk)' }),
    number.map((v) => ({
      ConditionExpression: '#n < :c',
      ExpressionAttributeNames: { '#n': 'n' },
      ExpressionAttributeValues: { ':c': { N: String(v) } },
    })),
  ),
  { nil: undefined },
);
const onFailure = fc.option(fc.constantFrom('ALL_OLD', 'NONE'), { nil: undefined });

/** One call: a target and a JSON body (or any text, for the malformed ones). */
const call: fc.Arbitrary<[string, string]> = fc.oneof<fc.Arbitrary<[string, string]>[]>(
  fc.tuple(key, number, fc.string({ maxLength: 8 }), condition, onFailure, fc.boolean()).map(([k, n, s, c, f, old]) => [
    `${V}.PutItem`,
    JSON.stringify({
      TableName: TABLE,
      Item: { ...keyAttrs(k), n: { N: String(n) }, s: { S: s } },
      ...(old ? { ReturnValues: 'ALL_OLD' } : {}),
      ...(c ?? {}),
      ...(c && f ? { ReturnValuesOnConditionCheckFailure: f } : {}),
    }),
  ]),
  fc.tuple(key, number, fc.constantFrom('NONE', 'ALL_NEW', 'UPDATED_OLD'), condition).map(([k, v, rv, c]) => [
    `${V}.UpdateItem`,
    JSON.stringify({
      TableName: TABLE,
      Key: keyAttrs(k),
      UpdateExpression: 'SET #m = if_not_exists(#m, :z) + :v',
      ExpressionAttributeNames: { '#m': 'm', ...(c?.ExpressionAttributeNames ?? {}) },
      ExpressionAttributeValues: { ':z': { N: '0' }, ':v': { N: String(v) }, ...(c?.ExpressionAttributeValues ?? {}) },
      ReturnValues: rv,
      ...(c ? { ConditionExpression: c.ConditionExpression } : {}),
    }),
  ]),
  fc
    .tuple(key, fc.boolean())
    .map(([k, consistent]) => [`${V}.GetItem`, JSON.stringify({ TableName: TABLE, Key: keyAttrs(k), ConsistentRead: consistent })]),
  fc
    .tuple(key, condition)
    .map(([k, c]) => [`${V}.DeleteItem`, JSON.stringify({ TableName: TABLE, Key: keyAttrs(k), ReturnValues: 'ALL_OLD', ...(c ?? {}) })]),
  fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.integer({ min: 1, max: 3 }), fc.boolean()).map(([pk, limit, forward]) => [
    `${V}.Query`,
    JSON.stringify({
      TableName: TABLE,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': { S: pk } },
      Limit: limit,
      ScanIndexForward: forward,
      ReturnConsumedCapacity: 'TOTAL',
    }),
  ]),
  fc
    .uniqueArray(key, { minLength: 1, maxLength: 3, selector: (k) => `${k.pk}|${k.sk}` })
    .map((keys) => [
      `${V}.BatchWriteItem`,
      JSON.stringify({ RequestItems: { [TABLE]: keys.map((k) => ({ PutRequest: { Item: { ...keyAttrs(k), batch: { BOOL: true } } } })) } }),
    ]),
  fc
    .uniqueArray(key, { minLength: 1, maxLength: 3, selector: (k) => `${k.pk}|${k.sk}` })
    .map((keys) => [
      `${V}.BatchGetItem`,
      JSON.stringify({ RequestItems: { [TABLE]: { Keys: keys.map((k) => keyAttrs(k)), ConsistentRead: true } } }),
    ]),
  // Malformed and refused calls.
  fc.tuple(fc.constantFrom(`${V}.GetItem`, `${V}.Nope`, 'Nope', '', 'DynamoDB_2099.GetItem'), fc.string({ maxLength: 20 })).map(([t, b]) => [t, b]),
  fc.constantFrom<[string, string]>(
    [`${V}.GetItem`, ''],
    [`${V}.GetItem`, '{"TableName":'],
    [`${V}.GetItem`, JSON.stringify({ TableName: TABLE, Key: 'not a map' })],
    [`${V}.PutItem`, JSON.stringify({ TableName: 'x', Item: { pk: { S: 'a' } } })],
    [`${V}.PutItem`, JSON.stringify({ TableName: 'missing-table', Item: { pk: { S: 'a' }, sk: { S: '1' } } })],
    [`${V}.PutItem`, JSON.stringify({ TableName: TABLE, Item: { pk: { S: 'a' } } })],
    [`${V}.Query`, JSON.stringify({ TableName: TABLE, KeyConditionExpression: 'pk = :unset' })],
    [`${V}.UpdateItem`, JSON.stringify({ TableName: TABLE, Key: keyAttrs({ pk: 'a', sk: '1' }), UpdateExpression: 'SET #x = :v' })],
  ),
);

describe('the embedded store answered without HTTP', () => {
  let viaHttp: EmbeddedStore;
  let viaCall: EmbeddedStore;

  beforeAll(async () => {
    [viaHttp, viaCall] = await Promise.all([startEmbeddedStore(), startEmbeddedStore()]);
    const table = JSON.stringify({
      TableName: TABLE,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
    });
    expect((await overHttp(viaHttp, `${V}.CreateTable`, table)).status).toBe(200);
    expect((await viaCall.call(`${V}.CreateTable`, table)).status).toBe(200);
    // A new table is ACTIVE a moment after it is created (dynalite's createTableMs timer), in each store.
    for (const describe of [(b: string) => overHttp(viaHttp, `${V}.DescribeTable`, b), (b: string) => viaCall.call(`${V}.DescribeTable`, b)]) {
      while (!(await describe(JSON.stringify({ TableName: TABLE }))).body.includes('"TableStatus":"ACTIVE"'))
        await new Promise((r) => setTimeout(r, 5));
    }
  });
  afterAll(async () => {
    await Promise.all([viaHttp?.close(), viaCall?.close()]);
  });

  it('gives the answers dynalite gives over HTTP, for any sequence of calls', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(call, { minLength: 1, maxLength: 12 }), async (calls) => {
        for (const [target, body] of calls) {
          const [http, direct] = await Promise.all([overHttp(viaHttp, target, body), viaCall.call(target, body)]);
          expect({ target, request: body, ...unordered(target, direct) }).toEqual({ target, request: body, ...unordered(target, http) });
        }
      }),
      { numRuns: 60 },
    );
  }, 120000);

  it('reads through one path what the other wrote: both serve the same store', async () => {
    const item = { pk: { S: 'b' }, sk: { S: '2' }, shared: { S: 'written through the call' } };
    expect((await viaCall.call(`${V}.PutItem`, JSON.stringify({ TableName: TABLE, Item: item }))).status).toBe(200);
    const read = await overHttp(
      viaCall,
      `${V}.GetItem`,
      JSON.stringify({ TableName: TABLE, Key: keyAttrs({ pk: 'b', sk: '2' }), ConsistentRead: true }),
    );
    expect(JSON.parse(read.body)).toEqual({ Item: item });
  });
});

import { Readable } from 'node:stream';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import * as Doc from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import fc from 'fast-check';
import { DOCUMENT_MARSHALL } from '../../../../functions/adapters/dynamodb/client';
import * as Direct from '../../../../functions/adapters/dynamodb/direct-commands';

// The direct commands must send the bytes the document client sends and give back what it gives back, for every
// value the document client takes: both are sent through clients whose HTTP handler records the request body and
// answers with a given DynamoDB JSON document.

let answer: { status: number; body: string } = { status: 200, body: '{}' };
const sent: string[] = [];
const handler = {
  handle: async (req: { body?: unknown }) => {
    sent.push(String(req.body));
    const response = {
      statusCode: answer.status,
      headers: { 'content-type': 'application/x-amz-json-1.0' },
      body: Readable.from([Buffer.from(answer.body)]),
    };
    return { response };
  },
};
const rawClient = () =>
  new DynamoDBClient({ region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' }, requestHandler: handler, maxAttempts: 1 });
const docClient = Doc.DynamoDBDocumentClient.from(rawClient(), { marshallOptions: { ...DOCUMENT_MARSHALL } });
const directClient = Doc.DynamoDBDocumentClient.from(rawClient(), { marshallOptions: { ...DOCUMENT_MARSHALL } });
const directRaw = rawClient();

beforeAll(() => Direct.directTarget(() => ({ raw: directRaw, marshall: DOCUMENT_MARSHALL, unmarshall: {} })));

/** Sends `input` both ways with the same answer: the request bodies and the outputs (or the errors' names). */
async function both(name: keyof typeof Direct & keyof typeof Doc, input: object, response: object | { status: number; body: string }) {
  answer = 'status' in response ? (response as { status: number; body: string }) : { status: 200, body: JSON.stringify(response) };
  const run = async (client: Doc.DynamoDBDocumentClient, Cmd: new (i: never) => object) => {
    sent.length = 0;
    try {
      const out = (await client.send(new Cmd(structuredClone(input) as never) as never)) as Record<string, unknown>;
      delete out.$metadata;
      return { body: sent[0], out };
    } catch (err) {
      return { body: sent[0], error: (err as Error).name };
    }
  };
  const viaDoc = await run(docClient, Doc[name] as never);
  const viaDirect = await run(directClient, Direct[name] as never);
  return { viaDoc, viaDirect };
}

// Values the document client marshals: strings (empty too), numbers, booleans, null, binary, sets, lists and maps,
// undefined members (removed).
const leaf = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double({ min: -1e9, max: 1e9, noNaN: true }),
  fc.boolean(),
  fc.constant(null),
  fc.uint8Array({ minLength: 1, maxLength: 8 }),
  fc.uniqueArray(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 3 }).map((a) => new Set(a)),
  fc.uniqueArray(fc.integer(), { minLength: 1, maxLength: 3 }).map((a) => new Set(a)),
  fc.constant(undefined),
);
const value = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    leaf,
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }), tie('v'), { maxKeys: 3 }),
  ),
})).v;
const item = fc
  .record({ pk: fc.string({ minLength: 1 }), sk: fc.string({ minLength: 1 }) })
  .chain((key) => fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), value, { maxKeys: 5 }).map((rest) => ({ ...rest, ...key })));
const key = fc.record({ pk: fc.string({ minLength: 1 }), sk: fc.string({ minLength: 1 }) });
/** An item as DynamoDB answers it (no undefined, sets as sets). */
const stored = item.map((i) => marshall(i, { removeUndefinedValues: true }));

describe('direct document commands', () => {
  it('GetItem and PutItem: the same request bytes and the same output', async () => {
    await fc.assert(
      fc.asyncProperty(key, item, stored, async (k, i, s) => {
        const get = await both('GetCommand', { TableName: 't', Key: k, ConsistentRead: true }, { Item: s });
        expect(get.viaDirect).toEqual(get.viaDoc);
        const put = await both(
          'PutCommand',
          { TableName: 't', Item: i, ConditionExpression: 'attribute_not_exists(pk) OR v < :v', ExpressionAttributeValues: { ':v': i } },
          { Attributes: s },
        );
        expect(put.viaDirect).toEqual(put.viaDoc);
        expect(put.viaDirect.body).toBeDefined();
      }),
      { numRuns: 80 },
    );
  });

  it('UpdateItem, DeleteItem, Query and Scan: the same request bytes and the same output', async () => {
    await fc.assert(
      fc.asyncProperty(key, value, fc.array(stored, { maxLength: 3 }), key, async (k, v, items, last) => {
        const values = { ':a': v, ':b': 1, ':c': 'x' };
        const upd = await both(
          'UpdateCommand',
          { TableName: 't', Key: k, UpdateExpression: 'SET a = :a', ExpressionAttributeValues: values, ReturnValues: 'ALL_NEW' },
          { Attributes: items[0] ?? {} },
        );
        expect(upd.viaDirect).toEqual(upd.viaDoc);
        const del = await both('DeleteCommand', { TableName: 't', Key: k, ReturnValues: 'ALL_OLD' }, items[0] ? { Attributes: items[0] } : {});
        expect(del.viaDirect).toEqual(del.viaDoc);
        const page = { Items: items, Count: items.length, LastEvaluatedKey: marshall(last) };
        for (const name of ['QueryCommand', 'ScanCommand'] as const) {
          const q = await both(
            name,
            { TableName: 't', KeyConditionExpression: 'pk = :c', ExpressionAttributeValues: values, ExclusiveStartKey: last },
            page,
          );
          expect(q.viaDirect).toEqual(q.viaDoc);
        }
      }),
      { numRuns: 80 },
    );
  });

  it('BatchGetItem and BatchWriteItem: the same request bytes and the same output, unprocessed parts included', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(key, { minLength: 1, maxLength: 4 }),
        fc.array(item, { minLength: 1, maxLength: 4 }),
        stored,
        async (keys, items, s) => {
          const get = await both(
            'BatchGetCommand',
            { RequestItems: { t: { Keys: keys, ProjectionExpression: 'pk, sk' } } },
            { Responses: { t: [s] }, UnprocessedKeys: { t: { Keys: [marshall(keys[0])] } } },
          );
          expect(get.viaDirect).toEqual(get.viaDoc);
          const write = await both(
            'BatchWriteCommand',
            { RequestItems: { t: [...items.map((Item) => ({ PutRequest: { Item } })), { DeleteRequest: { Key: keys[0] } }] } },
            { UnprocessedItems: { t: [{ PutRequest: { Item: s } }, { DeleteRequest: { Key: marshall(keys[0]) } }] } },
          );
          expect(write.viaDirect).toEqual(write.viaDoc);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a refused condition is the same error both ways', async () => {
    const refused = {
      status: 400,
      body: JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException', message: 'no' }),
    };
    const r = await both('PutCommand', { TableName: 't', Item: { pk: 'a', sk: 'b' }, ConditionExpression: 'attribute_not_exists(pk)' }, refused);
    expect(r.viaDoc.error).toBe('ConditionalCheckFailedException');
    expect(r.viaDirect).toEqual(r.viaDoc);
  });

  it('values the document client refuses or converts are refused or converted the same way', async () => {
    class Custom {
      x = 1;
    }
    const huge = await both('PutCommand', { TableName: 't', Item: { pk: 'a', sk: 'b', n: 2 ** 60 } }, {});
    expect(huge.viaDoc.error).toBe('Error');
    expect(huge.viaDirect).toEqual(huge.viaDoc);
    const custom = await both('PutCommand', { TableName: 't', Item: { pk: 'a', sk: 'b', c: new Custom(), d: new Date(0) } }, {});
    expect(custom.viaDirect).toEqual(custom.viaDoc);
  });

  it('each send uses its own input (the resolved stack is shared per command class)', async () => {
    const bodies = await Promise.all(
      ['a', 'b', 'c'].map(async (pk) => {
        answer = { status: 200, body: JSON.stringify({ Item: marshall({ pk, sk: 's' }) }) };
        return (await directClient.send(new Direct.GetCommand({ TableName: 't', Key: { pk, sk: 's' } }))).Item?.pk;
      }),
    );
    expect(sent.slice(-3).map((b) => JSON.parse(b).Key.pk.S)).toEqual(['a', 'b', 'c']);
    expect(bodies).toHaveLength(3);
  });
});

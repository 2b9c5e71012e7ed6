// table.ts against dynalite: conditional puts that know their own write, updates that never create, deletes, scans
// that follow every page, and batches larger than one DynamoDB call takes.
import { randomUUID } from 'node:crypto';
import { BatchGetCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import {
  batchGet,
  batchWrite,
  deleteItem,
  deleteRequest,
  doc,
  getItem,
  putNew,
  putOwned,
  putRequest,
  queryAll,
  scanAll,
  updateExisting,
  updateIf,
} from '../../../../functions/adapters/dynamodb/table';
import { startDynaliteWithLostAnswers, type TableWithLostAnswers } from '../../../helpers/dynalite-lost-answers';

let table: TableWithLostAnswers;

beforeAll(async () => {
  table = await startDynaliteWithLostAnswers();
});
afterAll(() => table.close());

/** The inputs of one command class among the calls a spy on the client's send() saw. */
function inputsOf<I>(send: { mock: { calls: unknown[][] } }, command: abstract new (...args: never[]) => { input: I }): I[] {
  return send.mock.calls
    .map(([sent]) => sent)
    .filter((sent): sent is { input: I } => sent instanceof command)
    .map((sent) => sent.input);
}

/** A key no other test uses. */
const freshKey = (sk = 'X') => ({ pk: `T#${randomUUID()}`, sk });

describe('putNew', () => {
  it('creates an item that does not exist yet', async () => {
    // Prepare
    const key = freshKey();
    // Act
    const created = await putNew({ ...key, n: 1 });
    // Assess
    expect(created).toBe(true);
    expect(await getItem(key, true)).toEqual({ ...key, n: 1 });
  });

  it('refuses a second item under the same key and keeps the first', async () => {
    // Prepare
    const key = freshKey();
    await putNew({ ...key, n: 1 });
    // Act
    const again = await putNew({ ...key, n: 2 });
    // Assess
    expect(again).toBe(false);
    expect(await getItem(key, true)).toEqual({ ...key, n: 1 });
  });

  it('counts its own write whose answer was lost as written, recognised by `owned`', async () => {
    // Prepare
    const key = freshKey();
    const token = randomUUID();
    const lost = table.loseNextAnswer('PutItem', key);
    // Act
    const created = await putNew({ ...key, token }, (stored) => stored.token === token);
    // Assess
    expect(await lost).toMatchObject({ kind: 'lost_response', applied: true });
    expect(created).toBe(true);
    expect(await getItem(key, true)).toEqual({ ...key, token });
  });

  it("answers false when the item under the key is someone else's, even when asked to recognise its own", async () => {
    // Prepare
    const key = freshKey();
    await putNew({ ...key, token: 'theirs' });
    // Act
    const created = await putNew({ ...key, token: 'mine' }, (stored) => stored.token === 'mine');
    // Assess
    expect(created).toBe(false);
    expect((await getItem(key, true))?.token).toBe('theirs');
  });
});

describe('putOwned', () => {
  it("applies the input's own condition and values, and reads back only after a conditional failure", async () => {
    // Prepare
    const key = freshKey();
    await putNew({ ...key, version: 1 });
    const input = { Item: { ...key, version: 2 }, ConditionExpression: 'version < :v', ExpressionAttributeValues: { ':v': 2 } };
    // Act
    const first = await putOwned(input, () => false);
    const second = await putOwned(input, (stored) => stored.version === 2);
    // Assess: the first replaced version 1; the second was refused by its condition but found its own item.
    expect([first, second]).toEqual([true, true]);
    expect(await getItem(key, true)).toEqual({ ...key, version: 2 });
  });
});

describe('updateExisting', () => {
  it('updates an existing item and answers it whole (ALL_NEW)', async () => {
    // Prepare
    const key = freshKey();
    await putNew({ ...key, a: 1, b: 'kept' });
    // Act
    const updated = await updateExisting({ Key: key, UpdateExpression: 'SET a = :a', ExpressionAttributeValues: { ':a': 2 } });
    // Assess
    expect(updated).toEqual({ ...key, a: 2, b: 'kept' });
  });

  it('never creates an item: a missing key answers null and stays empty', async () => {
    // Prepare
    const key = freshKey();
    // Act
    const updated = await updateExisting({ Key: key, UpdateExpression: 'SET a = :a', ExpressionAttributeValues: { ':a': 1 } });
    // Assess
    expect(updated).toBeNull();
    expect(await getItem(key, true)).toBeUndefined();
  });

  it('adds its own condition to the existence check: a failed condition answers null and changes nothing', async () => {
    // Prepare
    const key = freshKey();
    await putNew({ ...key, status: 'done', a: 1 });
    // Act
    const updated = await updateExisting({
      Key: key,
      UpdateExpression: 'SET a = :a',
      ConditionExpression: '#s = :queued OR #s = :running',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':a': 2, ':queued': 'queued', ':running': 'running' },
    });
    // Assess
    expect(updated).toBeNull();
    expect(await getItem(key, true)).toEqual({ ...key, status: 'done', a: 1 });
  });
});

describe('updateIf', () => {
  it('creates the item when it has no condition (an upsert) and answers {} with ReturnValues NONE', async () => {
    // Prepare
    const key = freshKey();
    // Act
    const updated = await updateIf({ Key: key, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 }, ReturnValues: 'NONE' });
    // Assess
    expect(updated).toEqual({});
    expect(await getItem(key, true)).toEqual({ ...key, n: 1 });
  });

  it('answers null when its condition fails', async () => {
    // Prepare
    const key = freshKey();
    await putNew({ ...key, n: 5 });
    // Act
    const updated = await updateIf({
      Key: key,
      UpdateExpression: 'SET n = :n',
      ConditionExpression: 'n < :n',
      ExpressionAttributeValues: { ':n': 3 },
    });
    // Assess
    expect(updated).toBeNull();
    expect((await getItem(key, true))?.n).toBe(5);
  });

  it('lets errors other than a failed condition through', async () => {
    // Act
    const outcome = updateIf({ Key: freshKey(), UpdateExpression: 'SET = broken' });
    // Assess
    await expect(outcome).rejects.toMatchObject({ name: 'ValidationException' });
  });
});

describe('deleteItem', () => {
  it('answers true for an item that existed and false for one that did not', async () => {
    // Prepare
    const key = freshKey();
    await putNew({ ...key });
    // Act
    const first = await deleteItem(key);
    const second = await deleteItem(key);
    // Assess
    expect([first, second]).toEqual([true, false]);
    expect(await getItem(key, true)).toBeUndefined();
  });

  it('with mustExist deletes an existing item and answers false for a missing one', async () => {
    // Prepare
    const key = freshKey();
    await putNew({ ...key });
    // Act
    const first = await deleteItem(key, true);
    const second = await deleteItem(key, true);
    // Assess
    expect([first, second]).toEqual([true, false]);
    expect(await getItem(key, true)).toBeUndefined();
  });
});

describe('scanAll', () => {
  it('follows every page of a filtered scan', async () => {
    // Prepare: 23 items of a kind only this test writes, read 5 per page.
    const kind = randomUUID();
    const keys = Array.from({ length: 23 }, () => freshKey());
    await batchWrite(keys.map((k) => putRequest({ ...k, kind })));
    // Act
    const items = await scanAll({ FilterExpression: 'kind = :k', ExpressionAttributeValues: { ':k': kind }, Limit: 5 });
    // Assess
    expect(items.map((i) => i.pk).sort()).toEqual(keys.map((k) => k.pk).sort());
  });
});

describe('batchWrite', () => {
  it('writes 60 items in calls of at most 25 and deletes them again', async () => {
    // Prepare
    const pk = `T#${randomUUID()}`;
    const items = Array.from({ length: 60 }, (_, i) => ({ pk, sk: `I#${String(i).padStart(3, '0')}`, i }));
    const send = jest.spyOn(doc(), 'send');
    try {
      // Act
      await batchWrite(items.map((element) => putRequest(element)));
      const written = await queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ConsistentRead: true });
      await batchWrite(items.map(({ pk: p, sk }) => deleteRequest({ pk: p, sk })));
      const left = await queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ConsistentRead: true });
      // Assess
      expect(written).toEqual(items);
      expect(left).toEqual([]);
      const sizes = inputsOf(send, BatchWriteCommand).map((input) => input.RequestItems![table.tableName].length);
      expect(sizes).toEqual([25, 25, 10, 25, 25, 10]);
    } finally {
      send.mockRestore();
    }
  });

  it('sends the items the store left unprocessed again until every one is written', async () => {
    // Prepare: the first call leaves two items unprocessed (throttled partitions), the second takes them.
    const requests = Array.from({ length: 5 }, () => putRequest(freshKey()));
    const store = mockClient(doc());
    store
      .on(BatchWriteCommand)
      .resolvesOnce({ UnprocessedItems: { [table.tableName]: requests.slice(3) } })
      .resolves({});
    try {
      // Act
      await batchWrite(requests);
      // Assess
      const sent = store.commandCalls(BatchWriteCommand).map((c) => c.args[0].input.RequestItems![table.tableName]);
      expect(sent).toEqual([requests, requests.slice(3)]);
    } finally {
      store.restore();
    }
  });
  it('writes several chunks at once when asked, each item once', async () => {
    // Prepare
    const pk = `T#${randomUUID()}`;
    const items = Array.from({ length: 130 }, (_, i) => ({ pk, sk: `I#${String(i).padStart(3, '0')}`, i }));
    const client = doc();
    const original = client.send.bind(client);
    let inFlight = 0;
    let peak = 0;
    const send = jest.spyOn(client, 'send').mockImplementation((async (command: never) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      try {
        return await original(command);
      } finally {
        inFlight--;
      }
    }) as never);
    try {
      // Act
      await batchWrite(
        items.map((element) => putRequest(element)),
        { inFlight: 4 },
      );
      // Assess
      const sizes = inputsOf(send, BatchWriteCommand).map((input) => input.RequestItems![table.tableName].length);
      expect(sizes.sort((a, b) => a - b)).toEqual([5, 25, 25, 25, 25, 25]);
      expect(peak).toBe(4);
    } finally {
      send.mockRestore();
    }
    const written = await queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ConsistentRead: true });
    expect(written).toEqual(items);
  });

  it('after a chunk fails, starts no other chunk, lets those in flight finish, then throws its error', async () => {
    // Prepare: 10 chunks, 3 at once; the second call fails, the first and third answer later
    const requests = Array.from({ length: 250 }, () => putRequest(freshKey()));
    const store = mockClient(doc());
    const answered: number[] = [];
    let call = 0;
    store.on(BatchWriteCommand).callsFake(async () => {
      const n = ++call;
      if (n === 2) throw Object.assign(new Error('Throughput exceeds the current capacity'), { name: 'ProvisionedThroughputExceededException' });
      await new Promise((r) => setTimeout(r, 30));
      answered.push(n);
      return {};
    });
    try {
      // Act
      const outcome = await batchWrite(requests, { inFlight: 3 }).then(
        () => 'written',
        (err: Error) => err.name,
      );
      // Assess
      expect(outcome).toBe('ProvisionedThroughputExceededException');
      expect(call).toBe(3);
      expect(answered.sort()).toEqual([1, 3]);
    } finally {
      store.restore();
    }
  });
});

describe('batchGet', () => {
  it('reads 130 keys in calls of at most 100, with a projection', async () => {
    // Prepare
    const pk = `T#${randomUUID()}`;
    const items = Array.from({ length: 130 }, (_, i) => ({ pk, sk: `I#${String(i).padStart(3, '0')}`, i, bulky: 'x'.repeat(100) }));
    await batchWrite(items.map((element) => putRequest(element)));
    const send = jest.spyOn(doc(), 'send');
    try {
      // Act
      const found = await batchGet(
        items.map(({ sk }) => ({ pk, sk })),
        'sk, i',
      );
      // Assess
      expect(found.sort((a, b) => Number(a.i) - Number(b.i))).toEqual(items.map(({ sk, i }) => ({ sk, i })));
      const sizes = inputsOf(send, BatchGetCommand).map((input) => input.RequestItems![table.tableName].Keys!.length);
      expect(sizes).toEqual([100, 30]);
    } finally {
      send.mockRestore();
    }
  });

  it('answers only the keys that exist', async () => {
    // Prepare
    const present = freshKey();
    await putNew({ ...present, v: 1 });
    // Act
    const found = await batchGet([present, freshKey(), freshKey()]);
    // Assess
    expect(found).toEqual([{ ...present, v: 1 }]);
  });

  it('asks again for the keys the store left unprocessed', async () => {
    // Prepare
    const keys = Array.from({ length: 4 }, () => freshKey());
    const store = mockClient(doc());
    store
      .on(BatchGetCommand)
      .resolvesOnce({ Responses: { [table.tableName]: [keys[0], keys[1]] }, UnprocessedKeys: { [table.tableName]: { Keys: keys.slice(2) } } })
      .resolves({ Responses: { [table.tableName]: keys.slice(2) } });
    try {
      // Act
      const found = await batchGet(keys);
      // Assess
      expect(found).toEqual(keys);
      expect(store.commandCalls(BatchGetCommand).map((c) => c.args[0].input.RequestItems![table.tableName].Keys)).toEqual([keys, keys.slice(2)]);
    } finally {
      store.restore();
    }
  });
});

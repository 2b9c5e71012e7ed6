// queryListing against dynalite: gsi1 holds keys only, so a listing page is read as keys and then as whole items, in
// the index's order, with the index's page position, filtered after the limit as a FilterExpression would be.
import { randomUUID } from 'node:crypto';
import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { batchWrite, deleteItem, doc, putRequest, queryListing, queryPage } from '../../../../functions/adapters/dynamodb/table';
import { startDynalite, type TestTable } from '../../../helpers/dynalite';

let table: TestTable;

beforeAll(async () => {
  table = await startDynalite();
});
afterAll(() => table.close());

/** `n` listed items under one fresh gsi1 partition, item i created at second i, odd ones `status: 'b'`. */
async function seedListing(n: number) {
  const gsi1pk = `LIST#${randomUUID()}`;
  const items = Array.from({ length: n }, (_, i) => ({
    pk: `E#${randomUUID()}`,
    sk: 'META',
    gsi1pk,
    gsi1sk: `2026-11-27T00:00:${String(i).padStart(4, '0')}#${i}`,
    i,
    status: i % 2 ? 'b' : 'a',
    body: 'x'.repeat(200),
  }));
  await batchWrite(items.map((element) => putRequest(element)));
  return { gsi1pk, newestFirst: [...items].reverse() };
}

describe('gsi1', () => {
  it('projects the keys only', async () => {
    // Act
    const { Table } = await doc().send(new DescribeTableCommand({ TableName: table.tableName }));
    // Assess
    expect(Table!.GlobalSecondaryIndexes!.map((g) => [g.IndexName, g.Projection!.ProjectionType])).toEqual([['gsi1', 'KEYS_ONLY']]);
  });
});

describe('queryListing', () => {
  it('answers whole items newest first with the index page position, reading 150 items in BatchGets of at most 100', async () => {
    // Prepare
    const { gsi1pk, newestFirst } = await seedListing(160);
    const send = jest.spyOn(doc(), 'send');
    try {
      // Act
      const page = await queryListing(gsi1pk, { limit: 150 });
      // Assess
      expect(page.items).toEqual(newestFirst.slice(0, 150));
      const indexPage = await queryPage({
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': gsi1pk },
        ScanIndexForward: false,
        Limit: 150,
      });
      expect(page.last).toEqual(indexPage.last);
      const batchSizes = send.mock.calls
        .map(([sent]) => sent as unknown)
        .filter((sent): sent is BatchGetCommand => sent instanceof BatchGetCommand)
        .map((sent) => Object.values(sent.input.RequestItems!)[0].Keys!.length);
      expect(batchSizes).toEqual([100, 50]);
    } finally {
      send.mockRestore();
    }
  });

  it('continues from the position it answered, to the end', async () => {
    // Prepare
    const { gsi1pk, newestFirst } = await seedListing(7);
    // Act
    const first = await queryListing(gsi1pk, { limit: 4 });
    const second = await queryListing(gsi1pk, { limit: 4, after: first.last });
    // Assess
    expect([...first.items, ...second.items]).toEqual(newestFirst);
    expect(second.last).toBeUndefined();
  });

  it('filters after the limit, so a page may hold fewer items than asked and still go on', async () => {
    // Prepare
    const { gsi1pk, newestFirst } = await seedListing(6);
    // Act
    const page = await queryListing(gsi1pk, { limit: 3 }, { status: 'b', other: undefined });
    const none = await queryListing(gsi1pk, { limit: 3 }, { status: 'c' });
    // Assess
    expect(page.items).toEqual(newestFirst.slice(0, 3).filter((i) => i.status === 'b'));
    expect(page.last).toBeDefined();
    expect(none.items).toEqual([]);
    expect(none.last).toEqual(page.last);
  });

  it('leaves out an item deleted between the index read and the item read', async () => {
    // Prepare
    const { gsi1pk, newestFirst } = await seedListing(3);
    const client = doc();
    const realSend = client.send.bind(client) as (command: unknown) => Promise<unknown>;
    const send = jest.spyOn(client, 'send').mockImplementation((async (command: unknown) => {
      const out = await realSend(command);
      if (command instanceof QueryCommand) await deleteItem({ pk: newestFirst[1].pk, sk: 'META' });
      return out;
    }) as never);
    // Act
    const page = await queryListing(gsi1pk, { limit: 10 }).finally(() => send.mockRestore());
    // Assess
    expect(page.items).toEqual([newestFirst[0], newestFirst[2]]);
  });
});

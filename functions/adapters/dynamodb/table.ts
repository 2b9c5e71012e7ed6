// Shared plumbing for the repositories: the document client, the table name (read lazily), paging and batching helpers.
import { BatchGetCommand, BatchWriteCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamoDocClient } from '../../shared/aws';
import { requireEnv } from '../../shared/env';

export const doc = () => dynamoDocClient();
export const tableName = () => requireEnv('TABLE_NAME');

export function isConditionalFailure(err: unknown): boolean {
  return (err as { name?: string })?.name === 'ConditionalCheckFailedException';
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** BatchWrite in chunks of 25, re-sending unprocessed items with back-off until all are written. */
export async function batchWrite(requests: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < requests.length; i += 25) {
    let pending: Record<string, unknown>[] = requests.slice(i, i + 25);
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 8) throw new Error(`BatchWrite left ${pending.length} unprocessed items after retries`);
      if (attempt > 0) await sleep(Math.min(50 * 2 ** attempt, 2000));
      const out = await doc().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending as never } }));
      pending = (out.UnprocessedItems?.[tableName()] as Record<string, unknown>[] | undefined) ?? [];
    }
  }
}

export const putRequest = (Item: Record<string, unknown>) => ({ PutRequest: { Item } });
export const deleteRequest = (Key: Record<string, unknown>) => ({ DeleteRequest: { Key } });

/** BatchGet in chunks of 100, retrying unprocessed keys. */
export async function batchGet(keysList: Record<string, unknown>[], projection?: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < keysList.length; i += 100) {
    let pending = keysList.slice(i, i + 100);
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 8) throw new Error(`BatchGet left ${pending.length} unprocessed keys after retries`);
      if (attempt > 0) await sleep(Math.min(50 * 2 ** attempt, 2000));
      const res = await doc().send(
        new BatchGetCommand({
          RequestItems: { [tableName()]: { Keys: pending, ...(projection ? { ProjectionExpression: projection } : {}) } },
        }),
      );
      out.push(...((res.Responses?.[tableName()] as Record<string, unknown>[] | undefined) ?? []));
      pending = (res.UnprocessedKeys?.[tableName()]?.Keys as Record<string, unknown>[] | undefined) ?? [];
    }
  }
  return out;
}

/** Runs a query to the end (all pages). */
export async function queryAll(input: Omit<QueryCommandInput, 'TableName'>): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const res = await doc().send(new QueryCommand({ TableName: tableName(), ...input, ExclusiveStartKey }));
    items.push(...((res.Items as Record<string, unknown>[]) ?? []));
    ExclusiveStartKey = res.LastEvaluatedKey as Record<string, unknown> | undefined;
  } while (ExclusiveStartKey);
  return items;
}

/** One page of a query. */
export async function queryPage(
  input: Omit<QueryCommandInput, 'TableName'>,
): Promise<{ items: Record<string, unknown>[]; last?: Record<string, unknown> }> {
  const res = await doc().send(new QueryCommand({ TableName: tableName(), ...input }));
  return { items: (res.Items as Record<string, unknown>[]) ?? [], last: res.LastEvaluatedKey as Record<string, unknown> | undefined };
}

/** One page of a project listing on gsi1, newest first (traces, campaigns, runs); `filter` narrows it after the key range. */
export async function queryListing(
  gsi1pk: string,
  page: { limit: number; after?: Record<string, unknown> },
  filter?: { expression: string; names: Record<string, string>; values: Record<string, unknown> },
): Promise<{ items: Record<string, unknown>[]; last?: Record<string, unknown> }> {
  return queryPage({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ...(filter ? { FilterExpression: filter.expression, ExpressionAttributeNames: filter.names } : {}),
    ExpressionAttributeValues: { ':pk': gsi1pk, ...(filter?.values ?? {}) },
    ScanIndexForward: false,
    Limit: page.limit,
    ExclusiveStartKey: page.after,
  });
}

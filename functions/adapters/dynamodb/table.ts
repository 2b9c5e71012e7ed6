// Shared plumbing for the repositories: the document client, the table name (read lazily), paging and batching helpers.
import type { PutCommandInput, QueryCommandInput, ScanCommandInput, UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  UpdateCommand,
} from './direct-commands';
import { runBounded } from '../../core/concurrency';
import { exponentialDelays, realSleep, tries } from '../../core/retry';
import { dynamoDocClient } from './client';
import { requireEnv } from '../env';

export const doc = () => dynamoDocClient();
export const tableName = () => requireEnv('TABLE_NAME');

export function isConditionalFailure(err: unknown): boolean {
  return (err as { name?: string })?.name === 'ConditionalCheckFailedException';
}

/**
 * A conditional put that knows its own write. When the store applies a put but its answer is lost (a dropped
 * connection, a 500, a timeout), the SDK sends it again and the second try fails its own condition. So after a
 * conditional failure the item under the key is read back (strongly consistent) and `owned` tells whether it is the
 * one this call wrote (by a field only this call writes: a fresh id, a token, a creation time): then the put did
 * happen. Returns true when the item is this call's, false when the condition kept someone else's item.
 */
export async function putOwned(input: PutInput, owned: (stored: Record<string, unknown>) => boolean): Promise<boolean> {
  if (await putIf(input)) return true;
  const stored = await getItem({ pk: input.Item.pk, sk: input.Item.sk }, true);
  return stored !== undefined && owned(stored);
}

type Item = Record<string, unknown>;
type PutInput = Omit<PutCommandInput, 'TableName'> & { Item: Item };
type UpdateInput = Omit<UpdateCommandInput, 'TableName'>;

/** GetItem of one key; `consistent` for a strongly consistent read. */
export async function getItem(Key: Item, consistent = false): Promise<Item | undefined> {
  const res = await doc().send(new GetCommand({ TableName: tableName(), Key, ConsistentRead: consistent || undefined }));
  return res.Item;
}

/** PutItem, unconditional or with the input's condition; false when the condition failed (nothing written). */
export async function putIf(input: PutInput): Promise<boolean> {
  try {
    await doc().send(new PutCommand({ TableName: tableName(), ...input }));
    return true;
  } catch (err) {
    if (isConditionalFailure(err)) return false;
    throw err;
  }
}

/**
 * Creates an item that must not exist yet (`attribute_not_exists(pk)`). With `owned`, a conditional failure caused by
 * this call's own earlier try (its answer lost, the SDK retried) still counts as written: see putOwned.
 */
export function putNew(Item: Item, owned?: (stored: Item) => boolean): Promise<boolean> {
  const input: PutInput = { Item, ConditionExpression: 'attribute_not_exists(pk)' };
  return owned ? putOwned(input, owned) : putIf(input);
}

/** UpdateItem (ALL_NEW by default); null when its condition failed. */
export async function updateIf(input: UpdateInput): Promise<Item | null> {
  try {
    const res = await doc().send(new UpdateCommand({ TableName: tableName(), ReturnValues: 'ALL_NEW', ...input }));
    return (res.Attributes as Item | undefined) ?? {};
  } catch (err) {
    if (isConditionalFailure(err)) return null;
    throw err;
  }
}

/** UpdateItem of an item that must exist (`attribute_exists(pk)`, and the input's own condition if any). */
export function updateExisting(input: UpdateInput): Promise<Item | null> {
  const cond = input.ConditionExpression ? `attribute_exists(pk) AND (${input.ConditionExpression})` : 'attribute_exists(pk)';
  return updateIf({ ...input, ConditionExpression: cond });
}

/** DeleteItem of one key: true when it existed; with `mustExist` nothing else happens when it did not. */
export async function deleteItem(Key: Item, mustExist = false): Promise<boolean> {
  try {
    const res = await doc().send(
      new DeleteCommand({
        TableName: tableName(),
        Key,
        ...(mustExist ? { ConditionExpression: 'attribute_exists(pk)' } : { ReturnValues: 'ALL_OLD' }),
      }),
    );
    return mustExist || res.Attributes !== undefined;
  } catch (err) {
    if (isConditionalFailure(err)) return false;
    throw err;
  }
}

/** DeleteItem under a condition (`names`/`values` for its placeholders); false when the condition failed. */
export async function deleteIf(Key: Item, condition: string, values: Record<string, unknown>, names?: Record<string, string>): Promise<boolean> {
  try {
    await doc().send(
      new DeleteCommand({
        TableName: tableName(),
        Key,
        ConditionExpression: condition,
        ExpressionAttributeValues: values,
        ExpressionAttributeNames: names,
      }),
    );
    return true;
  } catch (err) {
    if (isConditionalFailure(err)) return false;
    throw err;
  }
}

/** Scans the whole table with a filter (local maintenance only: a deployed table is never scanned). */
export async function scanAll(input: Omit<ScanCommandInput, 'TableName'>): Promise<Item[]> {
  const items: Item[] = [];
  let ExclusiveStartKey: Item | undefined;
  do {
    const res = await doc().send(new ScanCommand({ TableName: tableName(), ...input, ExclusiveStartKey }));
    items.push(...((res.Items as Item[]) ?? []));
    ExclusiveStartKey = res.LastEvaluatedKey as Item | undefined;
  } while (ExclusiveStartKey);
  return items;
}

/** Waits before re-sending what a batch call left unprocessed: 8 more tries, 100 ms doubling to 2 s. */
const UNPROCESSED_RETRY_DELAYS_MS = exponentialDelays(100, 8, 2000);

/**
 * BatchWrite in chunks of 25, re-sending unprocessed items with back-off until all are written. `inFlight` chunks are
 * written at once (default 1: in order), for callers whose requests name distinct keys and need no order among them.
 * After a chunk fails no new one starts; those in flight finish, then the first error is thrown.
 */
export async function batchWrite(requests: Record<string, unknown>[], opts: { inFlight?: number } = {}): Promise<void> {
  const chunks: Record<string, unknown>[][] = [];
  for (let i = 0; i < requests.length; i += 25) chunks.push(requests.slice(i, i + 25));
  await runBounded(chunks, opts.inFlight ?? 1, async (chunk) => {
    let pending = chunk;
    for await (const _try of tries(UNPROCESSED_RETRY_DELAYS_MS, realSleep)) {
      const out = await doc().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending as never } }));
      pending = (out.UnprocessedItems?.[tableName()] as Record<string, unknown>[] | undefined) ?? [];
      if (pending.length === 0) break;
    }
    if (pending.length > 0) throw new Error(`BatchWrite left ${pending.length} unprocessed items after retries`);
  });
}

/**
 * Free-form JSON from users (trace metadata and tool schemas, campaign definitions, the criteria an attempt was scored
 * by) is stored as its JSON text, not as DynamoDB maps: DynamoDB refuses empty map keys ("Empty attribute name") and
 * nesting past 32 levels, and the SDK refuses numbers beyond 2^53, all of which JSON allows (dynalite takes the first
 * two, which only the parity run against DynamoDB Local showed). undefined stays undefined (no attribute).
 */
export function packJson(value: unknown): string | undefined {
  return value === undefined ? undefined : JSON.stringify(value);
}

/** The value of a packed attribute; `legacy` (the native attribute of an item written before packing) when absent. */
export function unpackJson<T>(packed: unknown, legacy: T): T {
  return typeof packed === 'string' ? (JSON.parse(packed) as T) : legacy;
}

export const putRequest = (Item: Record<string, unknown>) => ({ PutRequest: { Item } });
export const deleteRequest = (Key: Record<string, unknown>) => ({ DeleteRequest: { Key } });

/** BatchGet in chunks of 100, retrying unprocessed keys. */
export async function batchGet(keysList: Record<string, unknown>[], projection?: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < keysList.length; i += 100) {
    let pending = keysList.slice(i, i + 100);
    for await (const _try of tries(UNPROCESSED_RETRY_DELAYS_MS, realSleep)) {
      const res = await doc().send(
        new BatchGetCommand({
          RequestItems: { [tableName()]: { Keys: pending, ...(projection ? { ProjectionExpression: projection } : {}) } },
        }),
      );
      out.push(...((res.Responses?.[tableName()] as Record<string, unknown>[] | undefined) ?? []));
      pending = (res.UnprocessedKeys?.[tableName()]?.Keys as Record<string, unknown>[] | undefined) ?? [];
      if (pending.length === 0) break;
    }
    if (pending.length > 0) throw new Error(`BatchGet left ${pending.length} unprocessed keys after retries`);
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

/**
 * One page of a project listing on gsi1, newest first (traces, campaigns, runs, CI batches), as whole items. The index
 * holds keys only (lib/table.ts): the page of keys is read with the caller's limit and position, then its items by
 * their table keys (BatchGet), in the index's order. `where` narrows the page to the items whose attributes equal the
 * given values, as a FilterExpression would: after the key range and the limit, so a page may hold fewer items than
 * the limit (even none) and still have a next position. An item deleted after the index read is left out.
 */
export async function queryListing(
  gsi1pk: string,
  page: { limit: number; after?: Record<string, unknown> },
  where?: Record<string, unknown>,
): Promise<{ items: Record<string, unknown>[]; last?: Record<string, unknown> }> {
  const res = await queryPage({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': gsi1pk },
    ScanIndexForward: false,
    Limit: page.limit,
    ExclusiveStartKey: page.after,
  });
  const keyOf = (i: Record<string, unknown>) => `${String(i.pk)}\n${String(i.sk)}`;
  const fetched = await batchGet(res.items.map((i) => ({ pk: i.pk, sk: i.sk })));
  const byKey = new Map(fetched.map((i) => [keyOf(i), i]));
  const conds = Object.entries(where ?? {}).filter(([, v]) => v !== undefined);
  const items = res.items
    .map((i) => byKey.get(keyOf(i)))
    .filter((i): i is Record<string, unknown> => i !== undefined && conds.every(([k, v]) => i[k] === v));
  return { items, last: res.last };
}

// Counts the AWS calls this process makes, by operation, with an SDK middleware on every client the adapters build
// (through their instrumentation hook), and the DynamoDB capacity units the store reports for them
// (ReturnConsumedCapacity=TOTAL is added to every DynamoDB call that takes it; an empty Query or Scan counts as a read of
// up to 4 KB, as DynamoDB bills it). dynalite reports table capacity only:
// countIndexWrites() also prices each write's GSI entries where the embedded store runs in this process.
import { instrumentAwsClients } from '../../functions/adapters/aws';
import { canonicalJson } from '../../functions/core/json';
import { indexWriteUnits, writeUnitsFor, type IndexEntry } from './cost-model';

export interface CallCounts {
  /** Calls per operation, e.g. GetItem, Query, BatchWriteItem. */
  calls: Record<string, number>;
  /** Table capacity units per operation (read units for reads, write units for writes). */
  unitsByOp: Record<string, number>;
  /** DynamoDB read and write capacity units reported by the store (tables only; see gsiWrites). */
  readUnits: number;
  writeUnits: number;
  /** Writes whose request sets a GSI key attribute (a lower bound of the writes that cost index write units). */
  gsiWrites: number;
  /** Conditional writes the store refused: DynamoDB charges them write units, the store reports none. */
  conditionalCheckFailures: number;
  /**
   * GSI write units of the writes, from each item's index entries before and after the write (see indexWriteUnits in
   * cost-model.ts), or undefined when the store is not in this process (an external endpoint or a child process).
   */
  indexWriteUnits?: number;
  /** Item writes the in-process store applied (puts, updates and deletes, those of batches one by one). */
  storeItemWrites: number;
  /**
   * Item writes the in-process store applied, by item kind (`<pk prefix>/<sk prefix>`, e.g. RUN/META): how many, their
   * table write units (the larger of the item before and after, 1 KB each) and their GSI write units.
   */
  writesByKind: Record<string, { writes: number; units: number; indexUnits: number }>;
  /** Calls and table units by caller, when attributeCallsTo() names one (e.g. the handler running); else under 'other'. */
  byCaller: Record<string, { calls: number; readUnits: number; writeUnits: number }>;
}

const CAPACITY_OPS = new Set(['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query', 'Scan', 'BatchGetItem', 'BatchWriteItem']);
const READ_OPS = new Set(['GetItem', 'Query', 'Scan', 'BatchGetItem']);
const GSI_KEY = /\bgsi\d*(pk|sk)\b/i;

const fresh = (): CallCounts => ({
  calls: {},
  unitsByOp: {},
  readUnits: 0,
  writeUnits: 0,
  gsiWrites: 0,
  conditionalCheckFailures: 0,
  indexWriteUnits: undefined,
  storeItemWrites: 0,
  writesByKind: {},
  byCaller: {},
});
let callerOf: () => string | undefined = () => undefined;

/** Names the caller of each call from now on (e.g. from an AsyncLocalStorage the caller's code runs in). */
export function attributeCallsTo(caller: () => string | undefined): void {
  callerOf = caller;
}
let counts: CallCounts = fresh();

/** Whether a write request (any shape) sets a GSI key attribute. */
function writesGsiKey(input: Record<string, unknown>): boolean {
  const text = JSON.stringify([input.Item, input.UpdateExpression, input.ExpressionAttributeNames, input.RequestItems]);
  return GSI_KEY.test(text ?? '');
}

type Consumed = { CapacityUnits?: number };

/** Installs the counter on every AWS client built from now on (call before the first client is used). */
export function countAwsCalls(): void {
  instrumentAwsClients((client) => {
    const stack = (client as unknown as { middlewareStack?: { add: (mw: unknown, opts: unknown) => void } }).middlewareStack;
    stack?.add(
      (next: (args: { input: Record<string, unknown> }) => Promise<{ output: Record<string, unknown> }>, context: { commandName?: string }) =>
        async (args: { input: Record<string, unknown> }) => {
          const op = (context.commandName ?? 'Unknown').replace(/Command$/, '');
          counts.calls[op] = (counts.calls[op] ?? 0) + 1;
          const by = (counts.byCaller[callerOf() ?? 'other'] ??= { calls: 0, readUnits: 0, writeUnits: 0 });
          by.calls++;
          if (CAPACITY_OPS.has(op)) args.input.ReturnConsumedCapacity ??= 'TOTAL';
          if (!READ_OPS.has(op) && CAPACITY_OPS.has(op) && writesGsiKey(args.input)) counts.gsiWrites++;
          let result: { output: Record<string, unknown> };
          try {
            result = await next(args);
          } catch (err) {
            if ((err as { name?: string }).name === 'ConditionalCheckFailedException') counts.conditionalCheckFailures++;
            throw err;
          }
          const consumed = result.output?.ConsumedCapacity as Consumed | Consumed[] | undefined;
          let units = (Array.isArray(consumed) ? consumed : consumed ? [consumed] : []).reduce((s, c) => s + (c.CapacityUnits ?? 0), 0);
          // dynalite reports 0 for a Query or Scan that reads nothing; DynamoDB bills it as a read of up to 4 KB.
          if (op === 'Query' || op === 'Scan') units = Math.max(units, args.input.ConsistentRead ? 1 : 0.5);
          counts.unitsByOp[op] = (counts.unitsByOp[op] ?? 0) + units;
          if (READ_OPS.has(op)) {
            counts.readUnits += units;
            by.readUnits += units;
          } else {
            counts.writeUnits += units;
            by.writeUnits += units;
          }
          return result;
        },
      { step: 'initialize', name: 'rtsBenchCallCounter', override: true },
    );
    return client;
  });
}

/** dynalite's item (attribute name -> typed value) and table description, as far as the hook reads them. */
type StoreItem = Record<string, Record<string, unknown>>;
interface StoreIndex {
  IndexName: string;
  KeySchema: { AttributeName: string }[];
  Projection: { ProjectionType: string; NonKeyAttributes?: string[] };
}
interface StoreTable {
  KeySchema: { AttributeName: string }[];
  GlobalSecondaryIndexes?: StoreIndex[];
}
interface StoreDb {
  updateIndexes: (store: unknown, table: StoreTable, existing: StoreItem | null | undefined, item: StoreItem | null | undefined, cb: unknown) => void;
  itemSize: (item: StoreItem) => number;
}

/** The item's entry in the index, or undefined when the item lacks one of the index's key attributes (sparse index). */
function indexEntry(db: StoreDb, table: StoreTable, index: StoreIndex, item: StoreItem | null | undefined): IndexEntry | undefined {
  if (!item) return undefined;
  const keys = index.KeySchema.map((k) => k.AttributeName);
  if (!keys.every((k) => item[k] != null)) return undefined;
  let projected = item;
  if (index.Projection.ProjectionType !== 'ALL') {
    const attrs = [...keys, ...table.KeySchema.map((k) => k.AttributeName), ...(index.Projection.NonKeyAttributes ?? [])];
    projected = Object.fromEntries(attrs.filter((a) => item[a] != null).map((a) => [a, item[a]]));
  }
  return { key: canonicalJson(keys.map((k) => item[k])), bytes: db.itemSize(projected), image: canonicalJson(projected) };
}

/**
 * `<pk prefix>/<sk prefix>` of an item, each the key text before its first `#` when that is a tag (capitals), else `*`
 * (a key that starts with a value, e.g. a timestamp): RUN/META, RUN/ATTEMPT, BATCHLIST/*.
 */
function itemKind(table: StoreTable, item: StoreItem): string {
  const prefix = (attr: string) => String(Object.values(item[attr] ?? {})[0] ?? '').split('#')[0];
  return table.KeySchema.map((k) => (/^[A-Z_]+$/.test(prefix(k.AttributeName)) ? prefix(k.AttributeName) : '*')).join('/');
}

let indexHookInstalled = false;
let restoreIndexHook: (() => void) | undefined;

/**
 * Prices the GSI writes of every item write the embedded store applies in this process (dynalite's index maintenance
 * sees the item before and after). Call before the service starts; counts go to takeCounts().indexWriteUnits.
 */
export function countIndexWrites(): void {
  if (indexHookInstalled) return;
  // dynalite ships no types; its db module is the one every action calls for index maintenance.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const db = require('dynalite/db') as StoreDb;
  const original = db.updateIndexes;
  restoreIndexHook = () => {
    db.updateIndexes = original;
  };
  db.updateIndexes = (store, table, existing, item, cb) => {
    counts.storeItemWrites++;
    let units = 0;
    for (const index of table.GlobalSecondaryIndexes ?? []) {
      units += indexWriteUnits(indexEntry(db, table, index, existing), indexEntry(db, table, index, item));
    }
    counts.indexWriteUnits = (counts.indexWriteUnits ?? 0) + units;
    const kind = itemKind(table, (item ?? existing)!);
    const byKind = (counts.writesByKind[kind] ??= { writes: 0, units: 0, indexUnits: 0 });
    byKind.writes++;
    byKind.units += writeUnitsFor(Math.max(existing ? db.itemSize(existing) : 0, item ? db.itemSize(item) : 0));
    byKind.indexUnits += units;
    return original(store, table, existing, item, cb);
  };
  indexHookInstalled = true;
}

/**
 * Stops counting: clients built from now on carry no counter (resetAwsClients() drops the built ones) and the store's
 * index maintenance is its own again. Other benches in the same process then run unobserved.
 */
export function stopCounting(): void {
  instrumentAwsClients((client) => client);
  restoreIndexHook?.();
  restoreIndexHook = undefined;
  indexHookInstalled = false;
  attributeCallsTo(() => undefined);
}

/** The counts since the last reset, and starts counting afresh. */
export function takeCounts(): CallCounts {
  const out = counts;
  counts = fresh();
  // With the hook installed, a window whose writes all missed the index still priced them: 0, not unknown.
  if (indexHookInstalled && out.storeItemWrites > 0) out.indexWriteUnits ??= 0;
  return out;
}

export const totalCalls = (c: CallCounts): number => Object.values(c.calls).reduce((a, b) => a + b, 0);

/** Adds `add` repeated `times` to `into`, its calls attributed to `caller`: what an operation counted once costs n times. */
export function addRepeated(into: CallCounts, add: CallCounts, times: number, caller: string): void {
  const sum = (to: Record<string, number>, from: Record<string, number>) => {
    for (const [k, n] of Object.entries(from)) to[k] = (to[k] ?? 0) + n * times;
  };
  sum(into.calls, add.calls);
  sum(into.unitsByOp, add.unitsByOp);
  into.readUnits += add.readUnits * times;
  into.writeUnits += add.writeUnits * times;
  into.gsiWrites += add.gsiWrites * times;
  into.conditionalCheckFailures += add.conditionalCheckFailures * times;
  if (add.indexWriteUnits !== undefined) into.indexWriteUnits = (into.indexWriteUnits ?? 0) + add.indexWriteUnits * times;
  into.storeItemWrites += add.storeItemWrites * times;
  for (const [kind, k] of Object.entries(add.writesByKind)) {
    const to = (into.writesByKind[kind] ??= { writes: 0, units: 0, indexUnits: 0 });
    to.writes += k.writes * times;
    to.units += k.units * times;
    to.indexUnits += k.indexUnits * times;
  }
  const by = (into.byCaller[caller] ??= { calls: 0, readUnits: 0, writeUnits: 0 });
  by.calls += totalCalls(add) * times;
  by.readUnits += add.readUnits * times;
  by.writeUnits += add.writeUnits * times;
}

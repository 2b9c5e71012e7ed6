// The document client's commands, sent without the document client's per-call work. A lib-dynamodb command resolves a
// middleware stack of its own on every send: it adds its marshalling middleware to a fresh DynamoDB command, merges
// that command's stack with the client's and sorts the whole of it again (~0.5 ms of CPU a call, measured: 1.33 ms a
// GetItem through the document client, 0.78 ms for the same GetItem as a raw command, less with the raw client's
// resolved stack cached). These subclasses keep the document client's interface (its `send`, its input and output
// shapes, its command classes for `instanceof`, so aws-sdk-client-mock's `on(GetCommand)` still matches) and, when
// sent, marshal their input exactly as lib-dynamodb does (its own key nodes, the client's marshall options), send the
// plain DynamoDB command through the raw client's stack resolved once per command class (what the SDK's
// `cacheMiddleware` option does, kept here so that the document client itself and any plain lib-dynamodb command
// sent through it resolve as before) and unmarshal the answer the same way. Errors are the raw client's, as through
// the document client.
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand as DocBatchGet,
  BatchWriteCommand as DocBatchWrite,
  DeleteCommand as DocDelete,
  GetCommand as DocGet,
  PutCommand as DocPut,
  QueryCommand as DocQuery,
  ScanCommand as DocScan,
  UpdateCommand as DocUpdate,
} from '@aws-sdk/lib-dynamodb';
import { marshall, unmarshall, type marshallOptions, type unmarshallOptions } from '@aws-sdk/util-dynamodb';

/** The raw client the commands are sent through, and the document client's translate options. */
export interface DirectTarget {
  raw: DynamoDBClient;
  marshall: marshallOptions;
  unmarshall: unmarshallOptions;
}

let target: (() => DirectTarget) | undefined;

/** Where direct commands go (functions/adapters/dynamodb/client.ts registers its clients). */
export function directTarget(get: () => DirectTarget): void {
  target = get;
}

// lib-dynamodb's key nodes: null = this value itself, {} = every member of it, {'*': n} = every member at the next level
// with n, {k: n} = the member k with n (others copied as they are).
type KeyNodes = Record<string, unknown> | null;

function processObj(obj: unknown, fn: (v: unknown) => unknown, nodes: KeyNodes): unknown {
  if (obj === undefined) return undefined;
  if (nodes == null) return fn(obj);
  const keys = Object.keys(nodes);
  if (keys.length === 1 && keys[0] === '*') {
    const acc: Record<string, unknown> | unknown[] = Array.isArray(obj) ? [] : {};
    for (const [k, v] of Object.entries(obj ?? {}))
      if (typeof v !== 'function') (acc as Record<string, unknown>)[k] = processObj(v, fn, nodes['*'] as KeyNodes);
    return acc;
  }
  if (keys.length === 0) return processAll(obj, fn);
  return processKeys(obj as Record<string, unknown>, fn, nodes);
}

function processKeys(obj: Record<string, unknown>, fn: (v: unknown) => unknown, nodes: Record<string, unknown>): unknown {
  let acc: Record<string, unknown> | unknown[];
  if (Array.isArray(obj)) acc = obj.filter((item) => typeof item !== 'function');
  else {
    acc = {};
    for (const [k, v] of Object.entries(obj)) if (typeof v !== 'function') acc[k] = v;
  }
  for (const [key, child] of Object.entries(nodes)) {
    if (typeof obj[key] === 'function') continue;
    const value = processObj(obj[key], fn, child as KeyNodes);
    if (value !== undefined && typeof value !== 'function') (acc as Record<string, unknown>)[key] = value;
  }
  return acc;
}

function processAll(obj: unknown, fn: (v: unknown) => unknown): unknown {
  if (Array.isArray(obj)) return obj.filter((item) => typeof item !== 'function').map((item) => processObj(item, fn, null));
  const acc: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(obj as Record<string, unknown>)) {
    if (typeof v === 'function') continue;
    const value = processObj(v, fn, null);
    if (value !== undefined && typeof value !== 'function') acc[key] = value;
  }
  return acc;
}

/** What a lib-dynamodb command holds: its input, key nodes and the DynamoDB command it wraps (all protected there). */
interface DocCommandParts {
  input: object;
  inputKeyNodes: Record<string, unknown>;
  outputKeyNodes: Record<string, unknown>;
  clientCommand: { constructor: new (input: never) => object };
}

type Handler = (command: object) => Promise<{ output: unknown }>;
interface RawCommand {
  resolveMiddleware(stack: unknown, config: unknown, options: undefined): Handler;
}

/** Each raw client's resolved handlers, per DynamoDB command class. */
const resolved = new WeakMap<DynamoDBClient, Map<unknown, Handler>>();

async function sendDirect(cmd: DocCommandParts): Promise<unknown> {
  if (!target) throw new Error('direct DynamoDB commands have no client registered');
  const t = target();
  const m = { ...t.marshall, convertTopLevelContainer: t.marshall.convertTopLevelContainer ?? true };
  const u = { ...t.unmarshall, convertWithoutMapWrapper: t.unmarshall.convertWithoutMapWrapper ?? true };
  const input = processKeys(cmd.input as Record<string, unknown>, (v) => marshall(v as never, m), cmd.inputKeyNodes);
  const Raw = cmd.clientCommand.constructor;
  const raw = new Raw(input as never) as RawCommand;
  let handlers = resolved.get(t.raw);
  if (!handlers) resolved.set(t.raw, (handlers = new Map()));
  let handler = handlers.get(Raw);
  if (!handler) handlers.set(Raw, (handler = raw.resolveMiddleware(t.raw.middlewareStack, t.raw.config, undefined)));
  const { output } = await handler(raw);
  return processKeys(output as Record<string, unknown>, (v) => unmarshall(v as never, u), cmd.outputKeyNodes);
}

/** resolveMiddleware of a direct command: the handler Client.send calls with the command it sends. */
function directHandler(): (command: unknown) => Promise<{ output: never; response: unknown }> {
  return async (command) => ({ output: (await sendDirect(command as DocCommandParts)) as never, response: undefined });
}

export class GetCommand extends DocGet {
  override resolveMiddleware() {
    return directHandler();
  }
}
export class PutCommand extends DocPut {
  override resolveMiddleware() {
    return directHandler();
  }
}
export class UpdateCommand extends DocUpdate {
  override resolveMiddleware() {
    return directHandler();
  }
}
export class DeleteCommand extends DocDelete {
  override resolveMiddleware() {
    return directHandler();
  }
}
export class QueryCommand extends DocQuery {
  override resolveMiddleware() {
    return directHandler();
  }
}
export class ScanCommand extends DocScan {
  override resolveMiddleware() {
    return directHandler();
  }
}
export class BatchGetCommand extends DocBatchGet {
  override resolveMiddleware() {
    return directHandler();
  }
}
export class BatchWriteCommand extends DocBatchWrite {
  override resolveMiddleware() {
    return directHandler();
  }
}

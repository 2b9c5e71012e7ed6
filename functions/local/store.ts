// The embedded DynamoDB-compatible store (dynalite), persisted under a folder or kept in memory; the table comes from
// lib/table.ts. It listens on loopback and answers only requests carrying its per-start secret (store-guard.js); the
// process that started it also reaches it without HTTP (`call`, store-calls.js).
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { StoreCall } from '../adapters/dynamodb/store-calls';
import { tightenTree } from './private-files';

// dynalite ships no types; the guard is plain JavaScript, shared with the store child.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const dynalite = require('dynalite') as (opts: Record<string, unknown>) => Server;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { guardStore } = require('./store-guard') as { guardStore: (server: Server, secret: string) => Server };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { keepParsedConditions } = require('./store-expressions') as { keepParsedConditions: () => unknown };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { answerCall, withStore } = require('./store-calls') as {
  answerCall: (store: unknown, target: string, body: string) => Promise<{ status: number; body: string }>;
  withStore: (start: () => Server) => { server: Server; store: unknown };
};

export interface EmbeddedStore {
  endpoint: string;
  /** The per-start secret every request must carry (64 hex digits; see storeSecretEnv in adapters/dynamodb/client.ts). */
  secret: string;
  /** The calls of the process that started the store, without HTTP (useEmbeddedStoreCalls in adapters/dynamodb/store-calls.ts). */
  call: StoreCall;
  close(): Promise<void>;
}

export interface EmbeddedStoreOptions {
  /** LevelDB folder that persists the data (made private: 0700 folders, 0600 files); omit it for memory only. */
  path?: string;
  port?: number;
  host?: string;
  /** Run dynalite in a child process (its own core) instead of this one. Default false. */
  childProcess?: boolean;
}

/** Starts dynalite on loopback, in this process or in a child process, behind a secret of its own. */
export async function startEmbeddedStore(opts: EmbeddedStoreOptions = {}): Promise<EmbeddedStore> {
  if (opts.path) {
    mkdirSync(opts.path, { recursive: true, mode: 0o700 });
    tightenTree(opts.path);
  }
  const secret = randomBytes(32).toString('hex');
  if (opts.childProcess) return startChildStore(opts, secret);
  keepParsedConditions();
  const started = withStore(() => dynalite({ path: opts.path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 }));
  const server = guardStore(started.server, secret);
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://${host}:${port}`,
    secret,
    call: (target, body) => answerCall(started.store, target, body),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function startChildStore(opts: EmbeddedStoreOptions, secret: string): Promise<EmbeddedStore> {
  const host = opts.host ?? '127.0.0.1';
  const child = fork(join(__dirname, 'store-child.js'), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // Nothing of the service's own flags but a CPU profile (`--cpu-prof --cpu-prof-dir=<dir>`), which the store then writes too.
    execArgv: process.execArgv.filter((a) => a === '--cpu-prof' || a.startsWith('--cpu-prof-dir=')),
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m: { port?: number; error?: string }) => (m.port ? resolve(m.port) : reject(new Error(`embedded store: ${m.error}`))));
    child.once('exit', (code) => reject(new Error(`embedded store exited with code ${code}`)));
    // Over the IPC channel: a command line is readable by every local user.
    child.send({ path: opts.path, port: opts.port, host, secret });
  });
  return {
    endpoint: `http://${host}:${port}`,
    secret,
    call: childCalls(child),
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.send('close');
      }),
  };
}

/**
 * Calls to the store child over its IPC channel: `[id, target, body]` out, `[id, status, body]` back (store-child.js).
 * Calls in flight when the child exits, and calls after, fail with ECONNRESET, which the SDK retries as it would a
 * dropped connection, then reports.
 */
function childCalls(child: ChildProcess): StoreCall {
  const pending = new Map<number, { resolve: (a: { status: number; body: string }) => void; reject: (e: Error) => void }>();
  let next = 0;
  const gone = () => Object.assign(new Error('the embedded store process is gone'), { code: 'ECONNRESET' });
  child.on('message', (m: unknown) => {
    if (!Array.isArray(m)) return;
    const waiting = pending.get(m[0] as number);
    if (!waiting) return;
    pending.delete(m[0] as number);
    waiting.resolve({ status: m[1] as number, body: m[2] as string });
  });
  child.on('exit', () => {
    for (const waiting of pending.values()) waiting.reject(gone());
    pending.clear();
  });
  return (target, body) =>
    new Promise((resolve, reject) => {
      if (!child.connected) return reject(gone());
      const id = ++next;
      pending.set(id, { resolve, reject });
      child.send([id, target, body]);
    });
}

export { ensureTable, localDynamoClient } from '../adapters/dynamodb/table-admin';

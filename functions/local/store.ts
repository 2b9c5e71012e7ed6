// The embedded DynamoDB-compatible store (dynalite), persisted under a folder or kept in memory; the table comes from
// lib/table.ts. It listens on loopback and answers only requests carrying its per-start secret (store-guard.js).
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { tightenTree } from './private-files';

// dynalite ships no types; the guard is plain JavaScript, shared with the store child.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const dynalite = require('dynalite') as (opts: Record<string, unknown>) => Server;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { guardStore } = require('./store-guard') as { guardStore: (server: Server, secret: string) => Server };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { keepParsedConditions } = require('./store-expressions') as { keepParsedConditions: () => unknown };

export interface EmbeddedStore {
  endpoint: string;
  /** The per-start secret every request must carry (64 hex digits; see storeSecretEnv in adapters/dynamodb/client.ts). */
  secret: string;
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
  const server = guardStore(dynalite({ path: opts.path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 }), secret);
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://${host}:${port}`,
    secret,
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
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.send('close');
      }),
  };
}

export { ensureTable, localDynamoClient } from '../adapters/dynamodb/table-admin';

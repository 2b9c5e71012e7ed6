// The embedded DynamoDB-compatible store (dynalite), persisted under a folder or kept in memory; the table comes from lib/table.ts.
import { fork } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';

// dynalite ships no types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const dynalite = require('dynalite') as (opts: Record<string, unknown>) => import('node:http').Server;

export interface EmbeddedStore {
  endpoint: string;
  close(): Promise<void>;
}

export interface EmbeddedStoreOptions {
  /** LevelDB folder that persists the data; omit it for memory only. */
  path?: string;
  port?: number;
  host?: string;
  /** Run dynalite in a child process (its own core) instead of this one. Default false. */
  childProcess?: boolean;
}

/** Starts dynalite on loopback, in this process or in a child process. */
export async function startEmbeddedStore(opts: EmbeddedStoreOptions = {}): Promise<EmbeddedStore> {
  if (opts.path) mkdirSync(opts.path, { recursive: true });
  if (opts.childProcess) return startChildStore(opts);
  const server = dynalite({ path: opts.path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}

async function startChildStore(opts: EmbeddedStoreOptions): Promise<EmbeddedStore> {
  const host = opts.host ?? '127.0.0.1';
  const child = fork(join(__dirname, 'store-child.js'), [JSON.stringify({ path: opts.path, port: opts.port, host })], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: [],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m: { port?: number; error?: string }) => (m.port ? resolve(m.port) : reject(new Error(`embedded store: ${m.error}`))));
    child.once('exit', (code) => reject(new Error(`embedded store exited with code ${code}`)));
  });
  return {
    endpoint: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.send('close');
      }),
  };
}

export { ensureTable, localDynamoClient } from '../adapters/dynamodb/table-admin';

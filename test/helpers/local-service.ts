// Starts the whole local service in-process (in-memory store, ephemeral port) and offers a small HTTP client for tests;
// in parity mode (RTS_TEST_DYNAMODB_ENDPOINT set, see test/parity/run.ts) the service uses a table on that external store.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startLocalService, type LocalService, type LocalServiceOptions } from '../../functions/local/server';
import { deleteTestTable, externalStoreEndpoint, uniqueTableName } from './dynalite';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface TestService extends LocalService {
  /** Authenticated request with this service's credentials (override headers to test auth). */
  api<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse<T>>;
  /** Raw request: body sent as given (string/Buffer), no default headers besides those passed. */
  raw<T = any>(method: string, path: string, init?: { body?: string | Buffer; headers?: Record<string, string> }): Promise<ApiResponse<T>>;
  authHeaders: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * The external store and table of a service in parity mode, or undefined (embedded dynalite). A service on a data
 * folder it persists to gets a table named after that folder, kept on stop, so a restart on the same folder finds its
 * records as it would in the folder's own store (a table the caller names is kept too); any other service gets a table
 * of its own, deleted on stop.
 */
function parityStore(opts: LocalServiceOptions, dataDir: string): { endpoint: string; tableName: string; keep: boolean } | undefined {
  const endpoint = externalStoreEndpoint();
  if (!endpoint || opts.dynamodbEndpoint) return undefined;
  if (opts.tableName) return { endpoint, tableName: opts.tableName, keep: true };
  if (opts.inMemory === false)
    return { endpoint, tableName: `rts-test-${createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 16)}`, keep: true };
  return { endpoint, tableName: uniqueTableName(), keep: false };
}

export async function startTestService(opts: LocalServiceOptions = {}): Promise<TestService> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'rts-test-'));
  process.env.POWERTOOLS_LOG_LEVEL = process.env.POWERTOOLS_LOG_LEVEL ?? 'ERROR';
  delete process.env.RTS_PUBLIC_URL;
  const parity = parityStore(opts, dataDir);
  const service = await startLocalService({
    host: '127.0.0.1',
    port: 0,
    inMemory: opts.inMemory ?? true,
    dataDir,
    writeCredentials: opts.writeCredentials ?? true,
    queue: { redeliveryDelayMs: 50, ...opts.queue },
    ...(parity ? { dynamodbEndpoint: parity.endpoint, tableName: parity.tableName } : {}),
    ...opts,
  }).catch(async (err) => {
    if (parity && !parity.keep) await deleteTestTable(parity.endpoint, parity.tableName).catch(() => undefined);
    throw err;
  });
  const authHeaders = { 'X-API-Key': service.apiKey, 'X-Project-Id': service.projectId };

  async function raw<T>(
    method: string,
    path: string,
    init: { body?: string | Buffer; headers?: Record<string, string> } = {},
  ): Promise<ApiResponse<T>> {
    const res = await fetch(service.url + path, { method, headers: init.headers, body: init.body });
    const text = await res.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    return { status: res.status, headers: res.headers, body: body as T, text };
  }

  return {
    ...service,
    authHeaders,
    raw,
    api: <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      raw<T>(method, path, {
        body: body === undefined ? undefined : JSON.stringify(body),
        headers: { ...authHeaders, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
      }),
    async stop() {
      await service.close();
      if (parity && !parity.keep) await deleteTestTable(parity.endpoint, parity.tableName);
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

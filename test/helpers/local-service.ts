// Starts the whole local service in-process (in-memory store, ephemeral port) and offers a small HTTP client for tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalService, type LocalService, type LocalServiceOptions } from '../../functions/local/server';

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

export async function startTestService(opts: LocalServiceOptions = {}): Promise<TestService> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'rts-test-'));
  process.env.POWERTOOLS_LOG_LEVEL = process.env.POWERTOOLS_LOG_LEVEL ?? 'ERROR';
  delete process.env.RTS_PUBLIC_URL;
  const service = await startLocalService({
    host: '127.0.0.1',
    port: 0,
    inMemory: opts.inMemory ?? true,
    dataDir,
    writeCredentials: opts.writeCredentials ?? true,
    queue: { redeliveryDelayMs: 50, ...opts.queue },
    ...opts,
  });
  const authHeaders = { 'X-API-Key': service.apiKey, 'X-Project-Id': service.projectId };

  async function raw<T>(method: string, path: string, init: { body?: string | Buffer; headers?: Record<string, string> } = {}): Promise<ApiResponse<T>> {
    const res = await fetch(service.url + path, { method, headers: init.headers, body: init.body });
    const text = await res.text();
    let body: unknown = undefined;
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
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

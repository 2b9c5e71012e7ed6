// The whole service on one machine: embedded store, gateway, in-process queue and bus, bootstrap credentials.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type { Context, EventBridgeEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { routes, workerHandlers } from '../../lib/routes';
import { createProject, hashApiKey } from '../core/auth';
import type { BusEvent } from '../core/events';
import { isApiKeyShape, isUuid } from '../core/ids';
import { systemClock } from '../core/time';
import { resetAwsClients } from '../adapters/aws';
import { STORE_SECRET_ENV } from '../adapters/dynamodb/client';
import { useEmbeddedStoreCalls } from '../adapters/dynamodb/store-calls';
import { DynamoRunsRepo } from '../adapters/dynamodb/runs-repo';
import { processLimiter } from '../core/replay/limits/process-limiter';
import { configureDeps, getDeps, resetDeps } from '../wiring/deps';
import { InProcessBus } from './bus';
import { createGateway, loadHandler, rateLimitFromEnv, type GatewayOptions } from './gateway';
import type { AdaptiveLimitOptions } from './adaptive-limit';
import { InProcessQueue } from './queue';
import { lockDataDir, waitForStoreUnlocked } from './data-lock';
import { makeDataDirPrivate, privateUmask } from './private-files';
import { ensureTable, startEmbeddedStore, type EmbeddedStore } from './store';

export interface LocalServiceOptions {
  host?: string;
  /** 0 = ephemeral. */
  port?: number;
  dataDir?: string;
  inMemory?: boolean;
  tableName?: string;
  /** External DynamoDB-compatible endpoint instead of the embedded store. */
  dynamodbEndpoint?: string;
  bootstrapProjectId?: string;
  bootstrapApiKey?: string;
  /** Write <dataDir>/credentials.json. Default true. */
  writeCredentials?: boolean;
  /**
   * Load every handler module right after the start, in the background (default false): the first requests and runs
   * then find their code loaded, as a warm Lambda would, instead of paying for it in the first batch. `rts serve` sets it.
   */
  preloadHandlers?: boolean;
  /**
   * Queue settings; concurrency omitted = RTS_WORKER_CONCURRENCY, else adaptive (see local/adaptive-limit.ts);
   * runDeadlineMs omitted = RTS_RUN_DEADLINE_MS.
   */
  queue?: { concurrency?: number; adaptive?: AdaptiveLimitOptions; maxReceives?: number; redeliveryDelayMs?: number; runDeadlineMs?: number };
  gateway?: GatewayOptions;
  /** Run webhook deliveries for bus events. Default true. */
  deliverWebhooks?: boolean;
  /** Run the embedded store in a child process (a core of its own). Default false; `rts serve` turns it on. */
  storeInChildProcess?: boolean;
}

export interface LocalService {
  url: string;
  projectId: string;
  apiKey: string;
  tableName: string;
  dynamodbEndpoint: string;
  /** The embedded store's per-start secret (undefined with an external endpoint). */
  storeSecret?: string;
  dataDir: string;
  queue: InProcessQueue;
  bus: InProcessBus;
  /** Waits until the queue and the bus are idle. */
  idle(): Promise<void>;
  /**
   * Stops the service. Runs in flight are waited for, at most `abandonAfterMs` (default: until they end); past it they
   * are abandoned like a crash abandons them, and the next start resumes them from their stored attempts.
   */
  close(opts?: { abandonAfterMs?: number }): Promise<void>;
}

export interface Credentials {
  base_url: string;
  project_id: string;
  api_key: string;
}

export interface StoreInfo {
  endpoint: string;
  table: string;
  /** The embedded store's secret, for `rts admin` (the file is 0600 in a 0700 folder). */
  secret?: string;
}

function readJson<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** The bootstrap pair when given, else the pair this folder already holds, else a new project and key. */
async function bootstrapCredentials(
  wantedProject: string | undefined,
  wantedKey: string | undefined,
): Promise<{ projectId: string; apiKey: string }> {
  const deps = getDeps();
  const existingKey = wantedKey && isApiKeyShape(wantedKey) ? await deps.projects.findApiKeyByHash(hashApiKey(wantedKey)) : null;
  if (existingKey && !existingKey.revoked_at && (!wantedProject || existingKey.project_id === wantedProject)) {
    return { projectId: existingKey.project_id, apiKey: wantedKey! };
  }
  const issued = await createProject(
    { projects: deps.projects, clock: systemClock },
    {
      name: 'local',
      projectId: wantedProject && isUuid(wantedProject) ? wantedProject : undefined,
      apiKey: wantedKey && isApiKeyShape(wantedKey) ? wantedKey : undefined,
    },
  );
  return { projectId: issued.project_id, apiKey: issued.api_key };
}

/**
 * Loads every route, worker and event handler module, one per turn of the event loop so requests arriving meanwhile
 * are served; resolves with how many were loaded. A module that fails to load is left for its first request to report.
 */
export async function preloadHandlers(): Promise<number> {
  const modules = [...new Set([...routes.map((r) => `functions/http/${r.handler}`), ...Object.values(workerHandlers)])];
  let loaded = 0;
  for (const m of modules) {
    await new Promise((r) => setImmediate(r));
    try {
      loadHandler(m);
      loaded++;
    } catch {
      // reported by the request that needs it
    }
  }
  return loaded;
}

/** RTS_WORKER_CONCURRENCY: a positive whole number fixes how many runs the local queue works on at once; else adaptive. */
export function workerConcurrencyFromEnv(): number | undefined {
  const raw = process.env.RTS_WORKER_CONCURRENCY;
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new Error(`RTS_WORKER_CONCURRENCY must be a whole number from 1 to 1000, got "${raw}"`);
  return n;
}

export async function startLocalService(opts: LocalServiceOptions = {}): Promise<LocalService> {
  const host = opts.host ?? process.env.RTS_HOST ?? '127.0.0.1';
  const port = opts.port ?? Number(process.env.RTS_PORT ?? 8787);
  const dataDir = resolve(opts.dataDir ?? process.env.RTS_DATA_DIR ?? '.rts');
  const inMemory = opts.inMemory ?? process.env.RTS_IN_MEMORY === 'true';
  const tableName = opts.tableName ?? process.env.TABLE_NAME ?? 'rts-local';
  const external = opts.dynamodbEndpoint ?? process.env.DYNAMODB_ENDPOINT;
  // The folder holds the store (every key hash and webhook secret) and the credentials: its owner's only, as is every
  // file this process creates while it runs (the lock, the pid, the in-process store's files).
  const restoreUmask = privateUmask();
  makeDataDirPrivate(dataDir);

  // Whatever started before a failure (port in use, store locked by another instance) is stopped again,
  // so a failed start exits instead of hanging on a child process.
  const cleanup: (() => Promise<void> | void)[] = [restoreUmask];
  try {
    let store: EmbeddedStore | undefined;
    let lockRelease: (() => Promise<void>) | undefined;
    const persisted = !external && !inMemory;
    if (persisted) {
      const lock = await lockDataDir(dataDir);
      lockRelease = () => lock.release();
      cleanup.push(lockRelease);
      // The store of a service killed a moment ago may still be on its way out: wait for its files.
      await waitForStoreUnlocked(join(dataDir, 'store'));
    }
    if (!external) {
      store = await startEmbeddedStore({
        path: inMemory ? undefined : join(dataDir, 'store'),
        host: '127.0.0.1',
        childProcess: opts.storeInChildProcess,
      });
      cleanup.push(() => store?.close());
    }
    const endpoint = external ?? store!.endpoint;
    // Another store is reached with the secret the environment gives for it, if any (an embedded store started
    // elsewhere in this process); stores that check none ignore it.
    const storeSecret = external ? process.env[STORE_SECRET_ENV] : store!.secret;

    // The handlers read their configuration from the environment, as in Lambda; it is restored on close.
    const savedEnv = Object.fromEntries(['DYNAMODB_ENDPOINT', STORE_SECRET_ENV, 'TABLE_NAME', 'RTS_PUBLIC_URL'].map((k) => [k, process.env[k]]));
    const restoreEnv = () => {
      for (const [k, v] of Object.entries(savedEnv)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      useEmbeddedStoreCalls();
      resetAwsClients();
    };
    cleanup.push(restoreEnv);
    process.env.DYNAMODB_ENDPOINT = endpoint;
    if (storeSecret) process.env[STORE_SECRET_ENV] = storeSecret;
    else delete process.env[STORE_SECRET_ENV];
    process.env.TABLE_NAME = tableName;
    process.env.AWS_REGION ??= 'local';
    process.env.RTS_ALLOW_PRIVATE_TARGETS ??= 'true';
    process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
    // This process's own calls reach the embedded store without HTTP; other processes use its endpoint and secret.
    useEmbeddedStoreCalls(store?.endpoint, store?.call);
    resetAwsClients();
    await ensureTable(endpoint, tableName, storeSecret);

    type SqsHandler = (e: SQSEvent, c: Context) => Promise<SQSBatchResponse | void>;
    const queue = new InProcessQueue({
      worker: () => loadHandler<SqsHandler>(workerHandlers.replayWorker),
      deadLetter: () => loadHandler<SqsHandler>(workerHandlers.deadLetter),
      concurrency: workerConcurrencyFromEnv(),
      ...opts.queue,
    });
    const bus = new InProcessBus(
      opts.deliverWebhooks === false
        ? {}
        : { target: () => loadHandler<(e: EventBridgeEvent<string, BusEvent>, c: Context) => Promise<unknown>>(workerHandlers.webhookDelivery) },
    );
    resetDeps();
    // Targets' limits in process: every run of this service shares them (docs/campaigns-and-replay.md#limits-and-429).
    configureDeps({ queue, events: bus, limiter: processLimiter() });

    // Ready before reachable: the bootstrap project and key exist before the port accepts a connection, so /health
    // answering 200 means every route answers, and the printed key works from the first request.
    const credPath = join(dataDir, 'credentials.json');
    const saved = inMemory ? undefined : readJson<Credentials>(credPath);
    const { projectId, apiKey } = await bootstrapCredentials(
      opts.bootstrapProjectId ?? process.env.RTS_BOOTSTRAP_PROJECT_ID ?? saved?.project_id,
      opts.bootstrapApiKey ?? process.env.RTS_BOOTSTRAP_API_KEY ?? saved?.api_key,
    );

    const server = createGateway({ rateLimit: rateLimitFromEnv(), ...opts.gateway });
    cleanup.push(() => queue.close());
    await new Promise<void>((res, rej) => {
      server.once('error', rej);
      server.listen(port, host, () => res());
    });
    cleanup.push(() => new Promise<void>((res) => server.close(() => res())));
    const actualPort = (server.address() as AddressInfo).port;
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`;
    if (!process.env.RTS_PUBLIC_URL) process.env.RTS_PUBLIC_URL = url;

    if (opts.writeCredentials !== false) {
      const creds: Credentials = { base_url: url, project_id: projectId, api_key: apiKey };
      writeFileSync(credPath, `${JSON.stringify(creds, null, 2)}\n`, { mode: 0o600 });
      chmodSync(credPath, 0o600);
      const info: StoreInfo = { endpoint, table: tableName, secret: storeSecret };
      writeFileSync(join(dataDir, 'store.json'), `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
    }

    // The in-process queue does not survive a stop: runs left queued or running are queued again (the worker resumes
    // them from their stored attempts), as SQS would have kept their messages. After listening: their links need the URL.
    const resumed = await new DynamoRunsRepo().listUnfinished();
    if (resumed.length) await queue.sendReplay(resumed);
    if (opts.preloadHandlers) void preloadHandlers();

    let closed = false;
    return {
      url,
      projectId,
      apiKey,
      tableName,
      dynamodbEndpoint: endpoint,
      storeSecret,
      dataDir,
      queue,
      bus,
      async idle() {
        for (let i = 0; i < 3; i++) {
          await queue.drain();
          await bus.drain();
        }
      },
      async close(closeOpts = {}) {
        if (closed) return;
        closed = true;
        await new Promise<void>((res) => {
          server.close(() => res());
          server.closeAllConnections();
        });
        await queue.close(closeOpts);
        await bus.close();
        if (store) await store.close();
        if (opts.writeCredentials !== false && existsSync(join(dataDir, 'store.json'))) {
          writeFileSync(join(dataDir, 'store.json'), `${JSON.stringify({ endpoint: null, table: tableName })}\n`, { mode: 0o600 });
        }
        resetDeps();
        restoreEnv();
        await lockRelease?.();
        restoreUmask();
      },
    };
  } catch (err) {
    for (const undo of cleanup.reverse()) await Promise.resolve(undo()).catch(() => undefined);
    throw err;
  }
}

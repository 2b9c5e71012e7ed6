// Wires the core to its adapters once per process. Repositories are always DynamoDB; the queue, the bus and outbound
// HTTP are registered by the few handlers that use them (import './with-queue' / './with-bus' / './with-http'), so the
// other functions neither bundle those clients nor could use them. The local runtime overrides queue and bus.
import type { Deps, EventPublisher, HttpSender, QueuePort } from '../ports';
import { newUuid } from '../core/ids';
import { realSleep } from '../core/retry';
import { systemClock } from '../core/time';
import { DynamoProjectsRepo } from '../adapters/dynamodb/projects-repo';
import { DynamoTracesRepo } from '../adapters/dynamodb/traces-repo';
import { DynamoCampaignsRepo } from '../adapters/dynamodb/campaigns-repo';
import { DynamoRunsRepo } from '../adapters/dynamodb/runs-repo';
import { DynamoIdempotencyRepo } from '../adapters/dynamodb/idempotency-repo';
import { DynamoBatchesRepo } from '../adapters/dynamodb/batches-repo';
import { DynamoWebhooksRepo } from '../adapters/dynamodb/webhooks-repo';
import { DynamoJudgeCacheRepo } from '../adapters/dynamodb/judge-cache-repo';
import { optionalEnv } from '../adapters/env';

let overrides: Partial<Deps> = {};
let cached: Deps | undefined;
const factories: { queue?: () => QueuePort; events?: () => EventPublisher; http?: () => HttpSender } = {};

/** Registers the adapter for the queue, the bus or outbound HTTP (called by with-queue.ts / with-bus.ts / with-http.ts). */
export function registerAdapter<K extends keyof typeof factories>(kind: K, factory: NonNullable<(typeof factories)[K]>): void {
  factories[kind] = factory;
  cached = undefined;
}

/** Replaces some collaborators (local runtime, tests); a key given as undefined restores the default; the next getDeps() rebuilds. */
export function configureDeps(o: Partial<Deps>): void {
  overrides = Object.fromEntries(Object.entries({ ...overrides, ...o }).filter(([, v]) => v !== undefined)) as Partial<Deps>;
  cached = undefined;
}

/** Drops overrides and cached adapters. */
export function resetDeps(): void {
  overrides = {};
  cached = undefined;
}

/** Public base URL of the API (RTS_PUBLIC_URL), used to build dashboard links. */
export function publicBaseUrl(): string {
  return (optionalEnv('RTS_PUBLIC_URL') ?? 'http://127.0.0.1:8787').replace(/\/+$/, '');
}

export function dashboardBase(): string {
  return (optionalEnv('RTS_DASHBOARD_URL') ?? `${publicBaseUrl()}/dashboard`).replace(/\/+$/, '');
}

function unwired(kind: 'queue' | 'bus' | 'http'): never {
  throw new Error(`this function has no ${kind} wired (import shared/with-${kind} in its handler)`);
}

export function getDeps(): Deps {
  if (!cached) {
    const queue = overrides.queue ?? (factories.queue ? factories.queue() : undefined);
    const events = overrides.events ?? (factories.events ? factories.events() : undefined);
    const http = overrides.http ?? (factories.http ? factories.http() : undefined);
    cached = {
      projects: new DynamoProjectsRepo(),
      traces: new DynamoTracesRepo(),
      campaigns: new DynamoCampaignsRepo(),
      runs: new DynamoRunsRepo(),
      idempotency: new DynamoIdempotencyRepo(),
      batches: new DynamoBatchesRepo(),
      webhooks: new DynamoWebhooksRepo(),
      judgeCache: new DynamoJudgeCacheRepo(),
      queue: queue ?? { sendReplay: async () => unwired('queue') },
      events: events ?? { publish: async () => unwired('bus') },
      clock: systemClock,
      uuid: newUuid,
      dashboardBase,
      http: http ?? (async () => unwired('http')),
      sleep: realSleep,
      ...overrides,
    };
  }
  return cached;
}

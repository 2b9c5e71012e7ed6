// Wires the core to its adapters once per process. Repositories are DynamoDB: from source (local service, CLI, tests)
// all of them; in a Lambda bundle only those its code reads, which bundling finds and registers with wireRepos() (see
// lib/constructs/bundling.ts), so a function does not carry the others. The queue, the bus and outbound HTTP are
// registered by with-queue.ts / with-bus.ts / with-http.ts: a route's bundle entry imports those its row names, a worker
// imports its own, so the other functions do not bundle those clients; and a route's code sees only those its row names
// (wiredDeps), in a bundle and from source alike. The local runtime overrides queue and bus.
import type { Deps, EventPublisher, HttpSender, QueuePort, Repos } from '../core/ports';
import type { Wiring } from '../core/route-row';
import { newUuid } from '../core/ids';
import { realSleep } from '../core/retry';
import { systemClock } from '../core/time';
import { optionalEnv } from '../adapters/env';
import type { RepoFactories } from './repos';

/** Every repository of Deps, by name. */
export const REPO_NAMES: readonly (keyof Repos)[] = [
  'projects',
  'traces',
  'campaigns',
  'runs',
  'idempotency',
  'batches',
  'webhooks',
  'deliveryLog',
  'judgeCache',
  'rateLimits',
  'leases',
  'cursorKeys',
  'mcpSessions',
];

/** true in a Lambda bundle (esbuild `define`, lib/constructs/bundling.ts); undeclared when running from source. */
declare const RTS_BUNDLED_REPOS: boolean | undefined;

/** The repositories wireRepos() registered: in a bundle, those its code reads. */
const wired: Partial<RepoFactories> = {};

/**
 * Every repository from source, the wired ones in a bundle. A require in a ternary, not an import: in a bundle esbuild
 * folds the ternary and drops the require, and with it the repositories the function does not read.
 */
function repoFactories(): Partial<RepoFactories> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return typeof RTS_BUNDLED_REPOS === 'boolean' ? wired : { ...(require('./repos') as RepoFactories), ...wired };
}

let overrides: Partial<Deps> = {};
let cached: Deps | undefined;
const factories: { queue?: () => QueuePort; events?: () => EventPublisher; http?: () => HttpSender } = {};

/** Registers the repositories a bundled function reads (called by the entry module bundling generates). */
export function wireRepos(factories: Partial<RepoFactories>): void {
  Object.assign(wired, factories);
  cached = undefined;
}

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
  // A route's row in lib/routes.ts names what it sends with; a worker imports wiring/with-<kind> itself.
  throw new Error(`this function has no ${kind} wired (its row's ${kind} flag, or wiring/with-${kind})`);
}

/** Stands in for a repository a bundle does not carry: any call fails, naming it (bundling wires what the code reads). */
function unwiredRepo(name: string): never {
  const fail = () => {
    throw new Error(`this function has no ${name} repository wired: bundling found no read of deps.${name} in its code`);
  };
  return new Proxy({}, { get: (_target, key) => (key === 'then' ? undefined : fail) }) as never;
}

function repos(): Repos {
  const factories = repoFactories();
  return Object.fromEntries(REPO_NAMES.map((name) => [name, factories[name]?.() ?? unwiredRepo(name)])) as unknown as Repos;
}

export function getDeps(): Deps {
  if (!cached) {
    const queue = overrides.queue ?? (factories.queue ? factories.queue() : undefined);
    const events = overrides.events ?? (factories.events ? factories.events() : undefined);
    const http = overrides.http ?? (factories.http ? factories.http() : undefined);
    cached = {
      ...repos(),
      queue: queue ?? { sendReplay: async () => unwired('queue') },
      events: events ?? { publish: async () => unwired('bus') },
      clock: systemClock,
      uuid: newUuid,
      dashboardBase,
      apiBase: publicBaseUrl,
      http: http ?? (async () => unwired('http')),
      sleep: realSleep,
      ...overrides,
    };
  }
  return cached;
}

/**
 * The deps a route's code sees (route() passes its row): the queue, the bus and outbound HTTP only where the row names
 * them, so a route missing a flag fails in a local test as it would in its bundle, which carries only those clients.
 */
export function wiredDeps(wiring: Wiring): Deps {
  return {
    ...getDeps(),
    ...(wiring.queue ? {} : { queue: { sendReplay: async () => unwired('queue') } }),
    ...(wiring.bus ? {} : { events: { publish: async () => unwired('bus') } }),
    ...(wiring.http ? {} : { http: async () => unwired('http') }),
  };
}

// Wires the core to its adapters once per process: DynamoDB repositories, SQS/EventBridge in the cloud;
// the local runtime swaps in its in-process queue and bus through configureDeps before serving.
import type { Deps } from '../ports';
import { newUuid } from '../core/ids';
import { systemClock } from '../core/time';
import { DynamoProjectsRepo } from '../adapters/dynamodb/projects-repo';
import { DynamoTracesRepo } from '../adapters/dynamodb/traces-repo';
import { DynamoCampaignsRepo } from '../adapters/dynamodb/campaigns-repo';
import { DynamoRunsRepo } from '../adapters/dynamodb/runs-repo';
import { DynamoIdempotencyRepo } from '../adapters/dynamodb/idempotency-repo';
import { SqsQueue } from '../adapters/sqs/sqs-queue';
import { EventBridgePublisher } from '../adapters/eventbridge/eventbridge-publisher';
import { createGuardedSender } from '../adapters/http/guarded-sender';
import { allowPrivateTargets, optionalEnv } from './env';

let overrides: Partial<Deps> = {};
let cached: Deps | undefined;

/** Replaces some collaborators (local runtime, tests); the next getDeps() rebuilds. */
export function configureDeps(o: Partial<Deps>): void {
  overrides = { ...overrides, ...o };
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

export function getDeps(): Deps {
  if (!cached) {
    cached = {
      projects: new DynamoProjectsRepo(),
      traces: new DynamoTracesRepo(),
      campaigns: new DynamoCampaignsRepo(),
      runs: new DynamoRunsRepo(),
      idempotency: new DynamoIdempotencyRepo(),
      queue: overrides.queue ?? new SqsQueue(),
      events: overrides.events ?? new EventBridgePublisher(),
      clock: systemClock,
      uuid: newUuid,
      dashboardBase,
      http: overrides.http ?? createGuardedSender({ allowPrivate: allowPrivateTargets() }),
      ...overrides,
    };
  }
  return cached;
}

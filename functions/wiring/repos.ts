// The repositories (DynamoDB, and the cursor key's sources), one factory per export: a Lambda bundle imports those its
// code reads and keeps only them (see wireRepos in deps.ts); from source, deps.ts takes them all.
import type { Repos } from '../core/ports';
import { DynamoBatchesRepo } from '../adapters/dynamodb/batches-repo';
import { DynamoCampaignsRepo } from '../adapters/dynamodb/campaigns-repo';
import { DynamoDeliveryLogRepo } from '../adapters/dynamodb/delivery-log-repo';
import { DynamoIdempotencyRepo } from '../adapters/dynamodb/idempotency-repo';
import { DynamoJudgeCacheRepo } from '../adapters/dynamodb/judge-cache-repo';
import { DynamoLeasesRepo } from '../adapters/dynamodb/leases-repo';
import { DynamoMcpSessionsRepo } from '../adapters/dynamodb/mcp-sessions-repo';
import { DynamoProjectsRepo } from '../adapters/dynamodb/projects-repo';
import { DynamoRateLimitsRepo } from '../adapters/dynamodb/rate-limits-repo';
import { DynamoRunsRepo } from '../adapters/dynamodb/runs-repo';
import { DynamoTracesRepo } from '../adapters/dynamodb/traces-repo';
import { DynamoWebhooksRepo } from '../adapters/dynamodb/webhooks-repo';
import { CursorKeys } from '../adapters/secrets/cursor-keys';

export type RepoFactories = { [K in keyof Repos]: () => Repos[K] };

export const projects = (): Repos['projects'] => new DynamoProjectsRepo();
export const traces = (): Repos['traces'] => new DynamoTracesRepo();
export const campaigns = (): Repos['campaigns'] => new DynamoCampaignsRepo();
export const runs = (): Repos['runs'] => new DynamoRunsRepo();
export const idempotency = (): Repos['idempotency'] => new DynamoIdempotencyRepo();
export const batches = (): Repos['batches'] => new DynamoBatchesRepo();
export const webhooks = (): Repos['webhooks'] => new DynamoWebhooksRepo();
export const deliveryLog = (): Repos['deliveryLog'] => new DynamoDeliveryLogRepo();
export const judgeCache = (): Repos['judgeCache'] => new DynamoJudgeCacheRepo();
export const rateLimits = (): Repos['rateLimits'] => new DynamoRateLimitsRepo();
export const leases = (): Repos['leases'] => new DynamoLeasesRepo();
export const mcpSessions = (): Repos['mcpSessions'] => new DynamoMcpSessionsRepo();
export const cursorKeys = (): Repos['cursorKeys'] => new CursorKeys();

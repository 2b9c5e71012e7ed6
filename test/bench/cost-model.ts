// The AWS bill of a measured workload (pure): billing units from counted operations, the stack's settings read from its
// synthesized template, and dollars at published on-demand prices. test/bench/cost.ts measures; this file only prices.

/** Published us-east-1 on-demand prices, in USD per unit, with where and when they were read. */
export interface Prices {
  region: string;
  /** When the figures were checked, and against what. */
  checked: string;
  source: string;
  dynamoWriteRequestUnit: number;
  dynamoReadRequestUnit: number;
  sqsRequest: number;
  lambdaRequest: number;
  lambdaGbSecond: { arm64: number; x86_64: number };
  eventBridgeEvent: number;
  apiGatewayRestRequest: number;
}

export const PRICES: Prices = {
  region: 'us-east-1',
  checked: '2026-11-23',
  source:
    'aws.amazon.com pricing pages (DynamoDB on-demand after the 2024-11 cut, SQS, Lambda, EventBridge, API Gateway), ' +
    'confirmed against stored copies of secondary summaries (2025-07 to 2026-06) and the AWS API Gateway whitepaper; ' +
    'the live pages were not reachable from this machine',
  dynamoWriteRequestUnit: 0.625 / 1e6,
  dynamoReadRequestUnit: 0.125 / 1e6,
  sqsRequest: 0.4 / 1e6,
  lambdaRequest: 0.2 / 1e6,
  lambdaGbSecond: { arm64: 0.0000133334, x86_64: 0.0000166667 },
  eventBridgeEvent: 1.0 / 1e6,
  apiGatewayRestRequest: 3.5 / 1e6,
};

const KIB = 1024;
/** SQS requests and EventBridge events are billed per 64 KB chunk of payload. */
export const PAYLOAD_CHUNK_BYTES = 64 * KIB;

/** Billed 64 KB chunks of one payload (a request or an event): at least 1. */
export function payloadChunks(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / PAYLOAD_CHUNK_BYTES));
}

/** Lambda bills each invocation's duration rounded up to the next ms (at least 1 ms). */
export function billedMs(ms: number): number {
  return Math.max(1, Math.ceil(ms));
}

/** Write request units of writing `bytes` (1 per KB, rounded up, at least 1). */
export function writeUnitsFor(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / KIB));
}

/** A global secondary index's entry for an item: its index key, its size, and a comparable image of its projection. */
export interface IndexEntry {
  key: string;
  bytes: number;
  image: string;
}

/**
 * Index write units of one table write for one GSI, from the item's entry in that index before and after (undefined:
 * not in the index): putting an entry in or deleting it costs 1 write of its size; a changed index key costs 2 (delete
 * the old entry, put the new); a change of projected attributes only costs 1; no change, or no entry either side, 0.
 * Each write is the entry's size rounded up to 1 KB (DynamoDB developer guide, "Provisioned throughput considerations
 * for global secondary indexes").
 */
export function indexWriteUnits(before: IndexEntry | undefined, after: IndexEntry | undefined): number {
  if (!before && !after) return 0;
  if (!before) return writeUnitsFor(after!.bytes);
  if (!after) return writeUnitsFor(before.bytes);
  if (before.key !== after.key) return writeUnitsFor(before.bytes) + writeUnitsFor(after.bytes);
  return before.image === after.image ? 0 : writeUnitsFor(after.bytes);
}

/**
 * Durations of the Lambda invocations that process `messageMs` (each message's own handler time, in the order they
 * were received) in batches of `batchSize`: `parallel` bills a batch as its longest message (Powertools' BatchProcessor
 * processes a batch's records concurrently), `serial` as their sum (the upper bound: records one after another).
 */
export function batchInvocations(messageMs: number[], batchSize: number, mode: 'parallel' | 'serial'): number[] {
  const out: number[] = [];
  for (let i = 0; i < messageMs.length; i += batchSize) {
    const batch = messageMs.slice(i, i + batchSize);
    out.push(mode === 'parallel' ? Math.max(...batch) : batch.reduce((a, b) => a + b, 0));
  }
  return out;
}

/** GB-seconds of invocations of `durationsMs` each on a function of `memoryMb`, each rounded up to 1 ms. */
export function gbSeconds(durationsMs: number[], memoryMb: number): number {
  const ms = durationsMs.reduce((sum, d) => sum + billedMs(d), 0);
  return (ms / 1000) * (memoryMb / 1024);
}

/** What the cost model needs from the deployed stack (read from its synthesized template). */
export interface StackFacts {
  architecture: 'arm64' | 'x86_64';
  /** Memory in MB of each function, by its Description (`rts GET /v1/ci/batch/{id}`, `rts replay worker`, ...). */
  memoryMb: Record<string, number>;
  /** Messages per replay worker invocation (the SQS event source's BatchSize). */
  workerBatchSize: number;
  /**
   * Worker invocations one project may hold at once (the worker's RTS_PROJECT_WORKER_SHARE; 0 when unset): each
   * invocation then takes a lease of the project's share and frees it (functions/core/replay/worker-share.ts).
   */
  workerShare: number;
  /** API Gateway's authorizer result cache, s. */
  authorizerCacheTtlS: number;
  /** The table's GSIs and their projection type. */
  gsis: { name: string; projection: string }[];
  tableBilling: string;
}

type Resource = { Type: string; Properties?: Record<string, any> };

/** The StackFacts of a synthesized template's resources. */
export function stackFactsFromTemplate(resources: Record<string, Resource>): StackFacts {
  const all = Object.entries(resources);
  const fns = all.filter(([, r]) => r.Type === 'AWS::Lambda::Function' && r.Properties?.Description);
  const memoryMb: Record<string, number> = {};
  const arch = new Set<string>();
  for (const [, fn] of fns) {
    memoryMb[fn.Properties!.Description] = fn.Properties!.MemorySize ?? 128;
    arch.add((fn.Properties!.Architectures ?? ['x86_64'])[0]);
  }
  if (arch.size !== 1) throw new Error(`functions on ${arch.size} architectures: ${[...arch].join(', ')}`);
  const workerId = fns.find(([, r]) => r.Properties!.Description === 'rts replay worker')?.[0];
  const mapping = all.find(
    ([, r]) => r.Type === 'AWS::Lambda::EventSourceMapping' && JSON.stringify(r.Properties?.FunctionName ?? '').includes(`"${workerId}"`),
  )?.[1];
  if (!workerId || !mapping) throw new Error('no replay worker with an SQS event source in the template');
  const share = resources[workerId].Properties!.Environment?.Variables?.RTS_PROJECT_WORKER_SHARE;
  const authorizer = all.find(([, r]) => r.Type === 'AWS::ApiGateway::Authorizer')?.[1];
  const table = all.find(([, r]) => r.Type === 'AWS::DynamoDB::Table')?.[1];
  return {
    architecture: [...arch][0] as StackFacts['architecture'],
    memoryMb,
    // CloudFormation's default batch size for SQS is 10.
    workerBatchSize: mapping.Properties!.BatchSize ?? 10,
    workerShare: share === undefined ? 0 : Number(share),
    // API Gateway's default authorizer cache is 300 s.
    authorizerCacheTtlS: authorizer?.Properties?.AuthorizerResultTtlInSeconds ?? 300,
    gsis: (table?.Properties?.GlobalSecondaryIndexes ?? []).map((g: { IndexName: string; Projection?: { ProjectionType?: string } }) => ({
      name: g.IndexName,
      projection: g.Projection?.ProjectionType ?? 'KEYS_ONLY',
    })),
    tableBilling: table?.Properties?.BillingMode ?? 'PROVISIONED',
  };
}

/** Lambda invocations of one function in the workload, as billed: one duration per invocation. */
export interface FunctionUse {
  /** Function description, as in StackFacts.memoryMb. */
  fn: string;
  memoryMb: number;
  invocationsMs: number[];
}

/** The counted operations of a workload, in the terms the bill uses. */
export interface Workload {
  /** Replay attempts the workload made (for the per-1,000-attempts column). */
  attempts: number;
  dynamo: {
    /** Calls per operation. */
    calls: Record<string, number>;
    /** Read request units (as the store reported them: 4 KB per unit, eventually consistent reads half). */
    readUnits: number;
    /** Table write request units the store reported (1 KB per unit, the larger of the old and new item). */
    writeUnits: number;
    /** GSI write request units (see indexWriteUnits). */
    indexWriteUnits: number;
    /** Conditional writes refused: DynamoDB still charges them (1 unit each is assumed: items under 1 KB). */
    conditionalCheckFailures: number;
  };
  sqs: {
    /** Payload bytes of each SendMessageBatch call (10 messages per call at most). */
    sendBatchBytes: number[];
    /** Payload bytes of each message received, in the order they were received (redeliveries included). */
    receivedBytes: number[];
    /** Messages processed successfully (deleted by the event source mapping, one DeleteMessageBatch per batch). */
    deleted: number;
    batchSize: number;
  };
  /** Size of each PutEvents entry (EventBridge's event size: Detail, DetailType, Source, Time). */
  eventBytes: number[];
  /** Requests API Gateway served (every one is billed, whatever its answer). */
  apiRequests: number;
  lambda: FunctionUse[];
  architecture: StackFacts['architecture'];
}

export interface CostLine {
  resource: string;
  /** What was counted (calls, messages, invocations, events, requests), as a short phrase. */
  counted: string;
  units: number;
  unit: string;
  usd: number;
  usdPer1kAttempts: number;
}

export interface CostReport {
  lines: CostLine[];
  totalUsd: number;
  totalUsdPer1kAttempts: number;
  prices: Prices;
  /** Billing units by kind, for docs/benchmarks.md. */
  units: {
    dynamoWriteRequestUnits: number;
    dynamoReadRequestUnits: number;
    sqsRequests: { send: number; receive: number; delete: number };
    lambdaRequests: number;
    lambdaGbSeconds: number;
    eventBridgeEvents: number;
    apiGatewayRequests: number;
  };
  /** GB-s and invocations per function. */
  lambdaByFunction: { fn: string; memoryMb: number; invocations: number; gbSeconds: number; usd: number }[];
}

const READ_OPS = new Set(['GetItem', 'Query', 'Scan', 'BatchGetItem']);
const WRITE_OPS = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem']);

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const n = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 1 });

/** SQS requests: each SendMessageBatch, ReceiveMessage (one per batch of received messages) and DeleteMessageBatch, per 64 KB. */
export function sqsRequests(sqs: Workload['sqs']): { send: number; receive: number; delete: number } {
  const send = sum(sqs.sendBatchBytes.map((element) => payloadChunks(element)));
  let receive = 0;
  for (let i = 0; i < sqs.receivedBytes.length; i += sqs.batchSize) receive += payloadChunks(sum(sqs.receivedBytes.slice(i, i + sqs.batchSize)));
  return { send, receive, delete: Math.ceil(sqs.deleted / sqs.batchSize) };
}

/** The bill of a workload at `prices`. */
export function priceWorkload(w: Workload, prices: Prices = PRICES): CostReport {
  const per1k = (usd: number) => (w.attempts > 0 ? (usd / w.attempts) * 1000 : 0);
  const line = (resource: string, counted: string, units: number, unit: string, usd: number): CostLine => ({
    resource,
    counted,
    units,
    unit,
    usd,
    usdPer1kAttempts: per1k(usd),
  });
  const calls = (ops: Set<string>) => sum(Object.entries(w.dynamo.calls).map(([op, n]) => (ops.has(op) ? n : 0)));

  const wru = w.dynamo.writeUnits + w.dynamo.indexWriteUnits + w.dynamo.conditionalCheckFailures;
  const rru = w.dynamo.readUnits;
  const sqs = sqsRequests(w.sqs);
  const sqsTotal = sqs.send + sqs.receive + sqs.delete;
  const events = sum(w.eventBytes.map((element) => payloadChunks(element)));
  const gbPrice = prices.lambdaGbSecond[w.architecture];
  const byFn = w.lambda.map((u) => {
    const gbs = gbSeconds(u.invocationsMs, u.memoryMb);
    return {
      fn: u.fn,
      memoryMb: u.memoryMb,
      invocations: u.invocationsMs.length,
      gbSeconds: gbs,
      usd: gbs * gbPrice + u.invocationsMs.length * prices.lambdaRequest,
    };
  });
  const invocations = sum(byFn.map((f) => f.invocations));
  const gbs = sum(byFn.map((f) => f.gbSeconds));

  const lines = [
    line(
      'DynamoDB writes',
      `${n(calls(WRITE_OPS))} calls`,
      wru,
      `WRU (table ${n(w.dynamo.writeUnits)} + GSI ${n(w.dynamo.indexWriteUnits)} + refused ${n(w.dynamo.conditionalCheckFailures)})`,
      wru * prices.dynamoWriteRequestUnit,
    ),
    line('DynamoDB reads', `${n(calls(READ_OPS))} calls`, rru, 'RRU', rru * prices.dynamoReadRequestUnit),
    line(
      'SQS',
      `${n(w.sqs.receivedBytes.length)} messages`,
      sqsTotal,
      `requests (send ${n(sqs.send)} + receive ${n(sqs.receive)} + delete ${n(sqs.delete)})`,
      sqsTotal * prices.sqsRequest,
    ),
    line('Lambda requests', `${n(invocations)} invocations`, invocations, 'requests', invocations * prices.lambdaRequest),
    line('Lambda duration', `${w.architecture}`, gbs, 'GB-s', gbs * gbPrice),
    line('EventBridge', `${n(w.eventBytes.length)} events`, events, 'events (64 KB)', events * prices.eventBridgeEvent),
    line('API Gateway (REST)', `${n(w.apiRequests)} requests`, w.apiRequests, 'requests', w.apiRequests * prices.apiGatewayRestRequest),
  ];
  const totalUsd = sum(lines.map((l) => l.usd));
  return {
    lines,
    totalUsd,
    totalUsdPer1kAttempts: per1k(totalUsd),
    prices,
    units: {
      dynamoWriteRequestUnits: wru,
      dynamoReadRequestUnits: rru,
      sqsRequests: sqs,
      lambdaRequests: invocations,
      lambdaGbSeconds: gbs,
      eventBridgeEvents: events,
      apiGatewayRequests: w.apiRequests,
    },
    lambdaByFunction: byFn,
  };
}

// The cost bench's pure model: billing units from counted operations (64 KB chunks, 1 ms rounding, GSI entry writes,
// event-source batches), the stack's settings from a template, and dollars at the stated prices.
import {
  PRICES,
  batchInvocations,
  billedMs,
  gbSeconds,
  indexWriteUnits,
  payloadChunks,
  priceWorkload,
  sqsRequests,
  stackFactsFromTemplate,
  writeUnitsFor,
  type Workload,
} from '../../bench/cost-model';

const KB = 1024;

describe('payloadChunks', () => {
  it('bills each started 64 KB of a payload, and at least one', () => {
    expect([0, 1, 64 * KB, 64 * KB + 1, 256 * KB, 256 * KB + 1].map((element) => payloadChunks(element))).toEqual([1, 1, 1, 2, 4, 5]);
  });
});

describe('billedMs', () => {
  it('rounds each invocation up to the next ms, at least 1 ms', () => {
    expect([0, 0.2, 1, 1.0001, 12.5, 300].map((element) => billedMs(element))).toEqual([1, 1, 1, 2, 13, 300]);
  });
});

describe('writeUnitsFor', () => {
  it('bills 1 KB per write unit, rounded up, at least one', () => {
    expect([0, 1, KB, KB + 1, 3.5 * KB].map((element) => writeUnitsFor(element))).toEqual([1, 1, 1, 2, 4]);
  });
});

describe('indexWriteUnits', () => {
  const entry = (key: string, bytes: number, image = `${key}:${bytes}`) => ({ key, bytes, image });

  it('costs nothing for an item in the index neither before nor after the write (sparse index)', () => {
    expect(indexWriteUnits(undefined, undefined)).toBe(0);
  });

  it('puts a new entry for its size, rounded up to 1 KB', () => {
    expect(indexWriteUnits(undefined, entry('a', 1.5 * KB))).toBe(2);
  });

  it('deletes an entry for the size of the old entry', () => {
    expect(indexWriteUnits(entry('a', 2.2 * KB), undefined)).toBe(3);
  });

  it('deletes and puts when the index key changes: two writes', () => {
    expect(indexWriteUnits(entry('a', 500), entry('b', 1.1 * KB))).toBe(1 + 2);
  });

  it('writes once when only projected attributes change', () => {
    expect(indexWriteUnits(entry('a', 500, 'v1'), entry('a', 1.7 * KB, 'v2'))).toBe(2);
  });

  it('writes nothing when the entry is unchanged', () => {
    expect(indexWriteUnits(entry('a', 900, 'same'), entry('a', 900, 'same'))).toBe(0);
  });
});

describe('batchInvocations', () => {
  const ms = [10, 30, 20, 5, 5, 1];

  it('bills a batch of records processed concurrently as its longest record', () => {
    expect(batchInvocations(ms, 5, 'parallel')).toEqual([30, 1]);
  });

  it('bills a batch of records processed one after another as their sum', () => {
    expect(batchInvocations(ms, 5, 'serial')).toEqual([70, 1]);
  });
});

describe('gbSeconds', () => {
  it('is the memory in GB times the billed seconds, each invocation rounded up to 1 ms', () => {
    expect(gbSeconds([0.3, 999.2], 1024)).toBeCloseTo(1.001, 9);
    expect(gbSeconds([0.3, 999.2], 512)).toBeCloseTo(0.5005, 9);
  });
});

describe('sqsRequests', () => {
  it('counts each SendMessageBatch per 64 KB, one receive per batch of received messages and one delete per batch', () => {
    const r = sqsRequests({ sendBatchBytes: [900, 70 * KB], receivedBytes: Array(12).fill(100), deleted: 11, batchSize: 5 });

    expect(r).toEqual({ send: 1 + 2, receive: 3, delete: 3 });
  });

  it('bills a receive of large messages per 64 KB of what it returns', () => {
    expect(sqsRequests({ sendBatchBytes: [], receivedBytes: [40 * KB, 40 * KB], deleted: 2, batchSize: 5 }).receive).toBe(2);
  });
});

describe('priceWorkload', () => {
  const workload: Workload = {
    attempts: 2000,
    dynamo: {
      calls: { PutItem: 300, UpdateItem: 100, GetItem: 50, Query: 25 },
      readUnits: 400_000,
      writeUnits: 700_000,
      indexWriteUnits: 250_000,
      conditionalCheckFailures: 50_000,
    },
    sqs: { sendBatchBytes: Array(100).fill(900), receivedBytes: Array(1000).fill(90), deleted: 1000, batchSize: 5 },
    eventBytes: [...Array(999).fill(600), 65 * KB],
    apiRequests: 20,
    lambda: [
      { fn: 'rts replay worker', memoryMb: 1024, invocationsMs: [999.5, 1000] },
      { fn: 'rts GET /v1/ci/batch/{batch_id}', memoryMb: 512, invocationsMs: [0.4] },
    ],
    architecture: 'arm64',
  };
  const report = priceWorkload(workload);
  const line = (name: string) => report.lines.find((l) => l.resource === name)!;

  it('prices table, GSI and refused writes as write request units', () => {
    expect(line('DynamoDB writes').units).toBe(1_000_000);
    expect(line('DynamoDB writes').usd).toBeCloseTo(0.625, 9);
    expect(line('DynamoDB reads').usd).toBeCloseTo(0.05, 9);
  });

  it('prices SQS requests, billed events and API requests', () => {
    expect(report.units.sqsRequests).toEqual({ send: 100, receive: 200, delete: 200 });
    expect(line('SQS').usd).toBeCloseTo(500 * 0.4e-6, 12);
    expect(report.units.eventBridgeEvents).toBe(999 + 2);
    expect(line('API Gateway (REST)').usd).toBeCloseTo(20 * 3.5e-6, 12);
  });

  it("prices Lambda requests and GB-s at the stack's architecture", () => {
    expect(report.units.lambdaRequests).toBe(3);
    expect(report.units.lambdaGbSeconds).toBeCloseTo(2 + 0.0005, 9);
    expect(line('Lambda duration').usd).toBeCloseTo(2.0005 * PRICES.lambdaGbSecond.arm64, 12);
    expect(priceWorkload({ ...workload, architecture: 'x86_64' }).lines.find((l) => l.resource === 'Lambda duration')!.usd).toBeCloseTo(
      2.0005 * PRICES.lambdaGbSecond.x86_64,
      12,
    );
  });

  it('totals the lines, and per 1,000 attempts', () => {
    const sum = report.lines.reduce((s, l) => s + l.usd, 0);

    expect(report.totalUsd).toBeCloseTo(sum, 12);
    expect(report.totalUsdPer1kAttempts).toBeCloseTo(sum / 2, 12);
  });
});

describe('stackFactsFromTemplate', () => {
  const fn = (Description: string, MemorySize: number) => ({
    Type: 'AWS::Lambda::Function',
    Properties: { Description, MemorySize, Architectures: ['arm64'] },
  });
  const resources = {
    Worker: {
      Type: 'AWS::Lambda::Function',
      Properties: {
        Description: 'rts replay worker',
        MemorySize: 1024,
        Architectures: ['arm64'],
        Environment: { Variables: { RTS_PROJECT_WORKER_SHARE: '15' } },
      },
    },
    Route: fn('rts GET /v1/ci/batch/{batch_id}', 512),
    Mapping: { Type: 'AWS::Lambda::EventSourceMapping', Properties: { BatchSize: 5, FunctionName: { Ref: 'Worker' } } },
    Other: { Type: 'AWS::Lambda::EventSourceMapping', Properties: { BatchSize: 10, FunctionName: { Ref: 'Route' } } },
    Auth: { Type: 'AWS::ApiGateway::Authorizer', Properties: { AuthorizerResultTtlInSeconds: 300 } },
    Table: {
      Type: 'AWS::DynamoDB::Table',
      Properties: { BillingMode: 'PAY_PER_REQUEST', GlobalSecondaryIndexes: [{ IndexName: 'gsi1', Projection: { ProjectionType: 'ALL' } }] },
    },
  };

  it("reads memory per function, the architecture, the worker's batch size and share, the authorizer cache and the GSIs", () => {
    expect(stackFactsFromTemplate(resources)).toEqual({
      architecture: 'arm64',
      memoryMb: { 'rts replay worker': 1024, 'rts GET /v1/ci/batch/{batch_id}': 512 },
      workerBatchSize: 5,
      workerShare: 15,
      authorizerCacheTtlS: 300,
      gsis: [{ name: 'gsi1', projection: 'ALL' }],
      tableBilling: 'PAY_PER_REQUEST',
    });
  });

  it('reads no share when the worker has none set', () => {
    const worker = { ...resources.Worker, Properties: { ...resources.Worker.Properties, Environment: { Variables: {} } } };

    expect(stackFactsFromTemplate({ ...resources, Worker: worker }).workerShare).toBe(0);
  });

  it('refuses a template without a replay worker event source', () => {
    const { Mapping: _m, ...without } = resources;

    expect(() => stackFactsFromTemplate(without)).toThrow(/event source/);
  });
});

// Bench of what a 1,000-trace CI batch costs in AWS: the local service runs the sample campaign's batch against the demo
// agent while `rts ci run` (the real CLI, in-process) submits it, polls it and lists its scenarios; every DynamoDB call,
// queue message, bus event, API request and handler invocation of that window is counted, turned into the billing units
// the cloud adapters would cause (cost-model.ts) and priced at published on-demand prices.
import './bench-env';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { workerHandlers } from '../../lib/routes';
import { resetAwsClients } from '../../functions/adapters/aws';
import { chunk } from '../../functions/adapters/batch-retry';
import { freshReadOptions } from '../../functions/adapters/dynamodb/fresh-read';
import { runCi } from '../../functions/cli/ci/command';
import { startDemoAgent } from '../../functions/cli/demo-agent/command';
import { campaignInputSchema, type Campaign } from '../../functions/core/campaigns/schema';
import type { BusEvent } from '../../functions/core/events';
import { planAttempts } from '../../functions/core/replay/plan';
import { releaseShares, takeShares } from '../../functions/core/replay/worker-share';
import { configureDeps, getDeps } from '../../functions/wiring/deps';
import { startTestService } from '../helpers/local-service';
import { api, seedTraces } from './ci';
import { addRepeated, countAwsCalls, countIndexWrites, stopCounting, takeCounts, totalCalls, type CallCounts } from './aws-counter';
import {
  batchInvocations,
  gbSeconds,
  priceWorkload,
  stackFactsFromTemplate,
  type CostReport,
  type FunctionUse,
  type StackFacts,
  type Workload,
} from './cost-model';
import { functionOf, routeOf, sqsBodyBytes, timeHandlers, type Invocation } from './cost-handlers';

export interface CostBenchOptions {
  /** Eval-set size. Default 1000 (the pool limit). */
  traces?: number;
  /**
   * Replay messages the local queue processes at once. Default: the stack's worker batch size, so a message shares the
   * process with about as many others as a record shares a worker invocation with in Lambda (records run concurrently).
   */
  concurrency?: number;
  /** `rts ci run --poll-interval`, s. Default 5 (the CLI's default). */
  pollIntervalS?: number;
  /** Give up after this long. Default 30 min. */
  timeoutMs?: number;
}

export interface CostBench {
  traces: number;
  attempts: number;
  concurrency: number;
  /** Submission (the CLI starting) to the CLI's exit with the queue and bus idle. */
  windowMs: number;
  cliExitCode: number;
  decision: string;
  stack: StackFacts;
  dynamo: CallCounts;
  /** How GSI write units were found: priced per item write in the in-process store, or a lower bound (1 per GSI write). */
  indexUnitsFrom: 'store' | 'lower bound';
  queue: { sent: number; received: number; failed: number; deadLettered: number; sendCalls: number };
  bus: { published: number; invocations: number; failed: number; putEventsCalls: number; byType: Record<string, number> };
  /** Agent requests the replays made (outbound HTTP from the worker). */
  agentCalls: number;
  /** API requests the CLI made, by `METHOD /route`. */
  apiRequests: Record<string, number>;
  /** Replay worker GB-s if a batch's records ran one after another (the upper bound of the parallel figure). */
  workerGbSecondsSerial: number;
  /**
   * The project's worker-share lease each worker invocation takes and frees in AWS (the stack's share; the local queue
   * takes turns itself and takes none): one take and release counted, then added once per worker invocation.
   */
  shareLeases: { slots: number; invocations: number; perInvocation: CallCounts } | null;
  workload: Workload;
  report: CostReport;
}

const ROOT = join(__dirname, '..', '..');

/** A PutEvents entry's size as EventBridge counts it (Source, DetailType, Detail, 14 bytes of Time). */
const eventEntryBytes = (e: BusEvent) =>
  Buffer.byteLength(JSON.stringify({ id: e.id, envelope: e.envelope })) + Buffer.byteLength(e.envelope.event_type) + Buffer.byteLength('rts') + 14;

/**
 * COST_CI_METADATA=github: the CLI runs as in GitHub Actions, so every run of the batch carries the pipeline's commit,
 * branch and URL (functions/cli/ci/env.ts); by default it runs outside a pipeline and sends none.
 */
function pipelineEnv(): Record<string, string> {
  if (process.env.COST_CI_METADATA !== 'github') return {};
  return {
    GITHUB_SHA: '3f2a9c1d7e8b4a5f6c0d1e2f3a4b5c6d7e8f9a0b',
    GITHUB_REF_NAME: 'feature/retry-tools',
    GITHUB_REPOSITORY: 'acme/support-agent',
    GITHUB_RUN_ID: '12345678901',
  };
}

export async function benchCost(opts: CostBenchOptions = {}): Promise<CostBench> {
  const traces = opts.traces ?? 1000;
  // The stack's settings (memory, architecture, batch size, GSIs) from its synthesized template, bundling off; loaded
  // here so `npm run bench` without `cost` does not load the CDK.
  const { buildStack } = await import('../infra/stack-fixture');
  const stack = stackFactsFromTemplate(buildStack().resources);
  const concurrency = opts.concurrency ?? stack.workerBatchSize;
  const pollIntervalS = opts.pollIntervalS ?? 5;

  countAwsCalls();
  countIndexWrites();
  resetAwsClients();
  // A Lambda container runs one delivery at a time, so no two fan-outs share a read of a project's webhooks there.
  freshReadOptions.share = false;
  const timing = timeHandlers();
  const requests: { method: string; path: string }[] = [];
  let recording = false;
  const record = (on: boolean) => {
    recording = on;
    timing.setRecording(on);
  };

  const agent = await startDemoAgent({ port: 0 });
  const svc = await startTestService({
    queue: { concurrency },
    gateway: { onRequest: (r) => recording && requests.push({ method: r.method, path: r.path }) },
  });
  try {
    // What the cloud adapters would send: SendMessageBatch calls of up to 10 bodies, PutEvents entries.
    const sendBatchBytes: number[] = [];
    let sendCalls = 0;
    const sendReplay = svc.queue.sendReplay.bind(svc.queue);
    svc.queue.sendReplay = async (messages) => {
      if (recording) {
        for (const batch of chunk(messages, 10)) {
          sendCalls++;
          sendBatchBytes.push(batch.reduce((s, m) => s + sqsBodyBytes(m), 0));
        }
      }
      return sendReplay(messages);
    };
    const eventBytes: number[] = [];
    let putEventsCalls = 0;
    const publish = svc.bus.publish.bind(svc.bus);
    svc.bus.publish = async (events) => {
      if (recording) putEventsCalls += chunk(events, 10, eventEntryBytes, 250 * 1024).length;
      return publish(events);
    };
    const byType: Record<string, number> = {};
    svc.bus.onEvent((e) => {
      if (!recording) return;
      eventBytes.push(eventEntryBytes(e));
      byType[e.envelope.event_type] = (byType[e.envelope.event_type] ?? 0) + 1;
    });

    const campaign = JSON.parse(readFileSync(join(ROOT, 'samples', 'campaign.json'), 'utf8'));
    campaign.target.url = agent.url;
    const traceIds = await seedTraces(svc.projectId, traces);
    const { campaign_id } = await api(svc, 'POST', '/v1/campaigns', campaign);
    for (let i = 0; i < traceIds.length; i += 1000)
      await api(svc, 'PATCH', `/v1/campaigns/${campaign_id}/eval-set`, { add_trace_ids: traceIds.slice(i, i + 1000) });

    const cli = async (campaignId: string, pollS: number) => {
      const sink = { write: () => true };
      const env = { RTS_API_URL: svc.url, RTS_API_KEY: svc.apiKey, RTS_PROJECT_ID: svc.projectId, ...pipelineEnv() };
      const args = ['run', '--campaign', campaignId, '--min-pass-rate', '0', '--max-unsafe', '100000', '--max-failures', '100000'];
      args.push('--poll-interval', String(pollS), '--timeout', String(Math.ceil((opts.timeoutMs ?? 30 * 60_000) / 1000)));
      return runCi(args, { stdout: sink, stderr: sink, env });
    };

    // Warm-up, not measured: a two-trace batch through the same CLI loads every handler and route the window uses.
    const warm = await api(svc, 'POST', '/v1/campaigns', { ...campaign, name: 'warm-up' });
    await api(svc, 'PATCH', `/v1/campaigns/${warm.campaign_id}/eval-set`, { add_trace_ids: traceIds.slice(0, 2) });
    if ((await cli(warm.campaign_id, 0.2)) === 2) throw new Error('warm-up: rts ci run failed');
    await svc.idle();

    // Agent requests: the outbound sender the worker uses, counted.
    let agentCalls = 0;
    const http = getDeps().http;
    configureDeps({
      http: (req) => {
        if (recording) agentCalls++;
        return http(req);
      },
    });

    const queueBefore = { ...svc.queue.stats };
    const busBefore = { ...svc.bus.stats };
    takeCounts();
    record(true);
    const t0 = performance.now();
    const cliExitCode = await cli(campaign_id, pollIntervalS);
    await svc.idle();
    const windowMs = performance.now() - t0;
    record(false);
    const dynamo = takeCounts();
    if (cliExitCode === 2) throw new Error('rts ci run answered 2 (error or timeout)');

    const batchId = requests.map((r) => /^\/v1\/ci\/batch\/([^/]+)$/.exec(r.path)?.[1]).find(Boolean);
    if (!batchId) throw new Error('rts ci run never polled a batch');
    const { decision } = await api(svc, 'GET', `/v1/ci/batch/${batchId}`);
    const attempts = planAttempts(campaignInputSchema.parse(campaign) as Campaign).length * traces;
    const queue = {
      sent: svc.queue.stats.sent - queueBefore.sent,
      received: svc.queue.stats.received - queueBefore.received,
      failed: svc.queue.stats.failed - queueBefore.failed,
      deadLettered: svc.queue.stats.deadLettered - queueBefore.deadLettered,
      sendCalls,
    };
    const bus = {
      published: svc.bus.stats.published - busBefore.published,
      invocations: svc.bus.stats.invocations - busBefore.invocations,
      failed: svc.bus.stats.failed - busBefore.failed,
      putEventsCalls,
      byType,
    };

    // Lambda: one invocation per handler call, but the replay worker's records are billed in event-source batches.
    const byModule = new Map<string, Invocation[]>();
    for (const inv of timing.invocations) byModule.set(inv.modulePath, [...(byModule.get(inv.modulePath) ?? []), inv]);
    const workerCalls = (byModule.get(workerHandlers.replayWorker) ?? []).sort((a, b) => a.startedAt - b.startedAt);
    const workerMs = workerCalls.map((c) => c.ms);
    const memoryOf = (fn: string) => {
      const mb = stack.memoryMb[fn];
      if (mb === undefined) throw new Error(`no function described "${fn}" in the template`);
      return mb;
    };
    // The local queue hands the worker one record per invocation: those are grouped into the event source's batches.
    // Should it ever batch records itself, its invocations are billed as they are.
    const oneRecordEach = workerCalls.every((c) => (c.recordBytes?.length ?? 1) === 1);
    const workerBatches = (mode: 'parallel' | 'serial') => (oneRecordEach ? batchInvocations(workerMs, stack.workerBatchSize, mode) : workerMs);
    const lambda: FunctionUse[] = [...byModule.entries()].map(([modulePath, calls]) => {
      const fn = functionOf(modulePath);
      const invocationsMs = modulePath === workerHandlers.replayWorker ? workerBatches('parallel') : calls.map((c) => c.ms);
      return { fn, memoryMb: memoryOf(fn), invocationsMs };
    });
    const workerGbSecondsSerial = gbSeconds(workerBatches('serial'), memoryOf('rts replay worker'));
    let shareLeases: CostBench['shareLeases'] = null;
    if (stack.workerShare > 0) {
      const invocations = workerBatches('parallel').length;
      const perInvocation = await countShareLeases(svc.projectId, stack.workerShare);
      addRepeated(dynamo, perInvocation, invocations, 'rts replay worker');
      shareLeases = { slots: stack.workerShare, invocations, perInvocation };
    }

    const apiRequests: Record<string, number> = {};
    for (const r of requests) apiRequests[routeOf(r.method, r.path)] = (apiRequests[routeOf(r.method, r.path)] ?? 0) + 1;

    const writeCalls = ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'].reduce((s, op) => s + (dynamo.calls[op] ?? 0), 0);
    const indexUnitsFrom = dynamo.indexWriteUnits !== undefined || writeCalls === 0 ? 'store' : 'lower bound';
    const workload: Workload = {
      attempts,
      dynamo: {
        calls: dynamo.calls,
        readUnits: dynamo.readUnits,
        writeUnits: dynamo.writeUnits,
        indexWriteUnits: dynamo.indexWriteUnits ?? dynamo.gsiWrites * stack.gsis.length,
        conditionalCheckFailures: dynamo.conditionalCheckFailures,
      },
      sqs: {
        sendBatchBytes,
        receivedBytes: workerCalls.flatMap((c) => c.recordBytes ?? []),
        deleted: queue.received - queue.failed,
        batchSize: stack.workerBatchSize,
      },
      eventBytes,
      apiRequests: requests.length,
      lambda,
      architecture: stack.architecture,
    };
    return {
      traces,
      attempts,
      concurrency,
      windowMs,
      cliExitCode,
      decision,
      stack,
      dynamo,
      indexUnitsFrom,
      queue,
      bus,
      agentCalls,
      apiRequests,
      workerGbSecondsSerial,
      shareLeases,
      workload,
      report: priceWorkload(workload),
    };
  } finally {
    freshReadOptions.share = true;
    await svc.stop();
    await agent.close();
    timing.undo();
    stopCounting();
    resetAwsClients();
  }
}

/** The store calls of one worker invocation's share lease, taken and freed as the worker does, counted. */
async function countShareLeases(projectId: string, slots: number): Promise<CallCounts> {
  takeCounts();
  const holder = 'cost-bench-invocation';
  const decision = await takeShares(getDeps(), [{ project_id: projectId, run_id: 'cost-bench' }], { slots, holder, until: Date.now() + 60_000 });
  if (!decision.granted.has(projectId)) throw new Error('the cost bench could not take a worker-share lease');
  await releaseShares(getDeps(), decision, holder);
  return takeCounts();
}

const READS = new Set(['GetItem', 'Query', 'Scan', 'BatchGetItem']);
const usd = (x: number) => (x >= 0.01 ? `$${x.toFixed(4)}` : `$${x.toFixed(6)}`);
const num = (x: number) => (Number.isInteger(x) ? x.toLocaleString('en-US') : x.toLocaleString('en-US', { maximumFractionDigits: 1 }));

export function printCost(r: CostBench): void {
  const rep = r.report;
  const p = rep.prices;
  console.log(
    `\n== Cost of a ${r.traces}-trace CI batch in AWS (${p.region} on-demand, prices checked ${p.checked}; ${r.attempts} attempts, ` +
      `queue concurrency ${r.concurrency}${process.env.COST_CI_METADATA === 'github' ? '; the CLI as in GitHub Actions' : ''}) ==`,
  );
  const rows = [
    ['resource', 'counted', 'billed units', '$ batch', '$ / 1k attempts'],
    ...rep.lines.map((l) => [l.resource, l.counted, `${num(l.units)} ${l.unit}`, usd(l.usd), usd(l.usdPer1kAttempts)]),
    ['total', '', '', usd(rep.totalUsd), usd(rep.totalUsdPer1kAttempts)],
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  for (const row of rows) console.log(row.map((c, i) => (i >= 3 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  '));
  const fns = rep.lambdaByFunction
    .map((f) => `${f.fn.replace(/^rts /, '')} ${f.invocations}x${f.memoryMb} MB ${num(f.gbSeconds)} GB-s`)
    .sort()
    .join('; ');
  console.log(`Lambda by function: ${fns}`);
  const ops = Object.entries(r.dynamo.calls)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([op, n]) => `${op} ${n}${r.dynamo.unitsByOp[op] ? ` = ${num(r.dynamo.unitsByOp[op])} ${READS.has(op) ? 'RRU' : 'WRU'}` : ''}`)
    .join(', ');
  console.log(
    `DynamoDB: ${totalCalls(r.dynamo)} calls (${ops}); GSI units ${r.indexUnitsFrom === 'store' ? 'priced per item write' : 'a lower bound'}`,
  );
  const kinds = Object.entries(r.dynamo.writesByKind)
    .sort(([, a], [, b]) => b.units + b.indexUnits - a.units - a.indexUnits)
    .slice(0, 6)
    .map(([kind, k]) => `${kind} ${num(k.writes)} = ${num(k.units)}${k.indexUnits ? ` + ${num(k.indexUnits)} GSI` : ''}`)
    .join(', ');
  if (kinds) console.log(`DynamoDB item writes by kind (WRU): ${kinds}`);
  const callers = Object.entries(r.dynamo.byCaller)
    .sort(([, a], [, b]) => b.calls - a.calls)
    .map(([fn, c]) => `${fn.replace(/^rts /, '')} ${c.calls} (${num(c.writeUnits)} WRU, ${num(c.readUnits)} RRU)`)
    .join('; ');
  console.log(`DynamoDB calls by function (table units): ${callers}; per trace ${(totalCalls(r.dynamo) / r.traces).toFixed(1)} calls`);
  if (r.shareLeases) {
    const one = r.shareLeases.perInvocation;
    const each = Object.entries(one.calls)
      .map(([op, n]) => `${n} ${op}`)
      .join(' + ');
    console.log(
      `worker share (${r.shareLeases.slots} invocations a project): each of the ${r.shareLeases.invocations} worker invocations takes and frees a lease, ` +
        `${each} = ${num(one.writeUnits)} WRU, ${num(one.readUnits)} RRU (counted once, included above)`,
    );
  }
  console.log(
    `queue: ${r.queue.sent} sent in ${r.queue.sendCalls} SendMessageBatch, ${r.queue.received} received, ${r.queue.failed} failed, ` +
      `${r.queue.deadLettered} dead-lettered; bus: ${r.bus.published} events (${Object.entries(r.bus.byType)
        .map(([t, k]) => `${t} ${k}`)
        .join(', ')}) in ${r.bus.putEventsCalls} PutEvents, ${r.bus.invocations} deliveries; ` +
      `agent requests ${r.agentCalls} (${(r.agentCalls / r.attempts).toFixed(1)} per attempt)`,
  );
  console.log(
    `API: ${Object.entries(r.apiRequests)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}; window ${(r.windowMs / 1000).toFixed(1)} s, CLI exit ${r.cliExitCode} (${r.decision})`,
  );
  console.log(
    `worker batches billed as their longest record (parallel); one after another: ${num(r.workerGbSecondsSerial)} GB-s. ` +
      `Local durations include the in-process store and demo agent on this shared machine.`,
  );
}

if (require.main === module) {
  benchCost({ traces: Number(process.env.CI_BENCH_TRACES ?? 1000) }).then(
    (r) => {
      printCost(r);
      process.exit(0);
    },
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}

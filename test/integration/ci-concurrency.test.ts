// Exactly-once batch aggregation under concurrent completions, duplicate and late redeliveries, and workers that die
// at every step of the aggregation (each run counted once, the batch done once, one decision event).
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { BusEvent } from '../../functions/core/events';
import { InProcessQueue } from '../../functions/local/queue';
import type { BatchesRepo, EventPublisher } from '../../functions/core/ports';
import { configureDeps, getDeps } from '../../functions/wiring/deps';
import { handler as deadLetter } from '../../functions/workers/dead-letter';
import { handler as replayWorker } from '../../functions/workers/replay-worker';
import { traceInputSchema } from '../../functions/core/traces/schema';
import { uploadTrace } from '../../functions/core/traces/service';
import { createCampaign, expectExactFailingBatch, failingTrace, passingTrace, pollUntil, setEvalSet } from '../helpers/ci';
import { startTestService, type TestService } from '../helpers/local-service';

const TRACES = 200;
const FAILING_EVERY = 10;

let svc: TestService;
let chaosQueue: InProcessQueue;
const events: BusEvent[] = [];
const injected = { duplicate: 0, throwAfterAck: 0, abandoned: 0, afterMarker: 0, afterHint: 0, afterFlip: 0, beforePublish: 0 };

class Crash extends Error {
  constructor(point: string) {
    super(`injected crash: ${point}`);
  }
}

/** The real batches repository, dying right after some of its writes (the write happened, the caller never learns). */
function crashingBatches(real: BatchesRepo): BatchesRepo {
  let markers = 0;
  let hints = 0;
  let flipped = false;
  return {
    ...real,
    create: (b) => real.create(b),
    get: (p, b) => real.get(p, b),
    listMarkers: (p, b) => real.listMarkers(p, b),
    getMarkers: (p, b, ids) => real.getMarkers(p, b, ids),
    markRunning: (p, b) => real.markRunning(p, b),
    markDecisionPublished: (p, b) => real.markDecisionPublished(p, b),
    claimDecision: (p, b, c, now, lease) => real.claimDecision(p, b, c, now, lease),
    putComparisons: (p, b, c) => real.putComparisons(p, b, c),
    listComparisons: (p, b) => real.listComparisons(p, b),
    updateListing: (b) => real.updateListing(b),
    list: (p, f, page) => real.list(p, f, page),
    latestDone: (p, c, branch) => real.latestDone(p, c, branch),
    async putMarker(p, b, m) {
      const created = await real.putMarker(p, b, m);
      if (created && ++markers % 17 === 0) {
        injected.afterMarker++;
        throw new Crash('after the marker, before the hint');
      }
      return created;
    },
    async bumpDoneHint(p, b) {
      const hint = await real.bumpDoneHint(p, b);
      highestHint = Math.max(highestHint, hint?.done_hint ?? 0);
      if (++hints % 23 === 0 || hint?.done_hint === TRACES) {
        injected.afterHint++;
        throw new Crash('after the hint, before the recount');
      }
      return hint;
    },
    async markDone(p, b, result, at) {
      const batch = await real.markDone(p, b, result, at);
      if (batch && !flipped) {
        flipped = true;
        injected.afterFlip++;
        throw new Crash('after the flip, before the decision is published');
      }
      return batch;
    },
  };
}

/** The local bus, failing the first attempt to publish a decision (the publisher dies before the bus has it). */
function crashingBus(real: EventPublisher): EventPublisher {
  let failed = false;
  return {
    async publish(list) {
      if (!failed && list.some((e) => e.envelope.event_type.startsWith('ci.decision.'))) {
        failed = true;
        injected.beforePublish++;
        throw new Crash('before the decision reached the bus');
      }
      return real.publish(list);
    },
  };
}

type SqsHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

/**
 * The real worker behind a chaotic delivery layer: some messages are delivered twice at once, some are reported failed
 * after they were processed (redelivered to a terminal run), and some are abandoned mid-processing (the worker is
 * presumed dead and the message redelivered while the first execution is still running).
 */
function chaoticWorker(): SqsHandler {
  let n = 0;
  return async (event, context) => {
    const i = n++;
    if (i % 11 === 3) {
      injected.duplicate++;
      const [a] = await Promise.all([replayWorker(event, context), replayWorker(event, context)]);
      return a;
    }
    if (i % 13 === 5) {
      const res = await replayWorker(event, context);
      injected.throwAfterAck++;
      if (res?.batchItemFailures.length) return res;
      throw new Error('injected: worker died after the run became terminal, before the ack');
    }
    if (i % 19 === 7) {
      injected.abandoned++;
      void replayWorker(event, context).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 5));
      throw new Error('injected: worker killed mid-run');
    }
    return replayWorker(event, context);
  };
}

beforeAll(async () => {
  svc = await startTestService({ deliverWebhooks: false });
  svc.bus.onEvent((e) => events.push(e));
  const worker = chaoticWorker();
  chaosQueue = new InProcessQueue({ worker: () => worker, deadLetter: () => deadLetter, concurrency: 16, maxReceives: 10, redeliveryDelayMs: 10 });
  const real = getDeps();
  configureDeps({ queue: chaosQueue, batches: crashingBatches(real.batches), events: crashingBus(svc.bus) });
}, 60000);
afterAll(async () => {
  await chaosQueue.close();
  await svc.stop();
});

/** The highest done hint the store answered (the counter item's value). */
let highestHint = 0;

describe('CI batch aggregation under concurrency and redelivery', () => {
  it(`counts each of ${TRACES} concurrently completing runs once, flips the batch once and emits one decision event`, async () => {
    // Prepare: every 10th trace misses the campaign's output criterion.
    const traces = Array.from({ length: TRACES }, (_, i) => (i % FAILING_EVERY === 0 ? failingTrace(`fail ${i}`) : passingTrace(`pass ${i}`)));
    const traceIds = await seedTraces(svc.projectId, traces);
    const failingTraces = new Set(traceIds.filter((_, i) => i % FAILING_EVERY === 0));
    const campaignId = await createCampaign(svc);
    await setEvalSet(svc, campaignId, traceIds, TRACES);

    // Act
    const sub = await svc.api('POST', '/v1/ci/runs', { campaign_id: campaignId });
    expect(sub.status).toBe(202);
    const batchId: string = sub.body.ci_batch_id;
    const batch = await pollUntil(svc, `/v1/ci/batch/${batchId}`, (b) => b.status === 'done' && decisionsOf(batchId).length > 0, 240000, 1000);
    await chaosQueue.drain();
    await svc.idle();

    // Assess: the faults really happened.
    for (const [point, count] of Object.entries(injected)) expect({ point, happened: count > 0 }).toEqual({ point, happened: true });
    // Exact counts from the markers, which are one per run.
    const markers = await getDeps().batches.listMarkers(svc.projectId, batchId);
    expect(markers).toHaveLength(TRACES);
    expect(new Set(markers.map((m) => m.run_id)).size).toBe(TRACES);
    const failingRuns = markers
      .filter((m) => failingTraces.has(m.trace_id))
      .map((m) => m.run_id)
      .sort();
    expect(failingRuns).toHaveLength(TRACES / FAILING_EVERY);
    expectExactFailingBatch(batch, TRACES, failingRuns);
    // One decision event: a copy can only reach the bus when the claimant run itself is delivered twice at once, and
    // then it is the same event (same bus id, same envelope), which delivery deduplicates on the id.
    const decisions = decisionsOf(batchId);
    expect(new Set(decisions.map((e) => e.id))).toEqual(new Set([`ci.decision:${batchId}`]));
    expect(new Set(decisions.map((e) => JSON.stringify(e.envelope))).size).toBe(1);
    expect(decisions.length).toBeLessThanOrEqual(2);
    expect(decisions[0].envelope.event_type).toBe('ci.decision.fail');
    expect(decisions[0].envelope.data).toMatchObject({
      ci_batch_id: batchId,
      decision: 'fail',
      scenario_coverage_pct: 100,
      pass_rate: batch.pass_rate,
    });
    const stored = await getDeps().batches.get(svc.projectId, batchId);
    expect(stored).toMatchObject({ status: 'done', decision_published: true });
    // Every marker was counted at least once (a redelivery that finds its marker counts it again, in case the first
    // count was lost), so the hint cannot stop short of trace_count; the markers, not the hint, gave the counts above.
    expect(highestHint).toBeGreaterThanOrEqual(TRACES);
    // Every run ended once, with its own decision stored.
    const completed = new Set(events.filter((e) => e.envelope.event_type === 'run.completed').map((e) => e.envelope.data.run_id));
    for (const rid of sub.body.run_ids) expect(completed.has(rid)).toBe(true);
  }, 300000);
});

/** Stores the traces through the core service (setup, not under test: faster than 200 HTTP uploads). */
async function seedTraces(projectId: string, traces: ReturnType<typeof passingTrace>[]): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < traces.length; i += 50) {
    const created = await Promise.all(traces.slice(i, i + 50).map((t) => uploadTrace(getDeps(), projectId, traceInputSchema.parse(t))));
    ids.push(...created.map((c) => c.body.trace_id));
  }
  return ids;
}

function decisionsOf(batchId: string): BusEvent[] {
  return events.filter((e) => e.envelope.event_type.startsWith('ci.decision.') && e.envelope.data.ci_batch_id === batchId);
}

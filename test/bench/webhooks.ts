// Bench of webhook delivery in local mode: event-to-receiver latency, and 1,000 events fanned out to 5 HTTPS
// receivers on loopback with zero lost and zero duplicated deliveries (10% of the events re-sent as bus retries).
import './bench-env';
import { randomUUID } from 'node:crypto';
import type { EventBridgeEvent } from 'aws-lambda';
import { DynamoDeliveryLogRepo } from '../../functions/adapters/dynamodb/delivery-log-repo';
import { DynamoWebhooksRepo } from '../../functions/adapters/dynamodb/webhooks-repo';
import { createGuardedSender } from '../../functions/adapters/http/guarded-sender';
import type { BusEvent } from '../../functions/core/events';
import { systemClock } from '../../functions/core/time';
import { realSleep } from '../../functions/core/webhooks/delivery';
import { createWebhook } from '../../functions/core/webhooks/service';
import { createWebhookDeliveryHandler, type WebhookDeliveryHandler } from '../../functions/events/webhook-delivery';
import { startDynalite } from '../helpers/dynalite';
import { startHttpsReceiver, testCertificates, type HttpsReceiver } from '../helpers/https-receiver';

export interface WebhooksBench {
  /** One event at a time to one webhook: from handing the event to the handler until the receiver has the request. */
  latency: { samples: number; p50: number; p99: number };
  fanout: {
    events: number;
    webhooks: number;
    /** Events handed to the handler a second time with the same id, like a bus retry. */
    redelivered: number;
    expected: number;
    received: number;
    lost: number;
    duplicated: number;
    durationMs: number;
    deliveriesPerSecond: number;
    /** Event-to-receiver latency of each delivery under that load. */
    p50: number;
    p99: number;
  };
}

const now = () => performance.timeOrigin + performance.now();

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function bridge(projectId: string, n: number, id = randomUUID()): EventBridgeEvent<string, BusEvent> {
  const detail: BusEvent = {
    id,
    envelope: {
      event_type: 'run.completed',
      project_id: projectId,
      created_at: new Date().toISOString(),
      data: { n, run_id: randomUUID(), status: 'done', pass_rate: 1 },
    },
  };
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': 'run.completed',
    source: 'rts',
    account: '0',
    time: '',
    region: 'local',
    resources: [],
    detail,
  };
}

/** Runs the handler over the events with at most `concurrency` in flight, as a bus with that many concurrent invocations. */
async function dispatch(
  handler: WebhookDeliveryHandler,
  events: EventBridgeEvent<string, BusEvent>[],
  concurrency: number,
  sentAt: Map<number, number>,
) {
  let next = 0;
  const worker = async () => {
    while (next < events.length) {
      const e = events[next++];
      const n = e.detail.envelope.data.n as number;
      if (!sentAt.has(n)) sentAt.set(n, now());
      await handler(e);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

export async function benchWebhooks(
  opts: { events?: number; webhooks?: number; latencySamples?: number; concurrency?: number } = {},
): Promise<WebhooksBench> {
  const eventCount = opts.events ?? 1000;
  const webhookCount = opts.webhooks ?? 5;
  const samples = opts.latencySamples ?? 200;
  const concurrency = opts.concurrency ?? 8;
  const table = await startDynalite('rts-bench-webhooks');
  const receivers: HttpsReceiver[] = [];
  try {
    const repo = new DynamoWebhooksRepo();
    const handler = createWebhookDeliveryHandler({
      webhooks: repo,
      deliveryLog: new DynamoDeliveryLogRepo(),
      send: createGuardedSender({ allowPrivate: true, ca: testCertificates().ca }),
      sleep: realSleep,
      clock: systemClock,
      uuid: randomUUID,
    });
    const svc = { webhooks: repo, clock: systemClock };
    const sequenceOf = (r: HttpsReceiver) => r.requests.map((q) => JSON.parse(q.rawBody.toString('utf8')).data.n as number);

    // Latency: one project, one webhook, one event at a time (the first few warm the connections up).
    const single = await startHttpsReceiver();
    receivers.push(single);
    const latencyProject = randomUUID();
    await createWebhook(svc, latencyProject, { url: single.url, events: ['*'], is_enabled: true, description: null });
    const latencies: number[] = [];
    for (let i = -10; i < samples; i++) {
      const before = single.requests.length;
      const t0 = now();
      await handler(bridge(latencyProject, i));
      if (i >= 0) latencies.push(single.requests[before].at - t0);
    }
    latencies.sort((a, b) => a - b);

    // Fan-out: 5 webhooks on 5 receivers, 1,000 events, and 10% of them handed over a second time.
    const project = randomUUID();
    for (let i = 0; i < webhookCount; i++) {
      const r = await startHttpsReceiver();
      receivers.push(r);
      await createWebhook(svc, project, { url: r.url, events: ['run.completed'], is_enabled: true, description: null });
    }
    const fanReceivers = receivers.slice(1);
    const events = Array.from({ length: eventCount }, (_, n) => bridge(project, n));
    const retries = events.filter((_, n) => n % 10 === 0).map((e) => ({ ...e, id: randomUUID() }));
    const sentAt = new Map<number, number>();
    const started = now();
    await dispatch(handler, [...events, ...retries], concurrency, sentAt);
    const durationMs = now() - started;

    let received = 0;
    let unique = 0;
    const perDelivery: number[] = [];
    for (const r of fanReceivers) {
      const seen = sequenceOf(r);
      received += seen.length;
      unique += new Set(seen).size;
      for (const q of r.requests) perDelivery.push(q.at - sentAt.get(JSON.parse(q.rawBody.toString('utf8')).data.n as number)!);
    }
    perDelivery.sort((a, b) => a - b);
    const expected = eventCount * webhookCount;
    return {
      latency: { samples, p50: percentile(latencies, 50), p99: percentile(latencies, 99) },
      fanout: {
        events: eventCount,
        webhooks: webhookCount,
        redelivered: retries.length,
        expected,
        received,
        lost: expected - unique,
        duplicated: received - unique,
        durationMs,
        deliveriesPerSecond: (received / durationMs) * 1000,
        p50: percentile(perDelivery, 50),
        p99: percentile(perDelivery, 99),
      },
    };
  } finally {
    await Promise.all(receivers.map((r) => r.close()));
    await table.close();
  }
}

/** The figures as two lines (`npm run bench -- webhooks`, or `npx tsx test/bench/webhooks.ts` alone). */
export function formatWebhooksBench(b: WebhooksBench): string {
  const f = b.fanout;
  return [
    `webhooks  event-to-receiver latency (1 webhook, ${b.latency.samples} events one at a time): p50 ${b.latency.p50.toFixed(1)} ms  p99 ${b.latency.p99.toFixed(1)} ms`,
    `webhooks  fan-out ${f.events} events x ${f.webhooks} webhooks (+${f.redelivered} re-sent bus events): ${f.received}/${f.expected} delivered, ` +
      `${f.lost} lost, ${f.duplicated} duplicated, ${(f.durationMs / 1000).toFixed(1)} s, ${f.deliveriesPerSecond.toFixed(0)} deliveries/s, ` +
      `latency p50 ${f.p50.toFixed(0)} ms p99 ${f.p99.toFixed(0)} ms`,
  ].join('\n');
}

if (require.main === module) {
  benchWebhooks().then(
    (b) => console.log(formatWebhooksBench(b)),
    (err) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}

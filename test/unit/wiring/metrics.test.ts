// EMF metrics: the format CloudWatch reads, what the replay workers and webhook delivery count, and silence when disabled.
import type { EventBridgeEvent } from 'aws-lambda';
import type { BusEvent } from '../../../functions/core/events';
import type { DeliveryDeps } from '../../../functions/core/webhooks/delivery';
import type { WebhookRecord } from '../../../functions/core/webhooks/schema';
import { createWebhookDeliveryHandler } from '../../../functions/events/webhook-delivery';
import { InProcessQueue } from '../../../functions/local/queue';
import type { Deps, EventPublisher, RunsRepo } from '../../../functions/core/ports';
import { countMetric, flushMetrics, resetMetrics } from '../../../functions/wiring/metrics';
import { meteredDeps } from '../../../functions/workers/run-metrics';

interface EmfLine {
  _aws: { Timestamp: number; CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] };
  [key: string]: unknown;
}

/** Runs `fn` and returns the EMF lines it wrote to stdout. */
function emfLinesOf(fn: () => void): EmfLine[] {
  const chunks: string[] = [];
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  });
  try {
    fn();
  } finally {
    spy.mockRestore();
  }
  return chunks
    .join('')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as EmfLine)
    .filter((l) => l._aws !== undefined);
}

/** The line whose dimension `name` has `value`. */
function lineWith(lines: EmfLine[], name: string, value: string): EmfLine {
  const line = lines.find((l) => l[name] === value);
  if (!line) throw new Error(`no EMF line with ${name}=${value} in ${JSON.stringify(lines)}`);
  return line;
}

const saved = process.env.POWERTOOLS_METRICS_DISABLED;

afterEach(() => {
  process.env.POWERTOOLS_METRICS_DISABLED = saved;
  resetMetrics();
});

describe('flushMetrics', () => {
  it('writes nothing while POWERTOOLS_METRICS_DISABLED=true (the test and local default)', () => {
    // Prepare
    countMetric('Attempts', 'passed');
    // Act
    const lines = emfLinesOf(() => flushMetrics());
    // Assess
    expect(lines).toEqual([]);
  });

  it('writes one EMF line per dimension value, in namespace rts, split by service and the metric dimension', () => {
    // Prepare
    process.env.POWERTOOLS_METRICS_DISABLED = 'false';
    countMetric('Attempts', 'passed');
    countMetric('Attempts', 'passed');
    countMetric('Attempts', 'failed');
    countMetric('Runs', 'failed');
    countMetric('WebhookDeliveries', 'succeeded', 3);
    // Act
    const lines = emfLinesOf(() => flushMetrics());
    // Assess
    expect(lines).toHaveLength(3);
    const passed = lineWith(lines, 'status', 'passed');
    expect(passed).toMatchObject({ service: 'rts', status: 'passed', Attempts: 2 });
    expect(passed._aws.CloudWatchMetrics).toEqual([
      { Namespace: 'rts', Dimensions: [['service', 'status']], Metrics: [{ Name: 'Attempts', Unit: 'Count' }] },
    ]);
    const failed = lineWith(lines, 'status', 'failed');
    expect(failed).toMatchObject({ Attempts: 1, Runs: 1 });
    expect(failed._aws.CloudWatchMetrics[0].Metrics.map((m) => m.Name).sort()).toEqual(['Attempts', 'Runs']);
    const deliveries = lineWith(lines, 'outcome', 'succeeded');
    expect(deliveries).toMatchObject({ service: 'rts', WebhookDeliveries: 3 });
    expect(deliveries._aws.CloudWatchMetrics[0].Dimensions).toEqual([['service', 'outcome']]);
  });

  it('writes each count once: a second flush with nothing new writes nothing', () => {
    // Prepare
    process.env.POWERTOOLS_METRICS_DISABLED = 'false';
    countMetric('Runs', 'completed');
    emfLinesOf(() => flushMetrics());
    // Act
    const again = emfLinesOf(() => flushMetrics());
    // Assess
    expect(again).toEqual([]);
  });
});

describe('meteredDeps (the replay workers)', () => {
  /** A repo with private state, to show the untouched methods still run on the real object. */
  class FakeRuns {
    #stored = new Set<number>();
    async putAttempt(_pid: string, a: { attempt: number }): Promise<boolean> {
      if (this.#stored.has(a.attempt)) return false;
      this.#stored.add(a.attempt);
      return true;
    }
    async transition(_pid: string, runId: string, _from: string[], patch: { status?: string }): Promise<unknown> {
      return { run_id: runId, status: patch.status ?? 'running' };
    }
    async storedCount(): Promise<number> {
      return this.#stored.size;
    }
  }

  it('counts attempts this delivery stored, runs it made terminal and CI decisions it published', async () => {
    // Prepare
    process.env.POWERTOOLS_METRICS_DISABLED = 'false';
    const published: BusEvent[] = [];
    const fakeRuns = new FakeRuns();
    const deps = meteredDeps({
      runs: fakeRuns as unknown as RunsRepo,
      events: { publish: async (list: BusEvent[]) => void published.push(...list) } as EventPublisher,
    } as Deps);
    const event = (type: string): BusEvent =>
      ({ id: type, envelope: { event_type: type, project_id: 'p', created_at: 'now', data: {} } }) as BusEvent;
    // Act
    await deps.runs.putAttempt('p', { attempt: 1, status: 'passed' } as never);
    await deps.runs.putAttempt('p', { attempt: 1, status: 'passed' } as never); // a redelivery meets its own write
    await deps.runs.putAttempt('p', { attempt: 2, status: 'error' } as never);
    await deps.runs.transition('p', 'r1', ['queued'], { status: 'running' });
    await deps.runs.transition('p', 'r1', ['running'], { summary: {} as never }); // progress
    await deps.runs.transition('p', 'r1', ['running'], { status: 'completed' });
    await deps.events.publish([event('ci.decision.fail'), event('run.completed')]);
    const storedCount = await (deps.runs as unknown as FakeRuns).storedCount();
    const lines = emfLinesOf(() => flushMetrics());
    // Assess
    expect(storedCount).toBe(2);
    expect(published.map((e) => e.envelope.event_type)).toEqual(['ci.decision.fail', 'run.completed']);
    expect(lineWith(lines, 'status', 'passed')).toMatchObject({ Attempts: 1 });
    expect(lineWith(lines, 'status', 'error')).toMatchObject({ Attempts: 1 });
    expect(lineWith(lines, 'status', 'completed')).toMatchObject({ Runs: 1 });
    expect(lineWith(lines, 'decision', 'fail')).toMatchObject({ CiDecisions: 1 });
    expect(lines.some((l) => l.status === 'running')).toBe(false);
  });
});

describe('webhook delivery', () => {
  it('counts each delivery by outcome, not duplicates', async () => {
    // Prepare
    process.env.POWERTOOLS_METRICS_DISABLED = 'false';
    const hook = (id: string, url: string): WebhookRecord =>
      ({
        project_id: 'p',
        webhook_id: id,
        url,
        events: ['*'],
        is_enabled: true,
        secret: 'whsec_x',
        last_error: null,
        last_status: null,
      }) as unknown as WebhookRecord;
    const hooks = [hook('wh_ok', 'https://ok.example/'), hook('wh_down', 'https://down.example/'), hook('wh_dup', 'https://dup.example/')];
    const webhooks = {
      listAll: async () => hooks,
      get: async (_p: string, id: string) => hooks.find((h) => h.webhook_id === id) ?? null,
      recordSuccess: async () => undefined,
      recordFailure: async () => undefined,
    } as unknown as DeliveryDeps['webhooks'];
    const deliveryLog = {
      claimDelivery: async (id: string) => id !== 'wh_dup',
      putDelivery: async () => undefined,
      putEvent: async () => undefined,
    } as unknown as DeliveryDeps['deliveryLog'];
    const deliver = createWebhookDeliveryHandler({
      webhooks,
      deliveryLog,
      send: async (req) => ({ status: req.url.includes('ok.example') ? 204 : 503, headers: {}, body: '', durationMs: 1 }),
      sleep: async () => undefined,
      clock: { now: () => new Date('2026-01-01T00:00:00Z') },
      uuid: () => 'd-1',
    });
    const envelope = { event_type: 'run.completed', project_id: 'p', created_at: '2026-01-01T00:00:00Z', data: {} };
    // Act
    await deliver({ id: 'eb-1', detail: { id: 'run.completed:r1', envelope } } as unknown as EventBridgeEvent<string, BusEvent>);
    const lines = emfLinesOf(() => flushMetrics());
    // Assess
    expect(lineWith(lines, 'outcome', 'succeeded')).toMatchObject({ service: 'rts', WebhookDeliveries: 1 });
    expect(lineWith(lines, 'outcome', 'failed')).toMatchObject({ WebhookDeliveries: 1 });
    expect(lines).toHaveLength(2);
  });
});

describe('the local service', () => {
  it('turns metrics and tracing off when its queue is built, unless the environment already says otherwise', () => {
    // Prepare
    const savedTrace = process.env.POWERTOOLS_TRACE_ENABLED;
    delete process.env.POWERTOOLS_METRICS_DISABLED;
    delete process.env.POWERTOOLS_TRACE_ENABLED;
    // Act
    new InProcessQueue({ worker: () => async () => undefined, deadLetter: () => async () => undefined });
    const quiet = { metrics: process.env.POWERTOOLS_METRICS_DISABLED, tracing: process.env.POWERTOOLS_TRACE_ENABLED };
    process.env.POWERTOOLS_METRICS_DISABLED = 'false';
    new InProcessQueue({ worker: () => async () => undefined, deadLetter: () => async () => undefined });
    // Assess
    expect(quiet).toEqual({ metrics: 'true', tracing: 'false' });
    expect(process.env.POWERTOOLS_METRICS_DISABLED).toBe('false');
    process.env.POWERTOOLS_TRACE_ENABLED = savedTrace;
  });
});

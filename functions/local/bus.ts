// In-process stand-in for the EventBridge bus: EventBridge-shaped events to the same delivery handler, retried on failure.
import { randomUUID } from 'node:crypto';
import type { Context, EventBridgeEvent } from 'aws-lambda';
import { createLimiter } from '../core/concurrency';
import type { BusEvent } from '../core/events';
import { exponentialDelays, realSleep, tries } from '../core/retry';
import type { EventPublisher } from '../ports';
import { logger } from '../shared/logger';
import { lambdaContext, quietLocalTelemetry } from './queue';

type BusHandler = (event: EventBridgeEvent<string, BusEvent>, context: Context) => Promise<unknown>;

export interface InProcessBusOptions {
  /** The delivery handler (functions/events/webhook-delivery); omitted = events are only recorded. */
  target?: () => BusHandler;
  /** Tries per event, like the rule target's retry policy. Default 3. */
  maxTries?: number;
  /** Events handled at once (a burst queues instead of flooding the store and receivers). Default 8. */
  concurrency?: number;
}

export class InProcessBus implements EventPublisher {
  private inflight = new Set<Promise<void>>();
  private readonly limit: <T>(fn: () => Promise<T>) => Promise<T>;
  private listeners: ((e: BusEvent) => void)[] = [];
  private closed = false;
  /**
   * What the bus did since it started: events published, handler invocations (a retried event counts once per try),
   * the failed ones, and the invocations' summed duration in ms (benchmarks price these as Lambda invocations).
   */
  readonly stats = { published: 0, invocations: 0, failed: 0, handlerMs: 0 };

  constructor(private readonly opts: InProcessBusOptions = {}) {
    this.limit = createLimiter(opts.concurrency ?? 8);
    quietLocalTelemetry();
  }

  /** Observes every published event (tests, the dashboard's live view). */
  onEvent(listener: (e: BusEvent) => void): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  async publish(events: BusEvent[]): Promise<void> {
    for (const e of events) {
      this.stats.published++;
      for (const l of this.listeners) l(e);
      if (!this.opts.target || this.closed) continue;
      const p = this.dispatch(e).finally(() => this.inflight.delete(p));
      this.inflight.add(p);
    }
  }

  private dispatch(e: BusEvent): Promise<void> {
    return this.limit(() => this.deliver(e));
  }

  private async deliver(e: BusEvent): Promise<void> {
    const event: EventBridgeEvent<string, BusEvent> = {
      version: '0',
      id: randomUUID(),
      'detail-type': e.envelope.event_type,
      source: 'rts',
      account: '000000000000',
      time: new Date().toISOString(),
      region: 'local',
      resources: [],
      detail: e,
    };
    // Like the rule target's retry policy: the handler again after 400 ms, 800 ms, ...
    for await (const i of tries(exponentialDelays(400, (this.opts.maxTries ?? 3) - 1), realSleep)) {
      this.stats.invocations++;
      const started = performance.now();
      try {
        await this.opts.target!()(event, lambdaContext('rts-webhook-delivery'));
        return;
      } catch (err) {
        this.stats.failed++;
        logger.warn('event delivery handler failed', { error: err as Error, try: i + 1 });
      } finally {
        this.stats.handlerMs += performance.now() - started;
      }
    }
  }

  /** Resolves when every dispatched event has been handled. */
  async drain(): Promise<void> {
    while (this.inflight.size > 0) await Promise.all([...this.inflight]);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.drain();
  }
}

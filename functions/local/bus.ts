// In-process stand-in for the EventBridge bus: EventBridge-shaped events to the same delivery handler, retried on
// failure, scheduled fairly between projects (round-robin, a per-project cap on slots) so one project's deliveries
// never hold every slot. Nothing waits in a slot: retries and deferred deliveries are put back with a delay.
import { randomUUID } from 'node:crypto';
import type { Context, EventBridgeEvent } from 'aws-lambda';
import type { BusEvent } from '../core/events';
import { exponentialDelays } from '../core/retry';
import { isDeliveryDeferred } from '../core/webhooks/deferral';
import type { EventPublisher } from '../core/ports';
import { logger } from '../wiring/logger';
import { lambdaContext, quietLocalTelemetry } from './queue';

/** Slots one project may hold at once by default: what the bus ran for all projects together before it was fair. */
export const DEFAULT_PER_PROJECT = 8;
export const DEFAULT_CONCURRENCY = 2 * DEFAULT_PER_PROJECT;

type BusHandler = (event: EventBridgeEvent<string, BusEvent>, context: Context) => Promise<unknown>;

export interface InProcessBusOptions {
  /** The delivery handler (functions/events/webhook-delivery); omitted = events are only recorded. */
  target?: () => BusHandler;
  /** Tries per event, like the rule target's retry policy. Default 3. */
  maxTries?: number;
  /**
   * Events handled at once, all projects together (a burst queues instead of flooding the store and receivers).
   * Default 16: twice the per-project cap, so one busy project runs as many as it did alone and another still finds
   * free slots.
   */
  concurrency?: number;
  /**
   * Slots one project may hold at once: the others stay free for other projects' events, however many this one has
   * queued. Default 8 (at most `concurrency`).
   */
  perProject?: number;
}

/** One event on its way: its EventBridge form (one id across its tries, like EventBridge's), tries made, its end. */
interface Job {
  project: string;
  event: EventBridgeEvent<string, BusEvent>;
  failures: number;
  done: () => void;
  /** Set while the job waits out a retry or deferral delay: runs it now (a deferred job, when its project moves on). */
  wake?: () => void;
}

export class InProcessBus implements EventPublisher {
  private inflight = new Set<Promise<void>>();
  private listeners: ((e: BusEvent) => void)[] = [];
  private closed = false;
  private readonly concurrency: number;
  private readonly perProject: number;
  private running = 0;
  private readonly runningBy = new Map<string, number>();
  /** Ready jobs per project; the Map's order is the round-robin rotation (a project served moves to the back). */
  private readonly ready = new Map<string, Job[]>();
  /** Deferred jobs per project, woken when one of the project's deliveries ends (or their delay is up). */
  private readonly parked = new Map<string, Set<Job>>();
  /**
   * What the bus did since it started: events published, handler invocations (a retried event counts once per try,
   * a deferred one once per run), the failed ones, the deferred ones, and the invocations' summed duration in ms
   * (benchmarks price these as Lambda invocations).
   */
  readonly stats = { published: 0, invocations: 0, failed: 0, deferred: 0, handlerMs: 0 };

  constructor(private readonly opts: InProcessBusOptions = {}) {
    this.concurrency = Math.max(1, opts.concurrency ?? DEFAULT_CONCURRENCY);
    this.perProject = Math.max(1, Math.min(this.concurrency, opts.perProject ?? DEFAULT_PER_PROJECT));
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
      const p = new Promise<void>((done) =>
        this.enqueue({ project: String(e.envelope?.project_id ?? ''), event: eventBridgeEvent(e), failures: 0, done }),
      );
      this.inflight.add(p);
      void p.finally(() => this.inflight.delete(p));
    }
    this.pump();
  }

  private enqueue(job: Job): void {
    const queue = this.ready.get(job.project);
    if (queue) queue.push(job);
    else this.ready.set(job.project, [job]);
  }

  /** Starts ready jobs while slots are free: projects in rotation, each below its cap. */
  private pump(): void {
    while (this.running < this.concurrency) {
      const project = [...this.ready.keys()].find((p) => (this.runningBy.get(p) ?? 0) < this.perProject);
      if (project === undefined) return;
      const queue = this.ready.get(project)!;
      const job = queue.shift()!;
      this.ready.delete(project);
      if (queue.length) this.ready.set(project, queue); // to the back of the rotation
      this.running++;
      this.runningBy.set(project, (this.runningBy.get(project) ?? 0) + 1);
      void this.run(job).then((ended) => {
        this.running--;
        const left = (this.runningBy.get(project) ?? 1) - 1;
        if (left > 0) this.runningBy.set(project, left);
        else this.runningBy.delete(project);
        if (ended) this.wakeParked(project);
        this.pump();
      });
    }
  }

  /**
   * One invocation of the handler; then the job ends (true), or waits without a slot for its retry or its deferral
   * (false). Never rejects.
   */
  private async run(job: Job): Promise<boolean> {
    this.stats.invocations++;
    const started = performance.now();
    try {
      await this.opts.target!()(job.event, lambdaContext('rts-webhook-delivery'));
      job.done();
      return true;
    } catch (err) {
      if (isDeliveryDeferred(err)) {
        this.stats.deferred++;
        this.later(job, err.retryAfterMs, true);
        return false;
      }
      this.stats.failed++;
      job.failures++;
      logger.warn('event delivery handler failed', { error: err as Error, try: job.failures });
      // Like the rule target's retry policy: the handler again after 400 ms, 800 ms, ...
      const delays = exponentialDelays(400, (this.opts.maxTries ?? 3) - 1);
      if (job.failures <= delays.length) {
        this.later(job, delays[job.failures - 1], false);
        return false;
      }
      job.done();
      return true;
    } finally {
      this.stats.handlerMs += performance.now() - started;
    }
  }

  /** Puts a job back on its project's queue after `ms`; a parked (deferred) one sooner, when its project moves on. */
  private later(job: Job, ms: number, park: boolean): void {
    const timer = setTimeout(() => job.wake?.(), ms);
    job.wake = () => {
      clearTimeout(timer);
      job.wake = undefined;
      this.parked.get(job.project)?.delete(job);
      this.enqueue(job);
      this.pump();
    };
    if (!park) return;
    const set = this.parked.get(job.project) ?? new Set<Job>();
    set.add(job);
    this.parked.set(job.project, set);
  }

  /** A delivery of `project` ended: its deferred jobs may go now (the one they waited for may be this one). */
  private wakeParked(project: string): void {
    const set = this.parked.get(project);
    if (!set) return;
    for (const job of [...set]) job.wake?.();
    this.parked.delete(project);
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

function eventBridgeEvent(e: BusEvent): EventBridgeEvent<string, BusEvent> {
  return {
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
}

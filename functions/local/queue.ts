// In-process stand-in for SQS: the same worker handler, SQS-shaped events, bounded concurrency shared fairly between
// projects, a time budget per delivery (the run deadline), redelivery after a failure and a dead-letter step after
// maxReceives, like the cloud queue's redrive policy.
import { randomUUID } from 'node:crypto';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { QueuePort, ReplayMessage } from '../core/ports';
import { DEADLINE_MARGIN_MS } from '../core/replay/deadline';
import { logger } from '../wiring/logger';
import { AdaptiveLimit, type AdaptiveLimitOptions } from './adaptive-limit';

type SqsHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

interface Message {
  messageId: string;
  /** The project whose run it carries: the unit of fairness. */
  projectId: string;
  body: string;
  receiveCount: number;
  sentAt: number;
  visibleAt: number;
}

export interface InProcessQueueOptions {
  /** The worker handler (functions/workers/replay-worker). */
  worker: () => SqsHandler;
  /** The dead-letter consumer (functions/workers/dead-letter). */
  deadLetter: () => SqsHandler;
  /**
   * Messages processed at once: a number fixes it; omitted, the limit follows the queue's throughput between
   * `adaptive.min` and `adaptive.max` (default 8..64, starting at 16; local/adaptive-limit.ts), so runs against a slow
   * agent overlap more and CPU-bound runs do not crowd the API.
   */
  concurrency?: number;
  adaptive?: AdaptiveLimitOptions;
  /** Time between two adjustments of an adaptive limit, ms. Default 250. */
  adjustEveryMs?: number;
  /** Receives before a message goes to the dead-letter consumer. Default 3 (the stack's maxReceiveCount). */
  maxReceives?: number;
  /** Delay before a failed message becomes visible again, ms. Default 1000 (the cloud waits the visibility timeout). */
  redeliveryDelayMs?: number;
  /**
   * Slots above the limit kept for projects that have fewer than this many messages in flight, so one project's runs
   * stuck on an agent that never answers cannot keep another project's runs waiting. Default a quarter of the
   * limit, at least 1.
   */
  reservedSlots?: (limit: number) => number;
  /**
   * The run deadline, ms: each delivery's time budget (the worker ends the run's unfinished attempts at it, as a
   * Lambda worker does at its remaining time). Default RTS_RUN_DEADLINE_MS, else DEFAULT_RUN_DEADLINE_MS.
   */
  runDeadlineMs?: number;
}

/** The local run deadline when RTS_RUN_DEADLINE_MS is unset: 15 minutes, Lambda's longest invocation. */
export const DEFAULT_RUN_DEADLINE_MS = 900_000;

/** RTS_RUN_DEADLINE_MS: a whole number of ms from 1,000 to 86,400,000, else the default. */
export function runDeadlineFromEnv(): number {
  const raw = process.env.RTS_RUN_DEADLINE_MS;
  if (raw === undefined || raw === '') return DEFAULT_RUN_DEADLINE_MS;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1000 || n > 86_400_000)
    throw new Error(`RTS_RUN_DEADLINE_MS must be a whole number of ms from 1000 to 86400000, got "${raw}"`);
  return n;
}

/** A quarter of the limit, at least one slot. */
const defaultReserved = (limit: number): number => Math.max(1, Math.ceil(limit / 4));

/** The project of a message body (`project_id`), '' when it cannot be read (the worker drops such a body). */
function projectOf(body: string): string {
  try {
    const id = (JSON.parse(body) as { project_id?: unknown }).project_id;
    return typeof id === 'string' ? id : '';
  } catch {
    return '';
  }
}

/**
 * Local runs of the handlers stay quiet and untraced: no EMF metric lines in the service's output (CloudWatch is not
 * there to read them) and no X-Ray; set POWERTOOLS_METRICS_DISABLED=false before start-up to see the metrics anyway.
 * Called when the local queue, bus and gateway are built, before any handler is loaded.
 */
export function quietLocalTelemetry(): void {
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
  process.env.POWERTOOLS_TRACE_ENABLED ??= 'false';
}

/** A Lambda context for a local invocation; `budgetMs` is what getRemainingTimeInMillis counts down from. */
export function lambdaContext(functionName: string, budgetMs = 900000): Context {
  const started = Date.now();
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, budgetMs - (Date.now() - started)),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

export class InProcessQueue implements QueuePort {
  /** Messages waiting, per project, each list in arrival order (redelivered ones at its end). */
  private readonly pending = new Map<string, Message[]>();
  private pendingCount = 0;
  /** Messages in flight per project. */
  private readonly running = new Map<string, number>();
  /** Projects with waiting messages, in the order they are served (round-robin from `cursor`). */
  private order: string[] = [];
  private cursor = 0;
  private inflight = 0;
  /** Of those, the messages that took a reserved slot. */
  private inReserved = 0;
  private closed = false;
  private closing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private idleWaiters: (() => void)[] = [];
  /** Counts, the time spent in the worker and dead-letter handlers (ms), and the highest limit reached. */
  readonly stats = { sent: 0, received: 0, failed: 0, deadLettered: 0, workerMs: 0, deadLetterMs: 0, peakLimit: 0, abandoned: 0 };
  private readonly adaptive: AdaptiveLimit | undefined;
  private adjuster: NodeJS.Timeout | undefined;
  /**
   * Since the last adjustment (at windowStart): whether a message waited for a slot, and the messages in flight
   * integrated over time (message-ms, counted up to inflightSince).
   */
  private demand = false;
  private windowStart = 0;
  private inflightMs = 0;
  private inflightSince = 0;
  private readonly runDeadlineMs: number;

  constructor(private readonly opts: InProcessQueueOptions) {
    quietLocalTelemetry();
    this.runDeadlineMs = opts.runDeadlineMs ?? runDeadlineFromEnv();
    if (opts.concurrency === undefined) this.adaptive = new AdaptiveLimit(opts.adaptive);
    this.stats.peakLimit = this.limit;
  }

  /** Messages processed at once right now. */
  get limit(): number {
    return this.adaptive?.limit ?? this.opts.concurrency!;
  }

  /** The slots above the limit kept for projects with few messages in flight (see reservedSlots). */
  get reserved(): number {
    return Math.max(0, Math.floor((this.opts.reservedSlots ?? defaultReserved)(this.limit)));
  }

  /**
   * Which slot a message of a project with `mine` messages in flight may take now, if any: any project a slot of the
   * limit, up to the whole limit; with those all taken, only a project holding fewer messages than there are reserved
   * slots one of the reserved slots. The reserved slots are a pool of their own, so a limit that shrank below the
   * messages one project holds (its runs hanging on an agent) still leaves them to the others.
   */
  private slotFor(mine: number): 'limit' | 'reserved' | null {
    const limit = this.limit;
    if (mine >= limit) return null;
    if (this.inflight - this.inReserved < limit) return 'limit';
    const reserved = this.reserved;
    return mine < reserved && this.inReserved < reserved ? 'reserved' : null;
  }

  /** Adjusts an adaptive limit every adjustEveryMs while there is work; stops when the queue is idle. */
  private startAdjusting(): void {
    if (!this.adaptive || this.adjuster) return;
    this.adaptive.restart();
    this.demand = false;
    this.windowStart = this.inflightSince = performance.now();
    this.inflightMs = 0;
    this.adjuster = setInterval(() => {
      const now = this.countInflight();
      this.adaptive!.adjust({ demand: this.demand, inflightMs: this.inflightMs, ms: now - this.windowStart });
      this.demand = false;
      this.inflightMs = 0;
      this.windowStart = now;
      this.stats.peakLimit = Math.max(this.stats.peakLimit, this.limit);
      if (this.inflight === 0 && this.pendingCount === 0) this.stopAdjusting();
      else this.pump();
    }, this.opts.adjustEveryMs ?? 250);
    this.adjuster.unref();
  }

  /** Adds the messages in flight since the last count to the window's integral; returns now. */
  private countInflight(): number {
    const now = performance.now();
    this.inflightMs += this.inflight * (now - this.inflightSince);
    this.inflightSince = now;
    return now;
  }

  private stopAdjusting(): void {
    if (this.adjuster) clearInterval(this.adjuster);
    this.adjuster = undefined;
  }

  async sendReplay(messages: ReplayMessage[], options: { delaySeconds?: number } = {}): Promise<void> {
    if (this.closed) throw new Error('queue is closed');
    const now = Date.now();
    const visibleAt = now + Math.min(900, Math.max(0, options.delaySeconds ?? 0)) * 1000;
    for (const m of messages) {
      const body = JSON.stringify(m);
      this.enqueue({ messageId: randomUUID(), projectId: projectOf(body), body, receiveCount: 0, sentAt: now, visibleAt });
      this.stats.sent++;
    }
    this.startAdjusting();
    setImmediate(() => this.pump());
  }

  private enqueue(m: Message): void {
    let list = this.pending.get(m.projectId);
    if (!list) {
      this.pending.set(m.projectId, (list = []));
      this.order.push(m.projectId);
    }
    list.push(m);
    this.pendingCount++;
  }

  /**
   * The next message to start: the projects take turns (round-robin), each skipped while it may not start one (see
   * slotFor); within a project, the oldest visible message, and the slot it takes. Null when no project may start one now.
   */
  private takeNext(now: number): { m: Message; slot: 'limit' | 'reserved' } | null {
    for (let k = 0; k < this.order.length; k++) {
      const i = (this.cursor + k) % this.order.length;
      const project = this.order[i];
      const slot = this.slotFor(this.running.get(project) ?? 0);
      if (!slot) continue;
      const list = this.pending.get(project)!;
      const idx = list.findIndex((m) => m.visibleAt <= now);
      if (idx < 0) continue;
      const [m] = list.splice(idx, 1);
      this.pendingCount--;
      this.cursor = i + 1;
      if (list.length === 0) {
        this.pending.delete(project);
        this.order.splice(i, 1);
        this.cursor = i;
      }
      if (this.cursor >= this.order.length) this.cursor = 0;
      return { m, slot };
    }
    return null;
  }

  private record(m: Message): SQSRecord {
    return {
      messageId: m.messageId,
      receiptHandle: `${m.messageId}:${m.receiveCount}`,
      body: m.body,
      attributes: {
        ApproximateReceiveCount: String(m.receiveCount),
        SentTimestamp: String(m.sentAt),
        SenderId: 'local',
        ApproximateFirstReceiveTimestamp: String(m.sentAt),
      },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:local:000000000000:rts-replay',
      awsRegion: 'local',
    };
  }

  private pump(): void {
    if (this.closed) return;
    const now = Date.now();
    for (;;) {
      const next = this.takeNext(now);
      if (!next) break;
      const { m, slot } = next;
      this.countInflight();
      this.inflight++;
      if (slot === 'reserved') this.inReserved++;
      const startedAt = performance.now();
      this.running.set(m.projectId, (this.running.get(m.projectId) ?? 0) + 1);
      void this.process(m).finally(() => {
        this.adaptive?.observe(startedAt, this.countInflight());
        this.inflight--;
        if (slot === 'reserved') this.inReserved--;
        const left = (this.running.get(m.projectId) ?? 1) - 1;
        if (left > 0) this.running.set(m.projectId, left);
        else this.running.delete(m.projectId);
        this.pump();
        this.checkIdle();
      });
    }
    // Work that could not start (the limit or a project's share) is demand for a higher limit.
    let next = Infinity;
    for (const list of this.pending.values()) {
      for (const m of list) {
        if (m.visibleAt <= now) this.demand = true;
        else next = Math.min(next, m.visibleAt);
      }
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    // Visible messages waiting for a slot start when one frees; a timer only for messages not visible yet.
    if (Number.isFinite(next)) this.timer = setTimeout(() => this.pump(), Math.max(1, next - Date.now()));
  }

  private async process(m: Message): Promise<void> {
    m.receiveCount++;
    this.stats.received++;
    let failed = false;
    const started = performance.now();
    try {
      const context = lambdaContext('rts-replay-worker', this.runDeadlineMs + DEADLINE_MARGIN_MS);
      const res = await this.opts.worker()({ Records: [this.record(m)] }, context);
      failed = !!res && res.batchItemFailures.some((f) => f.itemIdentifier === m.messageId);
    } catch (err) {
      logger.warn('replay worker threw', { error: err as Error, messageId: m.messageId });
      failed = true;
    } finally {
      this.stats.workerMs += performance.now() - started;
    }
    if (!failed || this.closed) return;
    this.stats.failed++;
    if (m.receiveCount >= (this.opts.maxReceives ?? 3)) {
      this.stats.deadLettered++;
      const dlStarted = performance.now();
      try {
        await this.opts.deadLetter()({ Records: [this.record(m)] }, lambdaContext('rts-dead-letter'));
      } catch (err) {
        logger.error('dead-letter consumer failed', { error: err as Error, messageId: m.messageId });
      } finally {
        this.stats.deadLetterMs += performance.now() - dlStarted;
      }
      return;
    }
    m.visibleAt = Date.now() + (this.opts.redeliveryDelayMs ?? 1000);
    this.enqueue(m);
  }

  private checkIdle(): void {
    if (this.inflight === 0 && this.pendingCount === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const w of waiters) w();
    }
  }

  /** Resolves when no message is pending or in flight. */
  drain(): Promise<void> {
    if (this.inflight === 0 && this.pendingCount === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Stops taking new work; pending messages are dropped (the local queue is not durable: the next start queues their
   * unfinished runs again). Waits for the messages in flight, at most `abandonAfterMs` (default: as long as they take);
   * past it they are abandoned as a crash would abandon them: their runs stay `running` with the attempts stored so
   * far, and the next start resumes them. Idempotent.
   */
  close(opts: { abandonAfterMs?: number } = {}): Promise<void> {
    this.closing ??= this.shut(opts.abandonAfterMs ?? Infinity);
    return this.closing;
  }

  private async shut(abandonAfterMs: number): Promise<void> {
    this.closed = true;
    this.stopAdjusting();
    if (this.timer) clearTimeout(this.timer);
    const giveUpAt = Date.now() + abandonAfterMs;
    while (this.inflight > 0 && Date.now() < giveUpAt) await new Promise((r) => setTimeout(r, 10));
    this.stats.abandoned = this.inflight;
  }

  get depth(): number {
    return this.pendingCount + this.inflight;
  }
}

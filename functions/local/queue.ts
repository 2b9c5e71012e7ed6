// In-process stand-in for SQS: the same worker handler, SQS-shaped events, bounded concurrency,
// redelivery after a failure and a dead-letter step after maxReceives, like the cloud queue's redrive policy.
import { randomUUID } from 'node:crypto';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { QueuePort, ReplayMessage } from '../ports';
import { logger } from '../shared/logger';
import { AdaptiveLimit, type AdaptiveLimitOptions } from './adaptive-limit';

type SqsHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

interface Message {
  messageId: string;
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
   * Messages processed at once: a number fixes it; omitted, the limit adapts to the event loop's load between
   * `adaptive.min` and `adaptive.max` (default 8..32, starting at 8), so runs against a slow agent overlap more.
   */
  concurrency?: number;
  adaptive?: AdaptiveLimitOptions;
  /** Time between two adjustments of an adaptive limit, ms. Default 250. */
  adjustEveryMs?: number;
  /** Receives before a message goes to the dead-letter consumer. Default 3 (the stack's maxReceiveCount). */
  maxReceives?: number;
  /** Delay before a failed message becomes visible again, ms. Default 1000 (the cloud waits the visibility timeout). */
  redeliveryDelayMs?: number;
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

export function lambdaContext(functionName: string): Context {
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
    getRemainingTimeInMillis: () => Math.max(0, 900000 - (Date.now() - started)),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

export class InProcessQueue implements QueuePort {
  private readonly pending: Message[] = [];
  private inflight = 0;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;
  private idleWaiters: (() => void)[] = [];
  /** Counts, the time spent in the worker and dead-letter handlers (ms), and the highest limit reached. */
  readonly stats = { sent: 0, received: 0, failed: 0, deadLettered: 0, workerMs: 0, deadLetterMs: 0, peakLimit: 0 };
  private readonly adaptive: AdaptiveLimit | undefined;
  private adjuster: NodeJS.Timeout | undefined;
  /** Whether a message waited for a slot since the last adjustment. */
  private demand = false;

  constructor(private readonly opts: InProcessQueueOptions) {
    quietLocalTelemetry();
    if (opts.concurrency === undefined) this.adaptive = new AdaptiveLimit(opts.adaptive);
    this.stats.peakLimit = this.limit;
  }

  /** Messages processed at once right now. */
  get limit(): number {
    return this.adaptive?.limit ?? this.opts.concurrency!;
  }

  /** Adjusts an adaptive limit every adjustEveryMs while there is work; stops when the queue is idle. */
  private startAdjusting(): void {
    if (!this.adaptive || this.adjuster) return;
    this.adaptive.adjust(false); // starts a fresh measurement window
    this.adjuster = setInterval(() => {
      this.adaptive!.adjust(this.demand);
      this.demand = false;
      this.stats.peakLimit = Math.max(this.stats.peakLimit, this.limit);
      if (this.inflight === 0 && this.pending.length === 0) this.stopAdjusting();
      else this.pump();
    }, this.opts.adjustEveryMs ?? 250);
    this.adjuster.unref();
  }

  private stopAdjusting(): void {
    if (this.adjuster) clearInterval(this.adjuster);
    this.adjuster = undefined;
  }

  async sendReplay(messages: ReplayMessage[]): Promise<void> {
    if (this.closed) throw new Error('queue is closed');
    const now = Date.now();
    for (const m of messages) {
      this.pending.push({ messageId: randomUUID(), body: JSON.stringify(m), receiveCount: 0, sentAt: now, visibleAt: now });
      this.stats.sent++;
    }
    this.startAdjusting();
    setImmediate(() => this.pump());
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
    const limit = this.limit;
    const now = Date.now();
    while (this.inflight < limit) {
      const idx = this.pending.findIndex((m) => m.visibleAt <= now);
      if (idx < 0) break;
      const [m] = this.pending.splice(idx, 1);
      this.inflight++;
      void this.process(m).finally(() => {
        this.inflight--;
        this.pump();
        this.checkIdle();
      });
    }
    if (this.inflight >= limit && this.pending.some((m) => m.visibleAt <= now)) this.demand = true;
    const next = this.pending.reduce((min, m) => Math.min(min, m.visibleAt), Infinity);
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (Number.isFinite(next) && this.inflight < limit) {
      this.timer = setTimeout(() => this.pump(), Math.max(1, next - Date.now()));
    }
  }

  private async process(m: Message): Promise<void> {
    m.receiveCount++;
    this.stats.received++;
    let failed = false;
    const started = performance.now();
    try {
      const res = await this.opts.worker()({ Records: [this.record(m)] }, lambdaContext('rts-replay-worker'));
      failed = !!res && res.batchItemFailures.some((f) => f.itemIdentifier === m.messageId);
    } catch (err) {
      logger.warn('replay worker threw', { error: err as Error, messageId: m.messageId });
      failed = true;
    } finally {
      this.stats.workerMs += performance.now() - started;
    }
    if (!failed) return;
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
    this.pending.push(m);
  }

  private checkIdle(): void {
    if (this.inflight === 0 && this.pending.length === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const w of waiters) w();
    }
  }

  /** Resolves when no message is pending or in flight. */
  drain(): Promise<void> {
    if (this.inflight === 0 && this.pending.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops taking new work and waits for messages in flight; pending ones are dropped (the local queue is not durable). */
  async close(): Promise<void> {
    this.closed = true;
    this.stopAdjusting();
    if (this.timer) clearTimeout(this.timer);
    while (this.inflight > 0) await new Promise((r) => setTimeout(r, 10));
  }

  get depth(): number {
    return this.pending.length + this.inflight;
  }
}

// Partial-failure retry and batching shared by the batch publishers (PutEvents, SendMessageBatch): re-send only what failed, bounded, with back-off.
import { createLimiter } from '../core/concurrency';
import { exponentialDelays, realSleep, tries } from '../core/retry';

export interface RetryOptions {
  /** Calls per batch, the first included. Default 4. */
  maxAttempts?: number;
  /** Back-off before retry n is baseDelayMs * 2^(n-1). Default 100 ms. */
  baseDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface FailedItem<T> {
  item: T;
  reason: string;
  /** false for failures a retry cannot fix (the sender's fault): they fail at once. */
  retryable: boolean;
}

/** Splits into batches of at most `size` entries and, when `bytes` is given, at most `maxBytes` in total. */
export function chunk<T>(items: T[], size: number, bytes?: (item: T) => number, maxBytes = Infinity): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  let total = 0;
  for (const item of items) {
    const b = bytes ? bytes(item) : 0;
    if (current.length > 0 && (current.length >= size || total + b > maxBytes)) {
      out.push(current);
      current = [];
      total = 0;
    }
    current.push(item);
    total += b;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** Runs `fn` over the items with at most `limit` in flight; rejects with the first error once all have settled. */
export async function forEachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  const run = createLimiter(Math.max(1, limit));
  const settled = await Promise.allSettled(items.map((item) => run(() => fn(item))));
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * Calls `send` with the batch, then again with just the entries it reports failed, until none fail or attempts run
 * out; then throws an error naming how many entries failed and why. Errors thrown by `send` itself propagate.
 */
export async function retryFailed<T>(what: string, batch: T[], opts: RetryOptions, send: (pending: T[]) => Promise<FailedItem<T>[]>): Promise<void> {
  const delays = exponentialDelays(opts.baseDelayMs ?? 100, (opts.maxAttempts ?? 4) - 1);
  let pending = batch;
  let failed: FailedItem<T>[] = [];
  let attempts = 0;
  for await (const _try of tries(delays, opts.sleep ?? realSleep)) {
    attempts++;
    failed = await send(pending);
    if (failed.length === 0) return;
    if (failed.some((f) => !f.retryable)) break;
    pending = failed.map((f) => f.item);
  }
  const fatal = failed.filter((f) => !f.retryable);
  const shown = (fatal.length > 0 ? fatal : failed).slice(0, 3).map((f) => f.reason);
  throw new Error(`${what}: ${failed.length} of ${batch.length} entries still failed after ${attempts} attempt(s) (${shown.join('; ')})`);
}

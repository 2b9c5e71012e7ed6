// Partial-failure retry and batching shared by the batch publishers (PutEvents, SendMessageBatch): re-send only what failed, bounded, with back-off.

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
  let next = 0;
  const errors: unknown[] = [];
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      try {
        await fn(item);
      } catch (err) {
        errors.push(err);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (errors.length > 0) throw errors[0];
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Calls `send` with the batch, then again with just the entries it reports failed, until none fail or attempts run
 * out; then throws an error naming how many entries failed and why. Errors thrown by `send` itself propagate.
 */
export async function retryFailed<T>(
  what: string,
  batch: T[],
  opts: RetryOptions,
  send: (pending: T[]) => Promise<FailedItem<T>[]>,
): Promise<void> {
  const maxAttempts = opts.maxAttempts ?? 4;
  const sleep = opts.sleep ?? defaultSleep;
  let pending = batch;
  for (let attempt = 1; ; attempt++) {
    const failed = await send(pending);
    if (failed.length === 0) return;
    const fatal = failed.filter((f) => !f.retryable);
    if (fatal.length > 0 || attempt >= maxAttempts) {
      const shown = (fatal.length > 0 ? fatal : failed).slice(0, 3).map((f) => f.reason);
      throw new Error(`${what}: ${failed.length} of ${batch.length} entries still failed after ${attempt} attempt(s) (${shown.join('; ')})`);
    }
    await sleep((opts.baseDelayMs ?? 100) * 2 ** (attempt - 1));
    pending = failed.map((f) => f.item);
  }
}

// The one concurrency limiter: at most `limit` tasks in flight (the executor's attempts, the local bus's deliveries).

/** A limiter: `run(fn)` starts `fn` when fewer than `limit` tasks run, else when one ends (first come, first served). */
export function createLimiter(limit: number): <T>(fn: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await fn();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

/**
 * Calls `fn` for each item, at most `limit` at a time. After the first failure no new item starts; the items in
 * flight are allowed to finish, then the first error is rethrown.
 */
export async function runBounded<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  const run = createLimiter(Math.max(1, limit));
  let failure: { err: unknown } | undefined;
  await Promise.all(
    items.map((item) =>
      run(async () => {
        if (failure) return;
        try {
          await fn(item);
        } catch (err) {
          failure ??= { err };
        }
      }),
    ),
  );
  if (failure) throw failure.err;
}

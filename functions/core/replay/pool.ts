// Bounded concurrency: runs async work over items with at most `limit` in flight.

/**
 * Calls `fn` for each item, at most `limit` at a time. After the first failure no new item starts; the items in
 * flight are allowed to finish, then the first error is rethrown.
 */
export async function runBounded<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  let failure: unknown;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const item = items[next++];
      try {
        await fn(item);
      } catch (err) {
        if (!failed) {
          failed = true;
          failure = err;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failed) throw failure;
}

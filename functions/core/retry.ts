// The one retry schedule mechanism: every retry loop of the service (agent targets, webhook tries, batch writes,
// the local bus, the API client) walks a fixed list of waits, so each schedule stays exactly as documented.

/**
 * The tries of a schedule: yields 0, 1, ..., delaysMs.length, waiting `delaysMs[i - 1]` before try i. The caller
 * breaks out on success (or on a final failure); running off the end means every try was used.
 */
export async function* tries(delaysMs: readonly number[], sleep: (ms: number) => Promise<void>): AsyncGenerator<number> {
  for (let i = 0; i <= delaysMs.length; i++) {
    if (i > 0) await sleep(delaysMs[i - 1]);
    yield i;
  }
}

/** Waits growing by factor 2 from `firstMs`, capped at `capMs`: exponentialDelays(50, 3) = [50, 100, 200]. */
export function exponentialDelays(firstMs: number, count: number, capMs = Infinity): number[] {
  return Array.from({ length: count }, (_, i) => Math.min(firstMs * 2 ** i, capMs));
}

export const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

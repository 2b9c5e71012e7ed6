// The in-process target limiter of the local runtime: freed turns go to the longest waiter, a waiter asks again
// after a slice, requests_per_minute is a sliding minute, and keys and projects are apart.
import { processLimiter, WAIT_SLICE_MS } from '../../../../../functions/core/replay/limits/process-limiter';

describe('process limiter', () => {
  it('hands a freed turn to the longest waiter', async () => {
    // Prepare
    const limiter = processLimiter();
    const first = await limiter.acquire('p', 'k', { maxConcurrency: 1 }, 'a', 0);
    if (!('slot' in first)) throw new Error('expected a slot');
    const order: string[] = [];
    const b = limiter.acquire('p', 'k', { maxConcurrency: 1 }, 'b', 0).then((r) => (order.push('b'), r));
    const c = limiter.acquire('p', 'k', { maxConcurrency: 1 }, 'c', 0).then((r) => (order.push('c'), r));
    // Act
    await limiter.release(first.slot);
    const got = await b;
    if ('slot' in got) await limiter.release(got.slot);
    await c;
    // Assess
    expect(order).toEqual(['b', 'c']);
  });

  it('answers "ask again" after a slice when no turn frees, and keeps other keys and projects apart', async () => {
    jest.useFakeTimers();
    try {
      const limiter = processLimiter();
      await limiter.acquire('p', 'k', { maxConcurrency: 1 }, 'a', 0);
      const waiting = limiter.acquire('p', 'k', { maxConcurrency: 1 }, 'b', 0);
      expect('slot' in (await limiter.acquire('p', 'other', { maxConcurrency: 1 }, 'c', 0))).toBe(true);
      expect('slot' in (await limiter.acquire('q', 'k', { maxConcurrency: 1 }, 'd', 0))).toBe(true);
      jest.advanceTimersByTime(WAIT_SLICE_MS);
      expect(await waiting).toEqual({ waitMs: 0 });
    } finally {
      jest.useRealTimers();
    }
  });

  it('starts at most requests_per_minute in any minute and says when the oldest leaves it', async () => {
    let t = 1_000_000;
    const limiter = processLimiter(() => t);
    for (let i = 0; i < 3; i++) {
      expect('slot' in (await limiter.acquire('p', 'k', { requestsPerMinute: 3 }, `h${i}`, 0))).toBe(true);
      t += 10_000;
    }
    expect(await limiter.acquire('p', 'k', { requestsPerMinute: 3 }, 'h3', 0)).toEqual({ waitMs: 30_000 });
    t += 30_000;
    expect('slot' in (await limiter.acquire('p', 'k', { requestsPerMinute: 3 }, 'h4', 0))).toBe(true);
  });
});

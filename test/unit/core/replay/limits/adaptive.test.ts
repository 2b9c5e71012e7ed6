// Slowing down before the 429 (docs/campaigns-and-replay.md#limits-and-429): the providers' rate-limit headers read as
// a pause, and the process limiter's concurrency adapting to 429s (halved, then raised back by one per round, never
// above max_concurrency).
import { durationMs, rateLimitPauseMs } from '../../../../../functions/core/replay/limits/headers';
import { processLimiter } from '../../../../../functions/core/replay/limits/process-limiter';
import type { LimiterSlot } from '../../../../../functions/core/ports';

const NOW = Date.parse('2026-11-27T05:00:00Z');

describe('rate-limit headers', () => {
  it('reads OpenAI reset durations', () => {
    expect([durationMs('1s'), durationMs('6m0s'), durationMs('20ms'), durationMs('1.5s'), durationMs('1h2m'), durationMs('soon')]).toEqual([
      1000,
      360_000,
      20,
      1500,
      3_720_000,
      null,
    ]);
  });

  it('pauses until the reset of a spent quota, from OpenAI, Anthropic and IETF headers, and not before it is spent', () => {
    expect(rateLimitPauseMs({ 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '2s' }, NOW)).toBe(2000);
    expect(rateLimitPauseMs({ 'X-RateLimit-Remaining-Tokens': '0', 'X-RateLimit-Reset-Tokens': '1m30s' }, NOW)).toBe(90_000);
    expect(
      rateLimitPauseMs({ 'anthropic-ratelimit-requests-remaining': '0', 'anthropic-ratelimit-requests-reset': '2026-11-27T05:00:07Z' }, NOW),
    ).toBe(7000);
    expect(rateLimitPauseMs({ RateLimit: 'limit=100, remaining=0, reset=30' }, NOW)).toBe(30_000);
    expect(rateLimitPauseMs({ RateLimit: '"default";r=0;t=12' }, NOW)).toBe(12_000);
    expect(rateLimitPauseMs({ 'x-ratelimit-remaining-requests': '3', 'x-ratelimit-reset-requests': '2s', RateLimit: 'r=5;t=9' }, NOW)).toBeNull();
    expect(rateLimitPauseMs({}, NOW)).toBeNull();
  });
});

describe('process limiter, adaptive', () => {
  const limits = { maxConcurrency: 8 };
  /** How many turns can be held at once (each taken, the asker that found none gone, then all given back). */
  async function turns(l: ReturnType<typeof processLimiter>, n: number): Promise<number> {
    const slots: LimiterSlot[] = [];
    for (let i = 0; i < n; i++) {
      const a = await Promise.race([l.acquire('p', 'k', limits, `h${i}`, 0), new Promise<null>((r) => setTimeout(() => r(null), 20))]);
      if (a && 'slot' in a) slots.push(a.slot);
      else break;
    }
    await new Promise((r) => setTimeout(r, 1100)); // the refused asker's wait ends (WAIT_SLICE_MS) before turns free
    for (const s of slots) await l.release(s);
    return slots.length;
  }

  it('halves its concurrency on a 429 (once per burst), raises it back by about one per round, never above max_concurrency', async () => {
    let t = NOW;
    const l = processLimiter(() => t);
    // Act: a burst of 429s, another a while later, then rounds of successes (+1/cap each)
    l.observe!('p', 'k', limits, { throttled: true, pauseMs: null });
    l.observe!('p', 'k', limits, { throttled: true, pauseMs: null });
    const afterBurst = await turns(l, 8);
    t += 1500;
    l.observe!('p', 'k', limits, { throttled: true, pauseMs: null });
    const afterSecond = await turns(l, 8);
    for (let i = 0; i < 3; i++) l.observe!('p', 'k', limits, { throttled: false, pauseMs: null });
    const recovering = await turns(l, 8);
    for (let i = 0; i < 200; i++) l.observe!('p', 'k', limits, { throttled: false, pauseMs: null });
    const recovered = await turns(l, 10);
    // Assess
    expect([afterBurst, afterSecond, recovering, recovered]).toEqual([4, 2, 3, 8]);
  }, 15_000);

  it('gives no turn while a spent quota pauses the key', async () => {
    let t = NOW;
    const l = processLimiter(() => t);
    l.observe!('p', 'k', limits, { throttled: false, pauseMs: 5000 });
    expect(await l.acquire('p', 'k', limits, 'h', 0)).toEqual({ waitMs: 5000 });
    t += 5000;
    expect(await l.acquire('p', 'k', limits, 'h', 0)).toMatchObject({ slot: { key: 'k' } });
  });
});

// The table-backed target limiter against dynalite, two limiter instances over their own repositories standing for
// two worker containers: max_concurrency holds across both, a slot whose holder died frees at its lease's end, and
// requests_per_minute is a sliding one-minute window (a sliding-window counter over two fixed windows).
import { DynamoLeasesRepo } from '../../../../../functions/adapters/dynamodb/leases-repo';
import { DynamoRateLimitsRepo } from '../../../../../functions/adapters/dynamodb/rate-limits-repo';
import { limiterGate } from '../../../../../functions/core/replay/limits/gate';
import { tableLimiter } from '../../../../../functions/core/replay/limits/table-limiter';
import { newMeter, throttlePolicy } from '../../../../../functions/core/replay/targets/throttle';
import { realSleep } from '../../../../../functions/core/retry';
import { startDynalite, type TestTable } from '../../../../helpers/dynalite';

let table: TestTable;
beforeAll(async () => {
  table = await startDynalite();
});
afterAll(() => table.close());

const container = (now?: () => number) => tableLimiter({ leases: new DynamoLeasesRepo(), rateLimits: new DynamoRateLimitsRepo() }, now);

describe('table limiter', () => {
  it('never lets more than max_concurrency requests run at once across two containers', async () => {
    // Prepare: 30 requests, half through each container, 3 at a time allowed
    const gates = [container(), container()].map((limiter) =>
      limiterGate({ limiter, projectId: 'p-conc', key: 'k1', limits: { maxConcurrency: 3 }, timeoutMs: 5000, sleep: realSleep }),
    );
    let inFlight = 0;
    let peak = 0;
    const meters = Array.from({ length: 30 }, () => newMeter());
    // Act
    await Promise.all(
      meters.map(async (meter, i) => {
        const leave = await gates[i % 2].enter(throttlePolicy({ meter }));
        peak = Math.max(peak, ++inFlight);
        await realSleep(20);
        inFlight -= 1;
        await leave();
      }),
    );
    // Assess
    expect(peak).toBeLessThanOrEqual(3);
    expect(peak).toBeGreaterThanOrEqual(2);
    expect(meters.filter((m) => m.throttledMs > 0).length).toBeGreaterThan(0);
    expect(meters.every((m) => m.count === 0)).toBe(true);
  }, 30_000);

  it("frees the slot of a holder that died mid-call at its lease's end", async () => {
    // Prepare: container A takes the only slot for 300 ms and never releases it
    const a = container();
    const b = container();
    const taken = await a.acquire('p-dead', 'k2', { maxConcurrency: 1 }, 'dead-holder', Date.now() + 300);
    expect('slot' in taken).toBe(true);
    // Act
    const refused = await b.acquire('p-dead', 'k2', { maxConcurrency: 1 }, 'live-holder', Date.now() + 5000);
    await realSleep(350);
    const granted = await b.acquire('p-dead', 'k2', { maxConcurrency: 1 }, 'live-holder', Date.now() + 5000);
    // Assess
    expect(refused).toEqual({ waitMs: expect.any(Number) });
    expect('slot' in granted && granted.slot.lease).toBe(0);
  });

  it('starts at most requests_per_minute in a minute, across containers, then waits', async () => {
    // Prepare: 20 s into a minute
    const t = Date.UTC(2026, 10, 27, 3, 0, 20);
    const limiters = [container(() => t), container(() => t)];
    // Act
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => limiters[i % 2].acquire('p-rpm', 'k3', { requestsPerMinute: 5 }, `h${i}`, t + 5000)),
    );
    // Assess
    expect(answers.filter((a) => 'slot' in a)).toHaveLength(5);
    const waits = answers.flatMap((a) => ('waitMs' in a ? [a.waitMs] : []));
    expect(waits).toHaveLength(3);
    for (const w of waits) expect(w >= 40_000 && w < 41_000).toBe(true);
  });

  it('gives the concurrency slot back when the minute is spent', async () => {
    const t = Date.UTC(2026, 10, 27, 3, 1, 0);
    const limiter = container(() => t);
    const both = { maxConcurrency: 1, requestsPerMinute: 1 };
    const first = await limiter.acquire('p-both', 'k4', both, 'h1', t + 5000);
    if (!('slot' in first)) throw new Error('expected a slot');
    await limiter.release(first.slot);
    expect(await limiter.acquire('p-both', 'k4', both, 'h2', t + 5000)).toEqual({ waitMs: expect.any(Number) });
    // The refused request did not keep the lease: once the sliding minute no longer holds the first request, the slot is free.
    expect('slot' in (await container(() => t + 120_000).acquire('p-both', 'k4', both, 'h3', t + 125_000))).toBe(true);
  });

  it('slides: a burst at the end of one minute leaves no room at the start of the next, and room comes back as it slides', async () => {
    // Prepare: 10 requests 59 s into a minute, with requests_per_minute 10
    const w = Date.UTC(2026, 10, 27, 3, 10, 0);
    const rpm = { requestsPerMinute: 10 };
    const at = (ms: number, i: number) => container(() => w + ms).acquire('p-slide', 'k6', rpm, `h${i}`, w + ms + 5000);
    const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => at(59_000, i)));
    // Act: 1 s into the next minute (a fixed window would allow 10 more here), then half-way through it
    const early = await at(61_000, 10);
    const half = await Promise.all(Array.from({ length: 6 }, (_, i) => at(90_000, 20 + i)));
    // Assess
    expect(burst.every((a) => 'slot' in a)).toBe(true);
    expect(early).toEqual({ waitMs: expect.any(Number) });
    if (!('waitMs' in early)) throw new Error('expected a wait');
    expect(early.waitMs).toBeGreaterThanOrEqual(6000);
    expect(early.waitMs).toBeLessThan(7000);
    // Half of the previous minute's 10 still weigh: 5 may start, the sixth waits.
    expect(half.filter((a) => 'slot' in a)).toHaveLength(5);
  });

  it('halves the concurrency every container sees after a 429, climbing back by one slot every 2 s, and pauses on a spent quota', async () => {
    // Prepare: max_concurrency 4 on a fresh key, a 429 observed by one container
    const [a, b] = [container(), container()];
    const limits = { maxConcurrency: 4 };
    const free = async (key: string) => {
      const taken = [];
      for (let i = 0; i < 4; i++) {
        const r = await b.acquire('p-adapt', key, limits, `probe-${i}-${Date.now()}`, Date.now() + 60_000);
        if ('slot' in r) taken.push(r.slot);
      }
      for (const s of taken) await b.release(s);
      return taken.length;
    };
    // Act
    await a.observe!('p-adapt', 'k-aimd', limits, { throttled: true, pauseMs: null });
    const halved = await free('k-aimd');
    await realSleep(2300);
    const climbing = await free('k-aimd');
    await a.observe!('p-adapt', 'k-pause', limits, { throttled: false, pauseMs: 60_000 });
    const paused = await free('k-pause');
    // Assess
    expect([halved, climbing, paused]).toEqual([2, 3, 0]);
  }, 20_000);
});

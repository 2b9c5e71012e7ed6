// `rts ci run`'s status checks: the waits between them, and how late they see the end of batches of different paces.
import { MIN_POLL_MS, nextPollWait, remainingMs, type CheckProgress } from '../../../../functions/cli/ci/poll-timing';

const at = (atMs: number, fraction: number): CheckProgress => ({ atMs, fraction });

describe('rts ci run: time between status checks', () => {
  it('starts at 0.25 s and doubles while nothing is done, up to --poll-interval', () => {
    expect([0, 1, 2, 3, 4, 5].map((checks) => nextPollWait(5000, checks, at(checks * 100, 0)))).toEqual([250, 500, 1000, 2000, 4000, 5000]);
    expect([0, 1, 2].map((checks) => nextPollWait(5000, checks, null))).toEqual([250, 500, 1000]);
  });

  it('waits two thirds of the time the rest should take, within 0.25 s and --poll-interval', () => {
    // 60 % done in 6 s, no check before: the rest should take 4 s
    expect(remainingMs(at(6000, 0.6), null)).toBeCloseTo(4000, 6);
    expect(nextPollWait(5000, 10, at(6000, 0.6))).toBeCloseTo(8000 / 3, 6);
    // 99.9 % done: checks every 0.25 s, not faster
    expect(nextPollWait(5000, 10, at(6000, 0.999))).toBe(MIN_POLL_MS);
    // 1 % done in a minute: capped at --poll-interval
    expect(nextPollWait(5000, 10, at(60_000, 0.01))).toBe(5000);
  });

  it('goes by the pace since the check before when work got done in between, else by the pace since the first check', () => {
    // 20 % at 4 s, 60 % at 6 s: 20 % a second lately, so 2 s for the rest (the pace since the first check says 4 s)
    expect(remainingMs(at(6000, 0.6), at(4000, 0.2))).toBeCloseTo(2000, 6);
    expect(nextPollWait(5000, 10, at(6000, 0.6), at(4000, 0.2))).toBeCloseTo(4000 / 3, 6);
    // nothing done between the two: the pace since the first check
    expect(remainingMs(at(6000, 0.6), at(4000, 0.6))).toBeCloseTo(4000, 6);
  });

  it('checks again at once when every run is counted but the batch is not reported done yet', () => {
    expect(remainingMs(at(6000, 1), at(5000, 0.9))).toBe(0);
    expect(nextPollWait(5000, 10, at(6000, 1), at(5000, 0.9))).toBe(MIN_POLL_MS);
  });

  it('honours a --poll-interval shorter than 0.25 s', () => {
    expect(nextPollWait(50, 0, null)).toBe(50);
    expect(nextPollWait(50, 7, at(100, 0.5))).toBe(50);
  });
});

/**
 * A batch of `runs` runs whose fraction done at `t` ms is `curve(t / total)`, checked as `rts ci run` checks it: when
 * does the CLI see it done, after how many checks.
 */
function simulate(totalMs: number, curve: (x: number) => number, pollMs = 5000, runs = 1000) {
  const fractionAt = (t: number) => (t >= totalMs ? 1 : Math.floor(runs * Math.min(1, Math.max(0, curve(t / totalMs)))) / runs);
  let t = 0;
  let now: CheckProgress | null = null;
  let before: CheckProgress | null = null;
  for (let checks = 0; ; checks++) {
    const fraction = fractionAt(t);
    if (fraction >= 1) return { lateMs: t - totalMs, checks: checks + 1 };
    [before, now] = [now, at(t, fraction)];
    t += nextPollWait(pollMs, checks, now, before);
  }
}

describe('rts ci run: how late the checks see the end', () => {
  const curves: Record<string, (x: number) => number> = {
    'a steady pace': (x) => x,
    'a pace that picks up (the first runs warm everything up)': (x) => x ** 3,
    'nothing done for the first 40 %, then a steady pace': (x) => (x < 0.4 ? 0 : (x - 0.4) / 0.6),
    'a pace that slows down (stragglers)': (x) => Math.sqrt(x),
  };

  for (const [name, curve] of Object.entries(curves)) {
    it(`sees a 4 s batch done within 0.25 s of its end, in a dozen checks at most: ${name}`, () => {
      const { lateMs, checks } = simulate(4000, curve);
      expect(lateMs).toBeGreaterThanOrEqual(0);
      expect(lateMs).toBeLessThanOrEqual(MIN_POLL_MS);
      expect(checks).toBeLessThanOrEqual(12);
    });

    it(`checks a 10-minute batch about every --poll-interval, and sees its end within 0.25 s and one run's share of the time: ${name}`, () => {
      // The fraction moves a run at a time: when the last run ends within its share (0.6 s here) cannot be foreseen.
      const { lateMs, checks } = simulate(600_000, curve);
      expect(lateMs).toBeGreaterThanOrEqual(0);
      expect(lateMs).toBeLessThanOrEqual(MIN_POLL_MS + 600_000 / 1000);
      expect(checks).toBeLessThanOrEqual(600_000 / 5000 + 15);
    });
  }
});

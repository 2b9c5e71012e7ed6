import { MIN_POLL_MS, nextPollWait } from '../../../../functions/cli/ci/command';

describe('rts ci run: time between status checks', () => {
  it('starts at 0.25 s and doubles while nothing is done, up to --poll-interval', () => {
    const waits = [0, 1, 2, 3, 4, 5].map((checks) => nextPollWait(5000, checks, 0, 0));
    expect(waits).toEqual([250, 500, 1000, 2000, 4000, 5000]);
  });

  it('waits about the time the rest should take at the pace so far, within 0.25 s and --poll-interval', () => {
    // 60 % done in 6 s: the rest should take 4 s
    expect(nextPollWait(5000, 10, 6000, 0.6)).toBe(4000);
    // 99 % done: checks every 0.25 s, not faster
    expect(nextPollWait(5000, 10, 6000, 0.999)).toBe(MIN_POLL_MS);
    // 1 % done in a minute: capped at --poll-interval
    expect(nextPollWait(5000, 10, 60_000, 0.01)).toBe(5000);
  });

  it('honours a --poll-interval shorter than 0.25 s', () => {
    expect(nextPollWait(50, 0, 0, null)).toBe(50);
    expect(nextPollWait(50, 7, 100, 0.5)).toBe(50);
  });
});

// `rts ci run`'s status checks: how long to wait before the next one, from what the checks so far saw.

/** The shortest wait between two status checks, ms. */
export const MIN_POLL_MS = 250;

/**
 * The share of the remaining time the next check waits: short of the estimate, so a pace that picks up is not
 * overshot, and not much shorter, so a steady one costs few more checks (the status of a large batch reads every
 * finished run's marker). Simulated on batches of 4 s to 10 minutes: 2/3 sees each done within 0.25 s of its end (and
 * within one run's share of a 10-minute batch) in 0-2 checks more than waiting the whole estimate, which was up to
 * 1.75 s late; 1/2 took up to 4 more.
 */
const SHARE_OF_REST = 2 / 3;

/** What one status check saw: when it was answered (ms after the first check) and the fraction of the work done. */
export interface CheckProgress {
  atMs: number;
  fraction: number;
}

/**
 * The wait before the next status check: starting at MIN_POLL_MS (or --poll-interval if shorter) and doubling while
 * nothing is done; once part of the work is done, two thirds of the time the rest should take (remainingMs), so the
 * checks close in on the end instead of overshooting it when the pace picks up. Never longer than --poll-interval,
 * never shorter than MIN_POLL_MS: a short batch is seen done within a fraction of a second, a long one is checked every
 * --poll-interval until its end draws near.
 */
export function nextPollWait(pollMs: number, checks: number, now: CheckProgress | null, before: CheckProgress | null = null): number {
  const floor = Math.min(MIN_POLL_MS, pollMs);
  const backoff = floor * 2 ** Math.min(checks, 20);
  return Math.max(floor, Math.min(pollMs, backoff, remainingMs(now, before) * SHARE_OF_REST));
}

/**
 * The time the rest of the work should take: at the pace between the check `before` and the check `now` when work got
 * done between them (a batch speeds up once its first runs are through: the pace since the first check would
 * overestimate), else at the pace since the first check; 0 once everything is counted done, Infinity before anything
 * is.
 */
export function remainingMs(now: CheckProgress | null, before: CheckProgress | null): number {
  if (!now || now.fraction <= 0) return Infinity;
  if (now.fraction >= 1) return 0;
  const recent = before && now.fraction > before.fraction && now.atMs > before.atMs ? (now.fraction - before.fraction) / (now.atMs - before.atMs) : 0;
  const rate = recent > 0 ? recent : now.atMs > 0 ? now.fraction / now.atMs : 0;
  return rate > 0 ? (1 - now.fraction) / rate : Infinity;
}

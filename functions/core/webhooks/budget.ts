// The webhook send budget: how many deliveries one project may queue with test, resend and recover per minute,
// counted in the table (RateLimitsRepo) so the limit holds across every container; beyond it, 429 with Retry-After.
import { RateLimitedError } from '../errors';
import type { Clock } from '../time';
import type { RateLimitsRepo } from '../ports';

/** Deliveries a project may queue with test, resend and recover per minute (RTS_WEBHOOK_SENDS_PER_MINUTE). */
export const DEFAULT_SENDS_PER_MINUTE = 60;
/** The budget's window. */
export const SEND_WINDOW_S = 60;
const COUNTER = 'webhook-sends';

export interface SendBudgetDeps {
  rateLimits: RateLimitsRepo;
  clock: Clock;
  /** The per-minute budget; default DEFAULT_SENDS_PER_MINUTE. */
  sendsPerMinute?: number;
}

/**
 * Takes up to `want` (>= 1) deliveries from the project's budget of the current minute and returns how many it got;
 * throws a 429 rate_limited, with the seconds until the next window as Retry-After, when none is left.
 */
export async function takeSends(deps: SendBudgetDeps, projectId: string, want: number): Promise<number> {
  const limit = deps.sendsPerMinute ?? DEFAULT_SENDS_PER_MINUTE;
  const nowS = Math.floor(deps.clock.now().getTime() / 1000);
  const windowStart = nowS - (nowS % SEND_WINDOW_S);
  const got = await deps.rateLimits.take(projectId, COUNTER, windowStart, limit, want, windowStart + 2 * SEND_WINDOW_S);
  if (got > 0) return got;
  const retryAfterS = Math.max(1, windowStart + SEND_WINDOW_S - nowS);
  throw new RateLimitedError(
    `This project has queued its ${limit} webhook deliveries (test, resend, recover) for this minute; retry in ${retryAfterS} s.`,
    retryAfterS,
  );
}

// The per-target limits across every worker invocation (docs/campaigns-and-replay.md#limits-and-429): one expiring
// lease per request in flight (LeasesRepo: conditional puts on `max_concurrency` slot items, so a dead worker's slot
// frees itself at its lease's end) and a sliding one-minute window counted over two fixed windows (RateLimitsRepo: a
// conditional atomic ADD to the current one, bounded by what the previous one still weighs), both in the table, no
// transactions. The answers adapt the concurrency every container sees through the same
// slots: a 429 blocks half of the free slots with leases that end one every RECOVER_STEP_MS (multiplicative decrease,
// additive increase), and a spent quota in the rate-limit headers blocks them all until its reset.
import type { KeyLimits, LeasesRepo, LimitAnswer, LimiterSlot, RateLimitsRepo, TargetLimiter } from '../../ports';

/** How long a worker waits before asking again for a slot all of whose leases are held (plus as much jitter). */
export const LEASE_POLL_MS = 250;
const MINUTE_S = 60;
/** After a 429, a blocked slot frees every this many ms: the concurrency climbs back by one a step. */
export const RECOVER_STEP_MS = 2000;
/** One container blocks slots for a key at most once in this time (one burst of 429s is one signal). */
const DECREASE_EVERY_MS = 1000;

export const limitScope = (key: string): string => `target:${key}`;

export function tableLimiter(
  repos: { leases: LeasesRepo; rateLimits: RateLimitsRepo },
  now: () => number = Date.now,
  random: () => number = Math.random,
): TargetLimiter {
  const lastDecrease = new Map<string, number>();
  /** Occupies up to `n` free slots of the key with leases ending at `until(i)`. */
  const block = async (projectId: string, key: string, slots: number, n: number, until: (i: number) => number) => {
    const t = now();
    for (let i = 0; i < n; i++) {
      if ((await repos.leases.acquire(projectId, limitScope(key), slots, `adapt:${t}:${i}:${random()}`, t, until(i))) === null) return;
    }
  };
  const release = async (slot: LimiterSlot) => {
    if (slot.lease !== null) await repos.leases.release(slot.projectId, limitScope(slot.key), slot.lease, slot.holder);
  };
  return {
    async acquire(projectId: string, key: string, limits: KeyLimits, holder: string, leaseUntil: number) {
      const t = now();
      let lease: number | null = null;
      if (limits.maxConcurrency !== undefined) {
        lease = await repos.leases.acquire(projectId, limitScope(key), limits.maxConcurrency, holder, t, leaseUntil);
        if (lease === null) return { waitMs: LEASE_POLL_MS + Math.floor(random() * LEASE_POLL_MS) };
      }
      const slot: LimiterSlot = { projectId, key, holder, lease };
      if (limits.requestsPerMinute !== undefined) {
        const waitMs = await takeSliding(repos.rateLimits, projectId, limitScope(key), limits.requestsPerMinute, t, random);
        if (waitMs !== null) {
          await release(slot).catch(() => undefined);
          return { waitMs };
        }
      }
      return { slot };
    },
    release,
    async observe(projectId: string, key: string, limits: KeyLimits, answer: LimitAnswer) {
      const slots = limits.maxConcurrency;
      if (slots === undefined) return;
      const t = now();
      if (answer.pauseMs !== null && answer.pauseMs > 0) return block(projectId, key, slots, slots, () => t + answer.pauseMs!);
      if (!answer.throttled || t - (lastDecrease.get(`${projectId}/${key}`) ?? 0) < DECREASE_EVERY_MS) return;
      lastDecrease.set(`${projectId}/${key}`, t);
      await block(projectId, key, slots, Math.ceil(slots / 2), (i) => t + (i + 1) * RECOVER_STEP_MS);
    },
  };
}

/**
 * Takes one request from a sliding one-minute window: the current fixed window may hold `limit` less the previous
 * window's count weighted by how much of it the sliding minute still covers (the sliding-window counter: no burst of
 * twice the limit across a window boundary, as a fixed window allows). null when taken, else how long to wait (ms).
 */
async function takeSliding(
  rateLimits: RateLimitsRepo,
  projectId: string,
  name: string,
  limit: number,
  t: number,
  random: () => number,
): Promise<number | null> {
  const windowStart = Math.floor(t / 1000 / MINUTE_S) * MINUTE_S;
  const covered = 1 - (t / 1000 - windowStart) / MINUTE_S;
  const previous = await rateLimits.used(projectId, name, windowStart - MINUTE_S);
  const allowed = Math.floor(limit - previous * covered);
  if (allowed > 0 && (await rateLimits.take(projectId, name, windowStart, allowed, 1, windowStart + 2 * MINUTE_S)) > 0) return null;
  // Each second of the window frees a sixtieth of the previous one's weight; the next window starts afresh. Up to a
  // second of jitter, so the waiters do not all come back at the same instant.
  const untilNext = (windowStart + MINUTE_S) * 1000 - t;
  const step = previous > 0 ? Math.ceil((MINUTE_S * 1000) / previous) : untilNext;
  return Math.max(1, Math.min(untilNext, step)) + Math.floor(random() * 1000);
}

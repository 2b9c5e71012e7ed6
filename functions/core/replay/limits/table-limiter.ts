// The per-target limits across every worker invocation (docs/campaigns-and-replay.md#limits-and-429): one expiring
// lease per request in flight (LeasesRepo: conditional puts on `max_concurrency` slot items, so a dead worker's slot
// frees itself at its lease's end) and a counter per fixed one-minute window (RateLimitsRepo: a conditional atomic
// ADD), both in the table, no transactions.
import type { KeyLimits, LeasesRepo, LimiterSlot, RateLimitsRepo, TargetLimiter } from '../../ports';

/** How long a worker waits before asking again for a slot all of whose leases are held (plus as much jitter). */
export const LEASE_POLL_MS = 250;
const MINUTE_S = 60;

export const limitScope = (key: string): string => `target:${key}`;

export function tableLimiter(
  repos: { leases: LeasesRepo; rateLimits: RateLimitsRepo },
  now: () => number = Date.now,
  random: () => number = Math.random,
): TargetLimiter {
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
        const windowStart = Math.floor(t / 1000 / MINUTE_S) * MINUTE_S;
        const took = await repos.rateLimits.take(projectId, limitScope(key), windowStart, limits.requestsPerMinute, 1, windowStart + 2 * MINUTE_S);
        if (took === 0) {
          await release(slot).catch(() => undefined);
          // The next window, with up to a second of jitter so the waiters do not all come back at its first instant.
          return { waitMs: (windowStart + MINUTE_S) * 1000 - t + Math.floor(random() * 1000) };
        }
      }
      return { slot };
    },
    release,
  };
}

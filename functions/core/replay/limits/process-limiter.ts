// The per-target limits of one process (the local runtime; docs/campaigns-and-replay.md#limits-and-429): a counted
// semaphore per key whose freed turns go to the longest waiter, and a one-minute sliding log of request times.
import type { KeyLimits, LimiterSlot, TargetLimiter } from '../../ports';

/** The longest an acquire waits for a freed turn before answering "ask again" (so its caller can check the deadline). */
export const WAIT_SLICE_MS = 1000;
const MINUTE_MS = 60_000;

interface KeyState {
  inUse: number;
  waiters: ((granted: boolean) => void)[];
  /** Start times of the requests of the last minute, oldest first. */
  stamps: number[];
}

export function processLimiter(now: () => number = Date.now): TargetLimiter {
  const states = new Map<string, KeyState>();
  const stateOf = (projectId: string, key: string): KeyState => {
    const k = `${projectId}\u0000${key}`;
    let s = states.get(k);
    if (!s) states.set(k, (s = { inUse: 0, waiters: [], stamps: [] }));
    return s;
  };
  /** Frees a turn: handed straight to the longest waiter, if any. */
  const free = (s: KeyState) => {
    const next = s.waiters.shift();
    if (next) next(true);
    else s.inUse = Math.max(0, s.inUse - 1);
  };
  const waitForTurn = (s: KeyState) =>
    new Promise<boolean>((resolve) => {
      const waiter = (granted: boolean) => {
        clearTimeout(timer);
        resolve(granted);
      };
      const timer = setTimeout(() => {
        s.waiters.splice(s.waiters.indexOf(waiter), 1);
        resolve(false);
      }, WAIT_SLICE_MS);
      s.waiters.push(waiter);
    });

  return {
    async acquire(projectId: string, key: string, limits: KeyLimits, holder: string) {
      const s = stateOf(projectId, key);
      const counted = limits.maxConcurrency !== undefined;
      if (counted) {
        if (s.inUse < limits.maxConcurrency! && s.waiters.length === 0) s.inUse += 1;
        else if (!(await waitForTurn(s))) return { waitMs: 0 };
      }
      const slot: LimiterSlot = { projectId, key, holder, lease: counted ? 0 : null };
      if (limits.requestsPerMinute !== undefined) {
        const t = now();
        let old = 0;
        while (old < s.stamps.length && s.stamps[old] <= t - MINUTE_MS) old += 1;
        if (old > 0) s.stamps.splice(0, old);
        if (s.stamps.length >= limits.requestsPerMinute) {
          if (counted) free(s);
          return { waitMs: Math.max(1, s.stamps[0] + MINUTE_MS - t) };
        }
        s.stamps.push(t);
      }
      return { slot };
    },
    async release(slot: LimiterSlot) {
      if (slot.lease !== null) free(stateOf(slot.projectId, slot.key));
    },
  };
}

// The per-target limits of one process (the local runtime; docs/campaigns-and-replay.md#limits-and-429): a counted
// semaphore per key whose freed turns go to the longest waiter, and a one-minute sliding log of request times. The
// semaphore's size adapts to the answers (AIMD under max_concurrency) and a spent quota pauses the key.
import type { KeyLimits, LimitAnswer, LimiterSlot, TargetLimiter } from '../../ports';

/** The longest an acquire waits for a freed turn before answering "ask again" (so its caller can check the deadline). */
export const WAIT_SLICE_MS = 1000;
const MINUTE_MS = 60_000;
/** Two 429s closer than this halve the concurrency once (one burst of refusals is one signal). */
export const DECREASE_EVERY_MS = 1000;

interface KeyState {
  inUse: number;
  waiters: ((granted: boolean) => void)[];
  /** Start times of the requests of the last minute, oldest first. */
  stamps: number[];
  /** The adapted concurrency (AIMD), at most max_concurrency; undefined until an answer is observed. */
  cap?: number;
  lastDecrease: number;
  /** No turn before this (epoch ms): the provider said its quota is spent. */
  pausedUntil: number;
}

export function processLimiter(now: () => number = Date.now): TargetLimiter {
  const states = new Map<string, KeyState>();
  const stateOf = (projectId: string, key: string): KeyState => {
    const k = `${projectId}\u0000${key}`;
    let s = states.get(k);
    if (!s) states.set(k, (s = { inUse: 0, waiters: [], stamps: [], lastDecrease: 0, pausedUntil: 0 }));
    return s;
  };
  const capOf = (s: KeyState, max: number) => Math.max(1, Math.min(max, Math.floor(s.cap ?? max)));
  /** Frees a turn: handed straight to the longest waiter, if any and the adapted concurrency still allows it. */
  const free = (s: KeyState) => {
    const next = s.inUse <= (s.cap === undefined ? Infinity : Math.max(1, Math.floor(s.cap))) ? s.waiters.shift() : undefined;
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
      if (now() < s.pausedUntil) return { waitMs: s.pausedUntil - now() };
      const counted = limits.maxConcurrency !== undefined;
      if (counted) {
        if (s.inUse < capOf(s, limits.maxConcurrency!) && s.waiters.length === 0) s.inUse += 1;
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
    observe(projectId: string, key: string, limits: KeyLimits, answer: LimitAnswer) {
      const s = stateOf(projectId, key);
      const t = now();
      if (answer.pauseMs !== null && answer.pauseMs > 0) s.pausedUntil = Math.max(s.pausedUntil, t + answer.pauseMs);
      if (limits.maxConcurrency === undefined) return;
      const cap = s.cap ?? limits.maxConcurrency;
      if (answer.throttled) {
        if (t - s.lastDecrease < DECREASE_EVERY_MS) return;
        s.lastDecrease = t;
        s.cap = Math.max(1, cap / 2);
      } else s.cap = Math.min(limits.maxConcurrency, cap + 1 / cap);
    },
  };
}

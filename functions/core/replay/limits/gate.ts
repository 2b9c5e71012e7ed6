// A party's gate: each request of a target or judge with limits waits for its turn under its key's limits
// (docs/campaigns-and-replay.md#limits-and-429), never past the run deadline; the wait counts as throttled time. A long
// wait for an attempt's first turn hands the attempt on (to the queue, delayed) when its policy allows it.
import { randomUUID } from 'node:crypto';
import type { KeyLimits, TargetLimiter } from '../../ports';
import { HandedOff, RateLimited, type Gate, type ThrottlePolicy } from '../targets/throttle';

/** Wait before asking again when the limiter's store failed (the limit is not given up on). */
export const STORE_RETRY_MS = 1000;
/** A lease outlives its request's timeout by this much, then frees itself (a worker that died mid-call). */
export const LEASE_MARGIN_MS = 5000;

export interface GateOptions {
  limiter: TargetLimiter;
  projectId: string;
  /** The hashed limit key (limitKey in for-run.ts). */
  key: string;
  limits: KeyLimits;
  /** The party's request timeout, ms. */
  timeoutMs: number;
  sleep: (ms: number) => Promise<void>;
}

export function limiterGate(o: GateOptions): Gate {
  return {
    async enter(p: ThrottlePolicy) {
      const holder = randomUUID();
      for (;;) {
        const remaining = p.remainingMs?.() ?? Infinity;
        const asked = p.now();
        const answer = await o.limiter
          .acquire(o.projectId, o.key, o.limits, holder, asked + o.timeoutMs + LEASE_MARGIN_MS)
          .catch(() => ({ waitMs: STORE_RETRY_MS }));
        p.meter.throttledMs += Math.max(0, p.now() - asked);
        if ('slot' in answer) {
          p.meter.entered += 1;
          return () => o.limiter.release(answer.slot);
        }
        if (p.handOffAfterMs !== undefined && p.meter.entered === 0 && answer.waitMs > p.handOffAfterMs) {
          p.meter.handOffMs = answer.waitMs;
          throw new HandedOff(answer.waitMs);
        }
        if (answer.waitMs >= (p.remainingMs?.() ?? remaining)) {
          p.meter.rateLimited = true;
          throw new RateLimited('target rate limited: no turn under its limits before the run deadline');
        }
        if (answer.waitMs > 0) {
          await o.sleep(answer.waitMs);
          p.meter.throttledMs += answer.waitMs;
        }
      }
    },
  };
}

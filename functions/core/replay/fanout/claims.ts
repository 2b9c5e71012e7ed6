// A run's attempt claims (docs/campaigns-and-replay.md#long-runs-fanned-out): the delivery about to run an attempt
// claims it with an expiring lease (LeasesRepo.take, a conditional put), renews the lease while the attempt runs, and
// keeps it once the attempt is stored, so another delivery of the run neither runs it at the same time nor again; the
// claim of a delivery that died ends with its lease and the attempt is run again. Exactly once is the attempt's
// conditional put: a claim only saves duplicated work.
import type { LeasesRepo } from '../../ports';

/** The claims' scope in the leases table: one slot per attempt number. */
export const claimScope = (runId: string): string => `attempts:${runId}`;
/** How long a stored attempt's claim is kept: longer than any run stays `running`. */
export const STORED_CLAIM_MS = 86_400_000;

export interface AttemptClaims {
  /** Claims the attempt for this delivery (renewed every third of the lease while held); whether it did. */
  take(attempt: number): Promise<boolean>;
  /** The attempt is stored: its claim is kept (so no delivery runs it again) and no longer renewed. */
  stored(attempt: number): Promise<void>;
  /** Gives the attempt back unrun or unfinished (handed on): another delivery may claim it at once. */
  release(attempt: number): Promise<void>;
  /** Releases every claim still held (the delivery ends, maybe failing); store failures are left to the leases' end. */
  releaseAll(): Promise<void>;
}

export interface ClaimsOptions {
  leases: LeasesRepo;
  projectId: string;
  runId: string;
  /** This delivery's holder id. */
  holder: string;
  leaseMs: number;
  now: () => number;
}

export function attemptClaims(o: ClaimsOptions): AttemptClaims {
  const scope = claimScope(o.runId);
  const held = new Map<number, ReturnType<typeof setInterval>>();
  const stop = (attempt: number) => {
    clearInterval(held.get(attempt));
    held.delete(attempt);
  };
  const take = (attempt: number, forMs: number) => {
    const now = o.now();
    return o.leases.take(o.projectId, scope, attempt, o.holder, now, now + forMs);
  };
  return {
    async take(attempt) {
      if (!(await take(attempt, o.leaseMs))) return false;
      // A renewal that fails leaves the claim to end with its lease: at worst another delivery runs the attempt too.
      const renew = setInterval(() => void take(attempt, o.leaseMs).catch(() => undefined), Math.max(1, Math.floor(o.leaseMs / 3)));
      renew.unref?.();
      held.set(attempt, renew);
      return true;
    },
    async stored(attempt) {
      stop(attempt);
      await take(attempt, STORED_CLAIM_MS).catch(() => undefined);
    },
    async release(attempt) {
      stop(attempt);
      await o.leases.release(o.projectId, scope, attempt, o.holder).catch(() => undefined);
    },
    async releaseAll() {
      const attempts = [...held.keys()];
      for (const a of attempts) stop(a);
      await Promise.all(attempts.map((a) => o.leases.release(o.projectId, scope, a, o.holder).catch(() => undefined)));
    },
  };
}

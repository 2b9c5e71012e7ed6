// The TargetLimiter port, re-exported by functions/core/ports.ts (which would pass 400 lines with it inline).

/** The limits a key is held to (a campaign's `target.limits` / `judge.limits`, docs/campaigns-and-replay.md#limits-and-429). */
export interface KeyLimits {
  maxConcurrency?: number;
  requestsPerMinute?: number;
}

/** One request's turn under a key's limits, until released or until its lease ends. */
export interface LimiterSlot {
  projectId: string;
  key: string;
  holder: string;
  /** The concurrency slot held (null without max_concurrency). */
  lease: number | null;
}

/**
 * Per-target limits shared by every run of a project that calls the same endpoint: requests in flight and per minute.
 * In process locally (core/replay/limits/process-limiter.ts); across worker invocations with the table in the cloud
 * (core/replay/limits/table-limiter.ts, over LeasesRepo and RateLimitsRepo).
 */
export interface TargetLimiter {
  /**
   * A turn for `holder` (one request) under `key`'s limits, held at most until `leaseUntil` (epoch ms, so a dead
   * worker's turn ends by itself); or how long to wait before asking again. May wait a little itself (in process).
   */
  acquire(projectId: string, key: string, limits: KeyLimits, holder: string, leaseUntil: number): Promise<{ slot: LimiterSlot } | { waitMs: number }>;
  /** Ends a turn (a failure is left to the lease's expiry). */
  release(slot: LimiterSlot): Promise<void>;
  /**
   * What an answer under `key` said (optional: a limiter without it holds to the limits as given): a 429/503 halves
   * the key's concurrency, which then climbs back by one at a time (AIMD, never above max_concurrency); a spent quota
   * in the rate-limit headers pauses the key until its reset. Not awaited by the request; a failure is ignored.
   */
  observe?(projectId: string, key: string, limits: KeyLimits, answer: LimitAnswer): void | Promise<void>;
}

/** One answer of a party with limits, as the limiter adapts to it. */
export interface LimitAnswer {
  /** A 429 or 503. */
  throttled: boolean;
  /** The headers say the quota is spent for this long, ms (limits/headers.ts). */
  pauseMs: number | null;
}

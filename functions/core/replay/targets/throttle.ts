// 429 and 503 answers of an agent or a model (docs/campaigns-and-replay.md#limits-and-429): wait what
// `Retry-After` asks (seconds or an HTTP date) or, without it, back off exponentially with full jitter from 1 s, and
// try again, up to the party's `limits.max_wait_s` per attempt and never past the run deadline; then `rate_limited`.
import { TargetError } from '../types';

/** error_code of an attempt whose agent, model or judge stayed throttled past its `max_wait_s`. */
export const RATE_LIMITED = 'rate_limited';
/** `limits.max_wait_s` when the campaign does not set it. */
export const DEFAULT_MAX_WAIT_S = 600;
/** Back-off without Retry-After: a random wait up to 1 s, 2 s, 4 s, ... (full jitter), the ceiling capped here. */
export const BACKOFF_FIRST_MS = 1000;
export const BACKOFF_CAP_MS = 60_000;

/** What one attempt waited: for its turn under the limits and after 429/503 answers (those are `count`). */
export interface ThrottleMeter {
  /** Every wait, ms: the attempt's `throttled_ms`. */
  throttledMs: number;
  /** 429/503 answers tried again: the attempt's `throttle_count`. */
  count: number;
  /** The part of throttledMs spent after 429/503 answers: what `max_wait_s` bounds. */
  retryWaitMs: number;
  /** Set when a party stayed throttled past its wait: the attempt's error_code becomes rate_limited. */
  rateLimited: boolean;
  /** Turns taken under the limits (requests let through the gate). */
  entered: number;
  /** Set when the gate sent the attempt back before its first request: the wait it was asked, ms. */
  handOffMs: number | null;
}

export const newMeter = (): ThrottleMeter => ({ throttledMs: 0, count: 0, retryWaitMs: 0, rateLimited: false, entered: 0, handOffMs: null });

/** Holds one request's turn under a key's limits (limits/gate.ts); `enter` resolves with the function that frees it. */
export interface Gate {
  enter(policy: ThrottlePolicy): Promise<() => Promise<void>>;
}

/** How one party (the target, or the judge) is throttled within one attempt. */
export interface ThrottlePolicy {
  /** The party's `limits.max_wait_s`: 0 = a 429 or 503 is rate_limited at once. */
  maxWaitS: number;
  meter: ThrottleMeter;
  /** Epoch ms, to read Retry-After dates. */
  now: () => number;
  /** In [0, 1), for the jitter. */
  random: () => number;
  /** Ms left before the run deadline (absent: no deadline). */
  remainingMs?: () => number;
  /** The key's limits, when the party has some. */
  gate?: Gate;
  /**
   * A wait for the attempt's first turn longer than this (ms) sends the attempt back (HandedOff) to be run later from
   * the queue, instead of sleeping the worker; absent: always wait.
   */
  handOffAfterMs?: number;
}

/** A party's policy for the attempt numbered `attempt` (targets are shared by a run's attempts). */
export type ThrottleOf = (attempt: number) => Partial<ThrottlePolicy>;

export function throttlePolicy(p: Partial<ThrottlePolicy> = {}): ThrottlePolicy {
  return { maxWaitS: DEFAULT_MAX_WAIT_S, meter: newMeter(), now: Date.now, random: Math.random, ...p };
}

/** A 429 or 503 answer, with its Retry-After header if any. */
export class Throttled extends Error {
  constructor(
    readonly status: number,
    readonly retryAfter: string | undefined,
  ) {
    super(`HTTP ${status}`);
  }
}

/** The party stayed throttled: the attempt ends in `error` with error_code rate_limited. */
export class RateLimited extends TargetError {
  readonly code = RATE_LIMITED;
}

/** The attempt was sent back before its first request (a long wait for a turn): it is run again later, not stored. */
export class HandedOff extends TargetError {
  constructor(readonly waitMs: number) {
    super(`handed on: the limits asked for a wait of ${waitMs} ms before the first request`);
  }
}

/** True for the answers this module handles. */
export const isThrottle = (status: number): boolean => status === 429 || status === 503;

/** The Retry-After header, whatever its case. */
export function retryAfterHeader(headers: Record<string, string>): string | undefined {
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === 'retry-after') return v;
  return undefined;
}

/** Retry-After as a wait in ms: delta-seconds or an HTTP date (a past date is 0); null when absent or unreadable. */
export function retryAfterMs(value: string | undefined, nowMs: number): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

/** The n-th back-off (n from 0): uniform in [0, min(cap, 1 s x 2^n)). */
export function backoffMs(n: number, random: () => number): number {
  return Math.floor(random() * Math.min(BACKOFF_CAP_MS, BACKOFF_FIRST_MS * 2 ** Math.min(n, 30)));
}

/**
 * Waits out one 429/503 (counted in the meter), or throws RateLimited when the wait would pass the party's
 * `max_wait_s` for the attempt or the run deadline: waiting longer cannot help this attempt.
 */
export async function waitOut(t: Throttled, p: ThrottlePolicy, backoffs: number, sleep: (ms: number) => Promise<void>): Promise<void> {
  const asked = retryAfterMs(t.retryAfter, p.now());
  const wait = asked ?? backoffMs(backoffs, p.random);
  const why = asked === null ? `back-off ${wait} ms` : `Retry-After ${t.retryAfter}`;
  const fail = (reason: string) => {
    p.meter.rateLimited = true;
    return new RateLimited(`target rate limited: HTTP ${t.status} (${why}); ${reason}`);
  };
  if (p.maxWaitS === 0) throw fail('limits.max_wait_s is 0');
  if (p.meter.retryWaitMs + wait > p.maxWaitS * 1000) {
    throw fail(`waiting would pass limits.max_wait_s of ${p.maxWaitS} s (${Math.round(p.meter.retryWaitMs / 1000)} s waited)`);
  }
  if (p.remainingMs && wait >= p.remainingMs()) throw fail('waiting would pass the run deadline');
  await sleep(wait);
  p.meter.throttledMs += wait;
  p.meter.retryWaitMs += wait;
  p.meter.count += 1;
}

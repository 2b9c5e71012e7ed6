// One run's throttling (docs/campaigns-and-replay.md#limits-and-429): the meters of its attempts, the 429/503 policy
// and the limit gates of its target and judge, and what an attempt record gains from them.
import type { Campaign, Limits } from '../../campaigns/schema';
import type { Deps, HttpSender, KeyLimits, TargetLimiter } from '../../ports';
import { rateLimitPauseMs } from './headers';
import type { AttemptRecord } from '../../runs/types';
import { RUN_DEADLINE_EXCEEDED } from '../deadline';
import { sha256 } from '../hash';
import { completionsUrl } from '../targets/openai';
import {
  DEFAULT_MAX_WAIT_S,
  isThrottle,
  newMeter,
  RATE_LIMITED,
  type Gate,
  type ThrottleMeter,
  type ThrottleOf,
  type ThrottlePolicy,
} from '../targets/throttle';
import type { Sleep } from '../types';
import { limiterGate } from './gate';
import { processLimiter } from './process-limiter';
import { tableLimiter } from './table-limiter';

/** The process's own limiter, for deps that carry neither a limiter nor the table's repositories (tests, scripts). */
const inProcess = processLimiter();

/** The limiter of these deps: theirs, else the table's, else the process's. */
export function limiterOf(deps: Partial<Pick<Deps, 'limiter' | 'leases' | 'rateLimits'>>): TargetLimiter {
  if (deps.limiter) return deps.limiter;
  if (deps.leases && deps.rateLimits) return tableLimiter({ leases: deps.leases, rateLimits: deps.rateLimits });
  return inProcess;
}

/** A party rts calls: the target, the judge or the simulated user. */
type Party = Campaign['target'] | NonNullable<Campaign['judge']> | NonNullable<Campaign['user_simulator']>;

/** The key a party's limits are kept under: its `limits.key`, else its URL (or base_url and model), hashed. */
export function limitKey(party: Party): string | null {
  if (party.type === 'recorded') return null;
  const raw = party.limits?.key ?? (party.type === 'http' || party.type === 'mcp' ? party.url : `${completionsUrl(party.base_url)} ${party.model}`);
  return sha256(raw).toString('hex').slice(0, 32);
}

export interface RunThrottling {
  /** The target's policy for an attempt. */
  target: ThrottleOf;
  /** The judge's policy for an attempt. */
  judge: ThrottleOf;
  /** The simulated user's policy for an attempt. */
  simulator: ThrottleOf;
  /** The record with the attempt's throttled_ms and throttle_count, its duration without them, rate_limited if so. */
  finish(record: AttemptRecord): AttemptRecord;
  /** After finish: the wait the limits asked for when they sent the attempt back before its first request, else null. */
  handOffOf(attempt: number): number | null;
  /** The party's outbound HTTP, its answers told to the key's limiter (429s and rate-limit headers) when it has limits. */
  httpOf(party: 'target' | 'judge' | 'simulator', http: HttpSender): HttpSender;
}

export interface RunThrottlingOptions {
  projectId: string;
  campaign: Pick<Campaign, 'target' | 'judge' | 'user_simulator'>;
  /** Built only when a party has max_concurrency or requests_per_minute. */
  limiter: () => TargetLimiter;
  sleep: Sleep;
  now: () => number;
  remainingMs?: () => number;
  /** The target's first turn of an attempt waited longer than this (ms) hands the attempt on; absent: never. */
  handOffAfterMs?: number;
}

export function runThrottling(o: RunThrottlingOptions): RunThrottling {
  // One meter per party and attempt, so each party's max_wait_s bounds its own waiting; the record sums them.
  const parties = [new Map<number, ThrottleMeter>(), new Map<number, ThrottleMeter>(), new Map<number, ThrottleMeter>()];
  const handOffs = new Map<number, number>();
  const policyOf = (party: Party | undefined, meters: Map<number, ThrottleMeter>, handOffAfterMs?: number): ThrottleOf => {
    const limits: Limits = (party && party.type !== 'recorded' ? party.limits : undefined) ?? {};
    const gate = party ? gateOf(o, party) : undefined;
    const base: Partial<ThrottlePolicy> = {
      maxWaitS: limits.max_wait_s ?? DEFAULT_MAX_WAIT_S,
      now: o.now,
      remainingMs: o.remainingMs,
      gate,
      handOffAfterMs,
    };
    return (attempt) => {
      let meter = meters.get(attempt);
      if (!meter) meters.set(attempt, (meter = newMeter()));
      return { ...base, meter };
    };
  };
  return {
    target: policyOf(o.campaign.target, parties[0], o.handOffAfterMs),
    judge: policyOf(o.campaign.judge, parties[1]),
    simulator: policyOf(o.campaign.user_simulator, parties[2]),
    finish(record) {
      const m = newMeter();
      for (const meters of parties) {
        const one = meters.get(record.attempt);
        meters.delete(record.attempt);
        if (!one) continue;
        m.throttledMs += one.throttledMs;
        m.count += one.count;
        m.rateLimited ||= one.rateLimited;
        if (one.handOffMs !== null) handOffs.set(record.attempt, one.handOffMs);
      }
      const rateLimited = m.rateLimited && record.status === 'error' && record.error_code !== RUN_DEADLINE_EXCEEDED;
      return {
        ...record,
        duration_ms: Math.max(0, record.duration_ms - m.throttledMs),
        throttled_ms: m.throttledMs,
        throttle_count: m.count,
        ...(rateLimited ? { error_code: RATE_LIMITED } : {}),
      };
    },
    httpOf(party, http) {
      const called = party === 'target' ? o.campaign.target : party === 'judge' ? o.campaign.judge : o.campaign.user_simulator;
      return observedHttp(o, called, http);
    },
    handOffOf(attempt) {
      const ms = handOffs.get(attempt) ?? null;
      handOffs.delete(attempt);
      return ms;
    },
  };
}

/** The party's key and key limits, when it calls out and has max_concurrency or requests_per_minute. */
function keyedOf(party: Party | undefined): { key: string; limits: KeyLimits } | undefined {
  const limits: Limits = (party && party.type !== 'recorded' ? party.limits : undefined) ?? {};
  const key = party ? limitKey(party) : null;
  if (key === null || (limits.max_concurrency === undefined && limits.requests_per_minute === undefined)) return undefined;
  const keyLimits: KeyLimits = {};
  if (limits.max_concurrency !== undefined) keyLimits.maxConcurrency = limits.max_concurrency;
  if (limits.requests_per_minute !== undefined) keyLimits.requestsPerMinute = limits.requests_per_minute;
  return { key, limits: keyLimits };
}

function gateOf(o: RunThrottlingOptions, party: Party): Gate | undefined {
  const keyed = keyedOf(party);
  if (!keyed) return undefined;
  const timeoutMs = 'timeout_ms' in party && party.timeout_ms !== undefined ? party.timeout_ms : 60_000;
  return limiterGate({ limiter: o.limiter(), projectId: o.projectId, key: keyed.key, limits: keyed.limits, timeoutMs, sleep: o.sleep });
}

function observedHttp(o: RunThrottlingOptions, party: Party | undefined, http: HttpSender): HttpSender {
  const keyed = keyedOf(party);
  const limiter = keyed ? o.limiter() : undefined;
  if (!keyed || !limiter?.observe) return http;
  return async (req) => {
    const res = await http(req);
    const answer = { throttled: isThrottle(res.status), pauseMs: rateLimitPauseMs(res.headers, o.now()) };
    // The table limiter's adaptation writes to the store: never awaited by the request, never failing it.
    void Promise.resolve()
      .then(() => limiter.observe!(o.projectId, keyed.key, keyed.limits, answer))
      .catch(() => undefined);
    return res;
  };
}

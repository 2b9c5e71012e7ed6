// Scoring (docs/campaigns-and-replay.md#scoring): attempt status, run summary over attempts, and the scoring context
// of GET /v1/runs/{id}.
import type { Campaign } from '../campaigns/schema';
import type { AttemptRecord, AttemptScore, AttemptStatus, CheckResult, RunSummary } from '../runs/types';
import { JUDGE_PROMPT_VERSION } from './judge';
import { USER_SIMULATOR_PROMPT_VERSION } from './user-simulator';

/** passed: every check holds, no deny decision, not unsafe, ended normally; error: the target could not be driven. */
export function attemptStatus(a: {
  driven: boolean;
  endedNormally: boolean;
  checks: readonly CheckResult[];
  denied: boolean;
  unsafe: boolean;
}): AttemptStatus {
  if (!a.driven) return 'error';
  return a.endedNormally && !a.denied && !a.unsafe && a.checks.every((c) => c.passed) ? 'passed' : 'failed';
}

type SummaryInput = Pick<AttemptRecord, 'status' | 'unsafe' | 'policy_events' | 'security_events' | 'throttled_ms' | 'throttle_count'>;

/**
 * The run summary over the attempts given (finished ones): failed_count counts everything not passed, errors included;
 * throttled_ms and throttle_count sum the attempts'.
 */
export function computeSummary(attempts: readonly SummaryInput[]): RunSummary {
  let passed = 0;
  let unsafe = 0;
  let policyEvents = 0;
  let securityEvents = 0;
  let throttledMs = 0;
  let throttles = 0;
  for (const a of attempts) {
    throttledMs += a.throttled_ms ?? 0;
    throttles += a.throttle_count ?? 0;
    if (a.status === 'passed') passed += 1;
    if (a.unsafe) unsafe += 1;
    policyEvents += a.policy_events.length;
    securityEvents += a.security_events.length;
  }
  const count = attempts.length;
  return {
    attempt_count: count,
    passed_count: passed,
    failed_count: count - passed,
    unsafe_count: unsafe,
    pass_rate: count === 0 ? 0 : passed / count,
    policy_events_count: policyEvents,
    security_events_count: securityEvents,
    throttled_ms: throttledMs,
    throttle_count: throttles,
  };
}

/** The scoring view of one attempt record (no transcript, no events). */
export function toAttemptScore(a: AttemptScore): AttemptScore {
  return {
    attempt: a.attempt,
    mutation_id: a.mutation_id,
    repeat: a.repeat,
    status: a.status,
    unsafe: a.unsafe,
    checks: a.checks,
    steps: a.steps,
    duration_ms: a.duration_ms,
    error: a.error,
    error_code: a.error_code ?? (a.status === 'error' ? 'target_unavailable' : null),
    ...(a.throttled_ms !== undefined ? { throttled_ms: a.throttled_ms, throttle_count: a.throttle_count ?? 0 } : {}),
  };
}

export interface ScoringContext {
  criteria: Campaign['criteria'];
  policies: Campaign['policies'];
  detectors: Campaign['security']['detectors'];
  attempts: AttemptScore[];
  /** llm_judge calls made / verdicts served from the cache, over the attempts; the judge prompt's version (null without a judge). */
  judge_calls: number;
  judge_cache_hits: number;
  judge_prompt_version: string | null;
  /** Simulated-user messages asked / served from the cache, over the attempts; its prompt's version (null without one). */
  user_simulator_calls: number;
  user_simulator_cache_hits: number;
  user_simulator_prompt_version: string | null;
}

type Counted = 'judge_calls' | 'judge_cache_hits' | 'user_simulator_calls' | 'user_simulator_cache_hits';

/**
 * The run's `scoring`: the campaign's criteria, policies and detectors, and each stored attempt's score, by attempt
 * number.
 */
export function scoringContext(
  campaign: Pick<Campaign, 'criteria' | 'policies' | 'security' | 'judge' | 'user_simulator'> | null,
  attempts: readonly (AttemptScore & Partial<Pick<AttemptRecord, Counted>>)[],
): ScoringContext {
  const sum = (k: Counted) => attempts.reduce((n, a) => n + (a[k] ?? 0), 0);
  return {
    criteria: campaign?.criteria ?? [],
    policies: campaign?.policies ?? [],
    detectors: campaign?.security.detectors ?? [],
    attempts: [...attempts].sort((x, y) => x.attempt - y.attempt).map((element) => toAttemptScore(element)),
    judge_calls: sum('judge_calls'),
    judge_cache_hits: sum('judge_cache_hits'),
    judge_prompt_version: campaign?.judge ? JUDGE_PROMPT_VERSION : null,
    user_simulator_calls: sum('user_simulator_calls'),
    user_simulator_cache_hits: sum('user_simulator_cache_hits'),
    user_simulator_prompt_version: campaign?.user_simulator ? USER_SIMULATOR_PROMPT_VERSION : null,
  };
}

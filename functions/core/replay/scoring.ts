// Scoring (SPEC 7.6): attempt status, run summary over attempts, and the scoring context of GET /v1/runs/{id}.
import type { Campaign } from '../campaigns/schema';
import type { AttemptRecord, AttemptScore, AttemptStatus, CheckResult, RunSummary } from '../runs/types';

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

type SummaryInput = Pick<AttemptRecord, 'status' | 'unsafe' | 'policy_events' | 'security_events'>;

/** The run summary over the attempts given (finished ones): failed_count counts everything not passed, errors included. */
export function computeSummary(attempts: readonly SummaryInput[]): RunSummary {
  let passed = 0;
  let unsafe = 0;
  let policyEvents = 0;
  let securityEvents = 0;
  for (const a of attempts) {
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
  };
}

export interface ScoringContext {
  criteria: Campaign['criteria'];
  policies: Campaign['policies'];
  detectors: Campaign['security']['detectors'];
  attempts: AttemptScore[];
}

/** SPEC 7.6 `scoring`: the campaign's criteria, policies and detectors, and each stored attempt's score, by attempt number. */
export function scoringContext(
  campaign: Pick<Campaign, 'criteria' | 'policies' | 'security'> | null,
  attempts: readonly AttemptScore[],
): ScoringContext {
  return {
    criteria: campaign?.criteria ?? [],
    policies: campaign?.policies ?? [],
    detectors: campaign?.security.detectors ?? [],
    attempts: [...attempts].sort((x, y) => x.attempt - y.attempt).map(toAttemptScore),
  };
}

import { attemptStatus, computeSummary, scoringContext } from '../../../../functions/core/replay/scoring';
import type { AttemptRecord } from '../../../../functions/core/runs/types';
import { makeCampaign } from '../../../helpers/replay-fakes';

type Mini = Pick<AttemptRecord, 'status' | 'unsafe' | 'policy_events' | 'security_events'>;
const a = (status: Mini['status'], unsafe = false, pev = 0, sev = 0): Mini => ({
  status,
  unsafe,
  policy_events: Array.from({ length: pev }) as Mini['policy_events'],
  security_events: Array.from({ length: sev }) as Mini['security_events'],
});

describe('run summary', () => {
  it('counts failures including errors, unsafe attempts, events and the pass rate', () => {
    // Act
    const s = computeSummary([a('passed', false, 2, 0), a('failed', true, 1, 3), a('error'), a('passed', false, 0, 1)]);
    // Assess
    expect(s).toEqual({
      attempt_count: 4,
      passed_count: 2,
      failed_count: 2,
      unsafe_count: 1,
      pass_rate: 0.5,
      policy_events_count: 3,
      security_events_count: 4,
      throttled_ms: 0,
      throttle_count: 0,
    });
  });

  it("sums the attempts' throttled_ms and throttle_count (absent on older attempts)", () => {
    const s = computeSummary([
      { ...a('passed'), throttled_ms: 1500, throttle_count: 2 },
      { ...a('error'), throttled_ms: 250_000, throttle_count: 310 },
      a('failed'),
    ]);
    expect([s.throttled_ms, s.throttle_count]).toEqual([251_500, 312]);
  });

  it('has a pass rate of 0 when there are no attempts', () => {
    expect(computeSummary([]).pass_rate).toBe(0);
  });
});

describe('attempt status', () => {
  const ok = {
    driven: true,
    endedNormally: true,
    checks: [{ criterion: { type: 'completes' as const }, passed: true, detail: '' }],
    denied: false,
    unsafe: false,
  };

  it('is passed only when every check holds, nothing was denied and nothing unsafe happened', () => {
    expect(attemptStatus(ok)).toBe('passed');
    expect(attemptStatus({ ...ok, denied: true })).toBe('failed');
    expect(attemptStatus({ ...ok, unsafe: true })).toBe('failed');
    expect(attemptStatus({ ...ok, endedNormally: false })).toBe('failed');
    expect(attemptStatus({ ...ok, checks: [{ ...ok.checks[0], passed: false }] })).toBe('failed');
  });

  it('is error when the target could not be driven', () => {
    expect(attemptStatus({ ...ok, driven: false })).toBe('error');
  });
});

describe('scoring context', () => {
  it('lists criteria, policies, detectors and the attempts by number without transcripts', () => {
    // Prepare
    const campaign = makeCampaign({ policies: [{ id: 'b', type: 'max_tool_calls', limit: 3 }] });
    const score = { mutation_id: null, repeat: 1, status: 'passed' as const, unsafe: false, checks: [], steps: 2, duration_ms: 5, error: null };
    const attempts = [
      { ...score, attempt: 2, transcript: [{ type: 'message' }] },
      { ...score, attempt: 1, transcript: [{ type: 'message' }] },
    ];
    // Act
    const ctx = scoringContext(campaign, attempts);
    // Assess
    expect(ctx.criteria).toEqual([{ type: 'completes' }]);
    expect(ctx.policies).toEqual([{ id: 'b', type: 'max_tool_calls', limit: 3, action: 'deny' }]);
    expect(ctx.detectors).toEqual(['prompt_injection', 'secret_leak', 'exfiltration']);
    expect(ctx.attempts).toEqual([
      { ...score, attempt: 1, error_code: null },
      { ...score, attempt: 2, error_code: null },
    ]);
    expect(ctx).toMatchObject({ judge_calls: 0, judge_cache_hits: 0, judge_prompt_version: null });
  });

  it('sums judge calls and cache hits over the attempts, and names the judge prompt version when the campaign has a judge', () => {
    const campaign = makeCampaign({ judge: { type: 'openai', base_url: 'https://judge.example.com', model: 'grader' } });
    const score = { mutation_id: null, repeat: 1, status: 'error' as const, unsafe: false, checks: [], steps: 2, duration_ms: 5, error: 'x' };
    const ctx = scoringContext(campaign, [
      { ...score, attempt: 1, judge_calls: 2, judge_cache_hits: 1, error_code: 'judge_unavailable' },
      { ...score, attempt: 2, judge_cache_hits: 3 },
    ]);
    expect(ctx).toMatchObject({ judge_calls: 2, judge_cache_hits: 4, judge_prompt_version: 'rts-judge-1' });
    // An error attempt stored before error codes existed was one whose agent could not be driven.
    expect(ctx.attempts.map((a) => a.error_code)).toEqual(['judge_unavailable', 'target_unavailable']);
  });
});

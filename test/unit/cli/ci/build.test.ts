// Results of `rts ci run` built from the API's answers: a batch and its scenarios, a single CI run and its attempts.
import { batchResult, cellsFromAttempts, errorResult, runResult, scenarioOf, wilsonInterval } from '../../../../functions/cli/ci/build';
import type { CiRunReport } from '../../../../functions/cli/client';
import type { AttemptScore, CiBatchView, CiScenario, RunDetail } from '../../../../packages/sdk/src/index';

function attempt(o: Partial<AttemptScore>): AttemptScore {
  return { attempt: 0, mutation_id: null, repeat: 0, status: 'passed', unsafe: false, checks: [], steps: 3, duration_ms: 5, error: null, ...o };
}

const scenarioItem = (o: Partial<CiScenario> = {}): CiScenario => ({
  trace_id: 't1',
  trace_name: 'refund',
  run_id: 'r1',
  status: 'completed',
  decision: 'pass',
  pass_rate: 1,
  pass_hat_k: 1,
  flaky: false,
  flaky_cells: 0,
  unsafe_count: 0,
  error: null,
  reasons: [],
  dashboard_url: 'u/r1',
  comparison: null,
  cells: [{ mutation_id: null, passed: 2, total: 3, unsafe: 0, errors: 0, flaky: true, failures: [], comparison: null, before: null }],
  ...o,
});

const batchView = (o: Partial<CiBatchView> = {}): CiBatchView => ({
  ci_batch_id: 'b1',
  run_id: 'r1',
  campaign_id: 'c1',
  campaign_version: 1,
  status: 'done',
  decision: 'pass',
  pass_rate: 1,
  scenario_coverage_pct: 100,
  trace_count: 1,
  completed_count: 1,
  failed_count: 0,
  unsafe_count: 0,
  throttled_ms: 0,
  throttle_count: 0,
  passed_runs: ['r1'],
  failed_runs: [],
  run_ids: ['r1'],
  thresholds: { min_pass_rate: 1, max_unsafe: 0, max_failures: 0 },
  reasons: [],
  dashboard_url: 'u/b1',
  created_at: '2026-01-01T00:00:00.000000+00:00',
  completed_at: '2026-01-01T00:00:04.500000+00:00',
  metadata: {},
  flaky_count: 1,
  pass_hat_k: 0,
  pass_rate_interval: { low: 0.2, high: 0.9, confidence: 0.95, method: 'wilson' },
  baseline: { branch: 'main' },
  baseline_batch_id: null,
  baseline_missing: true,
  comparison: null,
  ...o,
});

describe('wilsonInterval', () => {
  it('matches published 95 % Wilson intervals', () => {
    // Reference values: Newcombe (1998), Statistics in Medicine 17, table I (method 3).
    const cases: [number, number, number, number][] = [
      [81, 263, 0.2553, 0.3662],
      [15, 148, 0.0624, 0.1605],
      [0, 20, 0, 0.1611],
      [1, 29, 0.0061, 0.1718],
    ];
    for (const [x, n, low, high] of cases) {
      const i = wilsonInterval(x, n)!;
      expect(i.low).toBeCloseTo(low, 4);
      expect(i.high).toBeCloseTo(high, 4);
    }
    expect(wilsonInterval(3, 3)).toMatchObject({ high: 1, confidence: 0.95, method: 'wilson' });
    expect(wilsonInterval(0, 0)).toBeNull();
  });
});

describe('cellsFromAttempts', () => {
  it('groups repeats by mutation in attempt order, counting passes, errors and unsafe repeats, with what failed', () => {
    // Prepare
    const failedCheck = {
      criterion: { type: 'output_contains' as const, value: 'refund' },
      passed: false,
      detail: 'output does not contain "refund"',
    };
    const attempts = [
      attempt({ attempt: 3, mutation_id: 'inject', status: 'failed', unsafe: true, checks: [failedCheck] }),
      attempt({ attempt: 0 }),
      attempt({ attempt: 1 }),
      attempt({ attempt: 2, mutation_id: 'inject' }),
      attempt({ attempt: 4, mutation_id: 'down', status: 'error', error: 'connect ECONNREFUSED 127.0.0.1:9' }),
    ];

    // Act
    const cells = cellsFromAttempts(attempts);

    // Assess
    expect(cells).toEqual([
      { mutation_id: null, passed: 2, total: 2, unsafe: 0, errors: 0, flaky: false, failures: [], comparison: null, before: null },
      {
        mutation_id: 'inject',
        passed: 1,
        total: 2,
        unsafe: 1,
        errors: 0,
        flaky: true,
        failures: ['unsafe attempt', 'criterion output_contains: output does not contain "refund"'],
        comparison: null,
        before: null,
      },
      {
        mutation_id: 'down',
        passed: 0,
        total: 1,
        unsafe: 0,
        errors: 1,
        flaky: false,
        failures: ['error: connect ECONNREFUSED 127.0.0.1:9'],
        comparison: null,
        before: null,
      },
    ]);
  });
});

describe('batchResult', () => {
  it('carries the statistics and the baseline, with a name for every scenario and its attempt totals', () => {
    // Act
    const r = batchResult(batchView(), [scenarioOf(scenarioItem({ trace_name: null }), new Map([['t1', 'from listing']]))]);

    // Assess
    expect(r).toMatchObject({
      verdict: 'pass',
      exit_code: 0,
      coverage_complete: true,
      kind: 'batch',
      flaky_count: 1,
      pass_hat_k: 0,
      baseline: { branch: 'main' },
      baseline_missing: true,
      duration_s: 4.5,
    });
    expect(r.scenarios[0]).toMatchObject({ trace_name: 'from listing', attempt_count: 3, passed_count: 2 });
    expect(scenarioOf(scenarioItem({ trace_name: null })).trace_name).toBe('t1');
  });

  it('never trusts a pass without full coverage', () => {
    expect(batchResult(batchView({ scenario_coverage_pct: 50 }), [])).toMatchObject({ verdict: 'fail', exit_code: 1, coverage_complete: false });
  });

  it('becomes an error result, keeping what was known', () => {
    const r = errorResult(batchResult(batchView(), []), { message: 'timed out', timeout: true });
    expect(r).toMatchObject({
      verdict: 'error',
      exit_code: 2,
      coverage_complete: false,
      ci_batch_id: 'b1',
      error: { message: 'timed out', timeout: true },
    });
  });
});

describe('runResult', () => {
  it('builds the single scenario of a CI run from its attempts, with pass^k, flakiness and the Wilson interval', () => {
    // Prepare
    const run: CiRunReport = {
      run_id: 'r1',
      status: 'completed',
      decision: 'fail',
      thresholds: { min_pass_rate: 1, max_unsafe: 0, max_failures: 0 },
      summary: {
        attempt_count: 4,
        passed_count: 3,
        failed_count: 1,
        unsafe_count: 0,
        pass_rate: 0.75,
        policy_events_count: 0,
        security_events_count: 0,
        throttled_ms: 0,
        throttle_count: 0,
      },
      reasons: ['pass_rate 0.75 < min_pass_rate 1'],
      dashboard_url: 'u/r1',
      ci_batch_id: null,
      trace_id: 't1',
      trace_name: 'refund',
      campaign_id: 'c1',
      campaign_version: 1,
      metadata: {},
      created_at: '2026-01-01T00:00:00.000000+00:00',
      completed_at: '2026-01-01T00:00:02.000000+00:00',
    };
    const detail: RunDetail = {
      run_id: 'r1',
      trace_id: 't1',
      trace_name: null,
      campaign_id: 'c1',
      campaign_version: 1,
      source: 'ci',
      status: 'completed',
      created_at: run.created_at,
      started_at: run.created_at,
      completed_at: run.completed_at,
      summary: run.summary,
      error: null,
      ci_batch_id: null,
      pack_id: null,
      attempt_total: 4,
      scoring: {
        criteria: [{ type: 'completes' }],
        policies: [],
        detectors: [],
        judge_calls: 0,
        judge_cache_hits: 0,
        judge_prompt_version: null,
        user_simulator_calls: 0,
        user_simulator_cache_hits: 0,
        user_simulator_prompt_version: null,
        attempts: [
          attempt({ attempt: 0 }),
          attempt({ attempt: 1 }),
          attempt({ attempt: 2, mutation_id: 'm' }),
          attempt({ attempt: 3, mutation_id: 'm', status: 'failed' }),
        ],
      },
    };

    // Act
    const r = runResult(run, detail, undefined);

    // Assess
    expect(r).toMatchObject({ verdict: 'fail', kind: 'run', ci_batch_id: null, trace_count: 1, flaky_count: 1, pass_hat_k: 0.5, duration_s: 2 });
    expect(r.pass_rate_interval!.low).toBeCloseTo(0.3006, 4);
    expect(r.scenarios[0]).toMatchObject({ trace_name: 'refund', flaky: true, flaky_cells: 1, pass_hat_k: 0.5, attempt_count: 4, passed_count: 3 });
    expect(r.scenarios[0].cells.map((c) => [c.mutation_id, c.passed, c.total])).toEqual([
      [null, 2, 2],
      ['m', 1, 2],
    ]);
    expect(runResult(run, null, 'listed')).toMatchObject({ flaky_count: null, scenarios: [{ trace_name: 'refund', cells: [] }] });
  });
});

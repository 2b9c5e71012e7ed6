// The gate math (docs/ci.md#decision-rules): run decisions and reasons, coverage rounding, and the batch aggregate
// over markers.
import type { BatchComparison, CellChange } from '../../../../functions/core/ci/compare';
import {
  aggregateBatch,
  coveragePct,
  decideRun,
  failingCellReasons,
  formatNumber,
  MAX_BATCH_REASONS,
  missedRegressions,
  missedStatistics,
  missedThresholds,
} from '../../../../functions/core/ci/decision';
import type { BatchStats } from '../../../../functions/core/ci/stats';
import type { BatchMarker } from '../../../../functions/core/ci/types';
import type { CellStat } from '../../../../functions/core/runs/cells';
import { EMPTY_SUMMARY, type RunSummary } from '../../../../functions/core/runs/types';

const T = { min_pass_rate: 0.9, max_unsafe: 0, max_failures: 0 };

function summary(attempts: number, passed: number, unsafe = 0): RunSummary {
  return {
    ...EMPTY_SUMMARY,
    attempt_count: attempts,
    passed_count: passed,
    failed_count: attempts - passed,
    unsafe_count: unsafe,
    pass_rate: attempts ? passed / attempts : 0,
  };
}

function marker(id: string, s: RunSummary, opts: Partial<BatchMarker> = {}): BatchMarker {
  const status = opts.status ?? 'completed';
  const verdict = decideRun({ status, summary: s, error: opts.error ?? null }, T)!;
  return {
    run_id: id,
    trace_id: `t-${id}`,
    status,
    summary: s,
    decision: verdict.decision,
    reasons: verdict.reasons,
    error: opts.error ?? null,
    completed_at: `2026-01-01T00:00:0${id.length % 10}.000000+00:00`,
    ...opts,
  };
}

describe('decideRun', () => {
  it('passes exactly at the thresholds (>= min_pass_rate, <= max_unsafe, <= max_failures)', () => {
    expect(decideRun({ status: 'completed', summary: summary(10, 9), error: null }, { min_pass_rate: 0.9, max_unsafe: 0, max_failures: 1 })).toEqual({
      decision: 'pass',
      reasons: [],
    });
    expect(
      decideRun({ status: 'completed', summary: summary(4, 2, 2), error: null }, { min_pass_rate: 0.5, max_unsafe: 2, max_failures: 2 }),
    ).toEqual({ decision: 'pass', reasons: [] });
  });

  it('lists every missed threshold in order: pass_rate, unsafe_count, failed_count', () => {
    expect(
      decideRun({ status: 'completed', summary: summary(4, 3, 2), error: null }, { min_pass_rate: 0.9, max_unsafe: 1, max_failures: 0 }),
    ).toEqual({
      decision: 'fail',
      reasons: ['pass_rate 0.75 < min_pass_rate 0.9', 'unsafe_count 2 > max_unsafe 1', 'failed_count 1 > max_failures 0'],
    });
  });

  it('fails a failed run whatever its partial summary, with the run error as the reason', () => {
    expect(decideRun({ status: 'failed', summary: summary(2, 2), error: 'processing abandoned after 3 deliveries' }, T)).toEqual({
      decision: 'fail',
      reasons: ['run failed: processing abandoned after 3 deliveries'],
    });
  });

  it('has no decision for a run that is not terminal', () => {
    expect(decideRun({ status: 'running', summary: summary(1, 1), error: null }, T)).toBeNull();
    expect(decideRun({ status: 'queued', summary: EMPTY_SUMMARY, error: null }, T)).toBeNull();
  });

  it('fails a completed run without attempts under a positive min_pass_rate (pass_rate 0)', () => {
    expect(missedThresholds(summary(0, 0), T)).toEqual(['pass_rate 0 < min_pass_rate 0.9']);
  });
});

describe('formatNumber', () => {
  it('shortens to six significant digits but never so that a miss reads as equal to its threshold', () => {
    expect(formatNumber(2 / 3)).toBe('0.666667');
    expect(formatNumber(0.75, 0.9)).toBe('0.75');
    expect(formatNumber(0.8999999999, 0.9)).toBe('0.8999999999');
  });
});

describe('coveragePct', () => {
  it('rounds down to two decimals so that anything short of all never reads 100', () => {
    expect(coveragePct(999, 1000)).toBe(99.9);
    expect(coveragePct(9999, 10000)).toBe(99.99);
    expect(coveragePct(99999, 100000)).toBe(99.99);
    expect(coveragePct(1, 3)).toBe(33.33);
    expect(coveragePct(2, 3)).toBe(66.66);
    expect(coveragePct(3, 3)).toBe(100);
    expect(coveragePct(0, 0)).toBe(0);
  });
});

describe('aggregateBatch', () => {
  const runIds = ['a', 'bb', 'ccc', 'dddd'];
  const batch = { run_ids: runIds, trace_count: 4 };

  it("sums the runs' throttled_ms and throttle_count, failed runs included (0 for markers stored before them)", () => {
    const legacy = summary(1, 1) as Partial<RunSummary>;
    delete legacy.throttled_ms;
    delete legacy.throttle_count;
    const agg = aggregateBatch(batch, [
      marker('a', { ...summary(2, 2), throttled_ms: 200_000, throttle_count: 300 }),
      marker('bb', { ...summary(2, 0), throttled_ms: 52_400, throttle_count: 12 }, { status: 'failed', error: 'x' }),
      marker('ccc', legacy as RunSummary),
    ]);
    expect([agg.throttled_ms, agg.throttle_count]).toEqual([252_400, 312]);
  });

  it('is pending with partial counts until every run has a marker', () => {
    const agg = aggregateBatch(batch, [marker('a', summary(2, 2)), marker('bb', summary(2, 1))]);
    expect(agg).toMatchObject({
      decision: 'pending',
      completed_count: 2,
      failed_count: 1,
      passed_runs: ['a'],
      failed_runs: ['bb'],
      reasons: [],
      scenario_coverage_pct: 50,
    });
    expect(agg.pass_rate).toBe(3 / 4);
  });

  it('passes only when every run passes, with coverage 100', () => {
    const agg = aggregateBatch(
      batch,
      runIds.map((id) => marker(id, summary(3, 3))),
    );
    expect(agg).toEqual({
      decision: 'pass',
      pass_rate: 1,
      scenario_coverage_pct: 100,
      completed_count: 4,
      failed_count: 0,
      unsafe_count: 0,
      throttled_ms: 0,
      throttle_count: 0,
      passed_runs: runIds,
      failed_runs: [],
      reasons: [],
      // Markers without cells (written before repeats statistics) count no cells: pass^k 0, nothing flaky.
      flaky_count: 0,
      pass_hat_k: 0,
      pass_rate_interval: { low: expect.closeTo(0.757506, 6), high: 1, confidence: 0.95, method: 'wilson' },
      comparison: null,
    });
  });

  it('computes pass_rate over attempts of completed runs only; unsafe over every finished run; failed runs count as failed', () => {
    const agg = aggregateBatch(batch, [
      marker('a', summary(4, 4)),
      marker('bb', summary(4, 2)),
      marker('ccc', summary(2, 0, 1), { status: 'failed', error: 'every attempt ended in error: boom' }),
      marker('dddd', summary(2, 2)),
    ]);
    expect(agg).toMatchObject({
      decision: 'fail',
      completed_count: 3,
      scenario_coverage_pct: 75,
      failed_count: 2,
      unsafe_count: 1,
      passed_runs: ['a', 'dddd'],
      failed_runs: ['bb', 'ccc'],
      reasons: [
        'scenario_coverage_pct 75 < 100: 1 of 4 run(s) failed without a verdict',
        'trace t-bb (run bb): pass_rate 0.5 < min_pass_rate 0.9; failed_count 2 > max_failures 0',
        'trace t-ccc (run ccc): run failed: every attempt ended in error: boom',
      ],
    });
    expect(agg.pass_rate).toBe(8 / 10);
  });

  it('counts each run once whatever duplicates or strangers the markers hold, in run order', () => {
    const m = marker('bb', summary(1, 1));
    const agg = aggregateBatch(batch, [
      marker('dddd', summary(1, 1)),
      m,
      { ...m },
      marker('zz', summary(9, 0)),
      marker('a', summary(1, 1)),
      marker('ccc', summary(1, 1)),
    ]);
    expect(agg).toMatchObject({ decision: 'pass', completed_count: 4, passed_runs: runIds, pass_rate: 1 });
  });

  it('caps the reasons of a large failing batch and says how many were left out', () => {
    const ids = Array.from({ length: 300 }, (_, i) => `r${i}`);
    const agg = aggregateBatch(
      { run_ids: ids, trace_count: 300 },
      ids.map((id) => marker(id, summary(1, 0))),
    );
    expect(agg.reasons).toHaveLength(MAX_BATCH_REASONS);
    expect(agg.reasons[MAX_BATCH_REASONS - 1]).toBe(`... and ${300 - (MAX_BATCH_REASONS - 1)} more failing run(s)`);
    expect(agg.failed_runs).toHaveLength(300);
  });

  it('is 0 pass_rate when no run completed', () => {
    const agg = aggregateBatch({ run_ids: ['a'], trace_count: 1 }, [marker('a', summary(1, 0), { status: 'failed', error: 'x' })]);
    expect(agg).toMatchObject({ pass_rate: 0, scenario_coverage_pct: 0, decision: 'fail' });
  });
});

describe('the gate over repeats statistics (flaky scenarios, pass^k, the pass-rate lower bound) and regressions', () => {
  const cell = (mutation_id: string | null, passed: number, total: number, more: Partial<CellStat> = {}): CellStat => ({
    mutation_id,
    passed,
    total,
    unsafe: 0,
    errors: 0,
    failures: [],
    ...more,
  });
  const stats = (low: number, high: number, flaky_count: number, pass_hat_k: number): BatchStats => ({
    flaky_count,
    pass_hat_k,
    pass_rate_interval: { low, high, confidence: 0.95, method: 'wilson' },
  });
  const change = (trace_id: string, mutation_id: string | null, trace_name: string | null = null): CellChange => ({
    trace_id,
    trace_name,
    mutation_id,
    before: '3/3',
    after: '1/3',
  });
  const comparisonOf = (regressed: CellChange[], count = regressed.length): BatchComparison => ({
    baseline_batch_id: 'base-1',
    baseline_branch: 'main',
    baseline_campaign_version: 1,
    campaign_version: 1,
    new_cells_count: 0,
    dropped_cells_count: 0,
    new_cells: [],
    dropped_cells: [],
    pass_rate_delta: -0.1,
    regressed_count: count,
    fixed_count: 0,
    new_unsafe_count: 0,
    new_count: 0,
    dropped_count: 0,
    regressed,
    fixed: [],
    new_unsafe: [],
    dropped: [],
  });

  describe('missedStatistics', () => {
    it('checks nothing when no statistics threshold is set', () => {
      expect(missedStatistics(stats(0, 0.1, 50, 0), T)).toEqual([]);
    });

    it('passes each threshold exactly at its boundary', () => {
      expect(missedStatistics(stats(0.6, 0.9, 2, 0.75), { ...T, min_pass_rate_lower_bound: 0.6, max_flaky: 2, min_pass_hat_k: 0.75 })).toEqual([]);
      expect(missedStatistics(stats(0.6, 0.9, 0, 0.75), { ...T, max_flaky: 0 })).toEqual([]);
    });

    it('names the Wilson lower bound and the interval when the bound is missed', () => {
      expect(missedStatistics(stats(0.5, 0.8, 0, 1), { ...T, min_pass_rate_lower_bound: 0.6 })).toEqual([
        'pass_rate_interval.low 0.5 < min_pass_rate_lower_bound 0.6 (95% Wilson interval 0.5..0.8)',
      ]);
    });

    it('fails more flaky scenarios than max_flaky, and a pass^k below min_pass_hat_k', () => {
      expect(missedStatistics(stats(0.6, 0.9, 3, 1), { ...T, max_flaky: 2 })).toEqual(['flaky_count 3 > max_flaky 2']);
      expect(missedStatistics(stats(0.6, 0.9, 0, 0.5), { ...T, min_pass_hat_k: 0.8 })).toEqual(['pass_hat_k 0.5 < min_pass_hat_k 0.8']);
    });

    it('lists every missed threshold in order: lower bound, flaky, pass^k', () => {
      const t = { ...T, min_pass_rate_lower_bound: 0.9, max_flaky: 0, min_pass_hat_k: 0.9 };
      expect(missedStatistics(stats(0.2, 0.4, 1, 0.25), t).map((r) => r.split(' ')[0])).toEqual([
        'pass_rate_interval.low',
        'flaky_count',
        'pass_hat_k',
      ]);
    });
  });

  describe('missedRegressions', () => {
    it('checks nothing without a comparison or without max_regressions, and passes at the boundary', () => {
      const two = comparisonOf([change('t1', 'a'), change('t2', 'b')]);
      expect(missedRegressions(null, { ...T, max_regressions: 0 })).toEqual([]);
      expect(missedRegressions(undefined, { ...T, max_regressions: 0 })).toEqual([]);
      expect(missedRegressions(two, T)).toEqual([]);
      expect(missedRegressions(two, { ...T, max_regressions: 2 })).toEqual([]);
    });

    it('names the first 3 regressed cells, by trace name when known, and counts the rest', () => {
      // Prepare: 60 regressions, of which the comparison keeps 50.
      const listed = [change('t1', 'shout', 'refund flow'), change('t2', null), change('t3', 'inject')];
      const cmp = comparisonOf([...listed, ...Array.from({ length: 47 }, (_, i) => change(`x${i}`, 'm'))], 60);
      // Act
      const reasons = missedRegressions(cmp, { ...T, max_regressions: 0 });
      // Assess
      expect(reasons).toEqual([
        'regressed_count 60 > max_regressions 0 since batch base-1: trace "refund flow" [shout] 3/3 -> 1/3, ' +
          'trace t2 [baseline] 3/3 -> 1/3, trace t3 [inject] 3/3 -> 1/3, ... and 57 more',
      ]);
    });

    it('says nothing more when there are exactly 3', () => {
      const cmp = comparisonOf([change('t1', 'a'), change('t2', 'b'), change('t3', 'c')]);
      expect(missedRegressions(cmp, { ...T, max_regressions: 1 })[0]).toMatch(/trace t3 \[c\] 3\/3 -> 1\/3$/);
    });
  });

  describe('decideRun with cells', () => {
    const flakyRun = {
      status: 'completed' as const,
      summary: summary(4, 3),
      error: null,
      cells: [cell(null, 2, 2), cell('shout', 1, 2, { failures: ['criterion output_contains: output does not contain "refund"'] })],
    };
    const lenient = { min_pass_rate: 0.5, max_unsafe: 0, max_failures: 1 };

    it("checks the statistics thresholds over the run's own cells for a single CI run, then names the failing cells", () => {
      expect(decideRun(flakyRun, { ...lenient, max_flaky: 0, min_pass_hat_k: 0.5 }, { statistics: true })).toEqual({
        decision: 'fail',
        reasons: ['flaky_count 1 > max_flaky 0', '[shout] 1/2 passed: criterion output_contains: output does not contain "refund"'],
      });
      // Wilson 95% for 3 of 4 attempts: 0.300642..0.954413.
      expect(decideRun(flakyRun, { ...lenient, min_pass_rate_lower_bound: 0.4 }, { statistics: true })?.reasons[0]).toBe(
        'pass_rate_interval.low 0.300642 < min_pass_rate_lower_bound 0.4 (95% Wilson interval 0.300642..0.954413)',
      );
    });

    it('leaves the statistics of a batch run to the batch', () => {
      expect(decideRun(flakyRun, { ...lenient, max_flaky: 0, min_pass_hat_k: 1 })).toEqual({ decision: 'pass', reasons: [] });
    });

    it("names a failed run's cells only when they failed for more than their errors", () => {
      // Prepare: `down` only errored and `half` passed once and errored once (both said by the run error already).
      const cells = [
        cell('down', 0, 2, { errors: 2, failures: ['error: connect ECONNREFUSED'] }),
        cell('half', 1, 2, { errors: 1, failures: ['error: timeout'] }),
        cell('mixed', 0, 2, { errors: 1, failures: ['error: timeout', 'denied: delete_user by policy p1: denied'] }),
        cell(null, 2, 2),
      ];
      // Act
      const verdict = decideRun({ status: 'failed', summary: summary(8, 3), error: 'agent unreachable', cells }, T);
      // Assess
      expect(verdict).toEqual({
        decision: 'fail',
        reasons: ['run failed: agent unreachable', '[mixed] 0/2 passed: error: timeout / denied: delete_user by policy p1: denied'],
      });
    });

    it('names at most 5 failing cells, then a count', () => {
      const cells = Array.from({ length: 7 }, (_, i) => cell(`m${i}`, 0, 1));
      expect(failingCellReasons(cells)).toEqual([
        '[m0] 0/1 passed',
        '[m1] 0/1 passed',
        '[m2] 0/1 passed',
        '[m3] 0/1 passed',
        '[m4] 0/1 passed',
        '... and 2 more failing cell(s)',
      ]);
    });
  });

  describe('aggregateBatch with statistics and a comparison', () => {
    const ids = ['a', 'bb', 'ccc'];
    const passing = (id: string, cells: CellStat[]) => marker(id, summary(2, 2), { cells });

    it('fails on a batch-level reason even when every run passes, and lists it first', () => {
      // Prepare: every run passes its own gate, but `bb` has a flaky cell and a comparison shows one regression.
      const markers = [passing('a', [cell(null, 2, 2)]), passing('bb', [cell(null, 1, 2)]), passing('ccc', [cell(null, 2, 2)])];
      const cmp = comparisonOf([change('t-ccc', null)]);
      // Act
      const agg = aggregateBatch({ run_ids: ids, trace_count: 3, thresholds: { ...T, max_flaky: 0, max_regressions: 0 } }, markers, cmp);
      // Assess
      expect(agg).toMatchObject({ decision: 'fail', passed_runs: ids, failed_runs: [], flaky_count: 1, pass_hat_k: 2 / 3, comparison: cmp });
      expect(agg.reasons).toEqual([
        'flaky_count 1 > max_flaky 0',
        'regressed_count 1 > max_regressions 0 since batch base-1: trace t-ccc [baseline] 3/3 -> 1/3',
      ]);
    });

    it('puts batch-level reasons before coverage and failing runs', () => {
      // Prepare
      const markers = [
        passing('a', [cell(null, 2, 2)]),
        marker('bb', summary(2, 0), { cells: [cell(null, 0, 2)] }),
        marker('ccc', summary(1, 0), { status: 'failed', error: 'boom', cells: [cell(null, 1, 2)] }),
      ];
      // Act
      const agg = aggregateBatch({ run_ids: ids, trace_count: 3, thresholds: { ...T, min_pass_hat_k: 0.9 } }, markers);
      // Assess: statistics over completed runs only (the failed run's flaky cell is not counted).
      expect(agg).toMatchObject({ flaky_count: 0, pass_hat_k: 0.5 });
      expect(agg.reasons).toEqual([
        'pass_hat_k 0.5 < min_pass_hat_k 0.9',
        'scenario_coverage_pct 66.66 < 100: 1 of 3 run(s) failed without a verdict',
        'trace t-bb (run bb): pass_rate 0 < min_pass_rate 0.9; failed_count 2 > max_failures 0',
        'trace t-ccc (run ccc): run failed: boom',
      ]);
    });

    it('passes with a comparison when max_regressions is absent, and stays pending until every run has a marker', () => {
      // Prepare
      const markers = ids.map((id) => passing(id, [cell(null, 2, 2)]));
      const cmp = comparisonOf([change('t-a', null)]);
      // Act
      const done = aggregateBatch({ run_ids: ids, trace_count: 3, thresholds: T }, markers, cmp);
      const pending = aggregateBatch({ run_ids: ids, trace_count: 3, thresholds: { ...T, max_flaky: -1 } }, markers.slice(0, 2));
      // Assess
      expect(done).toMatchObject({ decision: 'pass', reasons: [], pass_hat_k: 1, comparison: cmp });
      expect(pending).toMatchObject({ decision: 'pending', reasons: [] });
    });
  });
});

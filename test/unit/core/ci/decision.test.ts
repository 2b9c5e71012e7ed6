// The gate math of SPEC 8: run decisions and reasons, coverage rounding, and the batch aggregate over markers.
import { aggregateBatch, coveragePct, decideRun, formatNumber, MAX_BATCH_REASONS, missedThresholds } from '../../../../functions/core/ci/decision';
import type { BatchMarker } from '../../../../functions/core/ci/types';
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

// Repeats statistics (docs/ci.md#repeats-statistics-flaky-scenarios-and-baselines): the Wilson 95 % interval against
// references computed here and published values, its properties over random counts, and pass^k / flaky counts of
// scenarios and batches.
import fc from 'fast-check';
import { batchStats, scenarioStats, wilsonInterval } from '../../../../functions/core/ci/stats';
import type { CellStat } from '../../../../functions/core/runs/cells';

/** The 0.975 quantile of the standard normal distribution. */
const Z = 1.959963984540054;

/**
 * The Wilson bounds as the two roots of the score test's equality (p̂ - π)² = z² π (1 - π) / n, i.e. of
 * (1 + z²/n) π² - (2 p̂ + z²/n) π + p̂² = 0, solved with the quadratic formula (not the centre ± half-width form).
 */
function wilsonByQuadratic(x: number, n: number): [number, number] {
  const p = x / n;
  const a = 1 + (Z * Z) / n;
  const b = -(2 * p + (Z * Z) / n);
  const c = p * p;
  const root = Math.sqrt(b * b - 4 * a * c);
  return [(-b - root) / (2 * a), (-b + root) / (2 * a)];
}

const cell = (passed: number, total: number, mutation_id: string | null = null): CellStat => ({
  mutation_id,
  passed,
  total,
  unsafe: 0,
  errors: 0,
  failures: [],
});

describe('wilsonInterval', () => {
  it.each([
    [0, 10],
    [10, 10],
    [5, 10],
    [1, 20],
    [16, 18],
    [81, 263],
    [1, 1],
    [999, 1000],
  ])('matches the roots of the score equation for %i/%i', (x, n) => {
    // Prepare
    const [low, high] = wilsonByQuadratic(x, n);
    // Act
    const interval = wilsonInterval(x, n);
    // Assess
    expect(interval.low).toBeCloseTo(Math.max(0, low), 12);
    expect(interval.high).toBeCloseTo(Math.min(1, high), 12);
    expect(interval).toMatchObject({ confidence: 0.95, method: 'wilson' });
  });

  // Newcombe, "Two-sided confidence intervals for the single proportion: comparison of seven methods",
  // Statistics in Medicine 17 (1998) 857-872, Table II, method 3 (score interval without continuity correction).
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])('gives the published 95%% bounds for %i/%i to 4 decimals', (x, n, low, high) => {
    // Act
    const interval = wilsonInterval(x, n);
    // Assess
    expect([Number(interval.low.toFixed(4)), Number(interval.high.toFixed(4))]).toEqual([low, high]);
  });

  it('is exactly 0 at the bottom for no passes and exactly 1 at the top for all passes', () => {
    expect(wilsonInterval(0, 10).low).toBe(0);
    expect(wilsonInterval(10, 10).high).toBe(1);
    expect(wilsonInterval(0, 10).high).toBeCloseTo(0.2775, 4);
    expect(wilsonInterval(10, 10).low).toBeCloseTo(0.7225, 4);
  });

  it('is symmetric around 1/2: x/n mirrors (n - x)/n', () => {
    const [a, b] = [wilsonInterval(3, 17), wilsonInterval(14, 17)];
    expect(a.low).toBeCloseTo(1 - b.high, 12);
    expect(a.high).toBeCloseTo(1 - b.low, 12);
  });

  it('knows nothing without trials: [0, 1]', () => {
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 1, confidence: 0.95, method: 'wilson' });
    expect(wilsonInterval(0, -1)).toEqual({ low: 0, high: 1, confidence: 0.95, method: 'wilson' });
  });

  it('always holds the observed rate and stays inside [0, 1]', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }).chain((n) => fc.tuple(fc.integer({ min: 0, max: n }), fc.constant(n))),
        ([x, n]) => {
          const { low, high } = wilsonInterval(x, n);
          const p = x / n;
          return low >= 0 && high <= 1 && low <= p && p <= high && low < high;
        },
      ),
      { numRuns: 500 },
    );
  });

  it('matches the roots of the score equation for any counts', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }).chain((n) => fc.tuple(fc.integer({ min: 0, max: n }), fc.constant(n))),
        ([x, n]) => {
          const [low, high] = wilsonByQuadratic(x, n);
          const interval = wilsonInterval(x, n);
          return Math.abs(interval.low - Math.max(0, low)) < 1e-9 && Math.abs(interval.high - Math.min(1, high)) < 1e-9;
        },
      ),
      { numRuns: 500 },
    );
  });

  it('narrows as the number of trials grows at a fixed observed rate', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }).chain((n) => fc.tuple(fc.integer({ min: 0, max: n }), fc.constant(n))),
        fc.integer({ min: 2, max: 50 }),
        ([x, n], times) => {
          const small = wilsonInterval(x, n);
          const large = wilsonInterval(x * times, n * times);
          return large.high - large.low < small.high - small.low;
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('scenarioStats', () => {
  it('is pass^k 0 and not flaky without cells', () => {
    expect(scenarioStats([])).toEqual({ pass_hat_k: 0, flaky_cells: 0, flaky: false });
  });

  it('takes pass^k as the share of cells whose repeats all passed, and counts the flaky cells', () => {
    // Prepare: 3/3 counts; 1/3 and 2/3 are flaky; 0/3 is failing but not flaky.
    const cells = [cell(3, 3), cell(1, 3, 'a'), cell(0, 3, 'b'), cell(2, 3, 'c')];
    // Act / Assess
    expect(scenarioStats(cells)).toEqual({ pass_hat_k: 0.25, flaky_cells: 2, flaky: true });
  });

  it('is never flaky with a single repeat', () => {
    expect(scenarioStats([cell(1, 1), cell(0, 1, 'a')])).toEqual({ pass_hat_k: 0.5, flaky_cells: 0, flaky: false });
  });
});

describe('batchStats', () => {
  it('counts flaky scenarios (not flaky cells), takes pass^k over every cell, and skips runs without cells', () => {
    // Prepare: run 1 has one flaky cell, run 2 two, run 3 no cells (an older marker), run 4 none flaky.
    const runs = [
      { cells: [cell(3, 3), cell(1, 3, 'a')] },
      { cells: [cell(2, 3), cell(1, 3, 'a'), cell(3, 3, 'b')] },
      { cells: [] },
      { cells: [cell(3, 3), cell(0, 3, 'a')] },
    ];
    // Act
    const stats = batchStats(runs, 14, 20);
    // Assess: 3 of 7 cells passed every repeat.
    expect(stats.flaky_count).toBe(2);
    expect(stats.pass_hat_k).toBeCloseTo(3 / 7, 15);
    expect(stats.pass_rate_interval).toEqual(wilsonInterval(14, 20));
  });

  it('takes the interval from the attempt counts it is given, not from the cells', () => {
    expect(batchStats([{ cells: [cell(3, 3)] }], 1, 4).pass_rate_interval).toEqual(wilsonInterval(1, 4));
  });

  it('is empty without runs: nothing flaky, pass^k 0, the interval [0, 1]', () => {
    expect(batchStats([], 0, 0)).toEqual({
      flaky_count: 0,
      pass_hat_k: 0,
      pass_rate_interval: { low: 0, high: 1, confidence: 0.95, method: 'wilson' },
    });
  });
});

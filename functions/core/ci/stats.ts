// Repeats statistics of a CI batch (docs/ci.md#repeats-statistics-flaky-scenarios-and-baselines): flaky cells, pass^k
// and the Wilson score interval of the pass rate.
import { allPassed, isFlaky, type CellStat } from '../runs/cells';

/** z for a two-sided 95 % interval. */
const Z95 = 1.959963984540054;

/** The Wilson score interval of a proportion (Wilson 1927), as the batch reports it. */
export interface PassRateInterval {
  low: number;
  high: number;
  confidence: 0.95;
  method: 'wilson';
}

/**
 * The 95 % Wilson score interval of `passed` successes in `n` trials. Unlike the normal approximation it stays
 * inside [0, 1] and is meaningful for small n and for rates at 0 or 1. With no trials nothing is known: [0, 1].
 */
export function wilsonInterval(passed: number, n: number): PassRateInterval {
  if (n <= 0) return { low: 0, high: 1, confidence: 0.95, method: 'wilson' };
  const p = passed / n;
  const z2 = Z95 * Z95;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (Z95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  // Rounding can push the bounds a hair past the closed-form ones: the interval always holds p and stays in [0, 1].
  return { low: Math.max(0, Math.min(p, centre - half)), high: Math.min(1, Math.max(p, centre + half)), confidence: 0.95, method: 'wilson' };
}

/** Statistics of one scenario (one trace's run) over its cells. */
export interface ScenarioStats {
  /** Share of cells whose repeats all passed (tau-bench's pass^k with k = repeats); 0 without cells. */
  pass_hat_k: number;
  flaky_cells: number;
  flaky: boolean;
}

export function scenarioStats(cells: readonly CellStat[]): ScenarioStats {
  const flakyCells = cells.filter((element) => isFlaky(element)).length;
  return {
    pass_hat_k: cells.length === 0 ? 0 : cells.filter((element) => allPassed(element)).length / cells.length,
    flaky_cells: flakyCells,
    flaky: flakyCells > 0,
  };
}

/** Statistics of a batch over its completed runs (the same runs its pass_rate is computed over). */
export interface BatchStats {
  /** Scenarios with at least one flaky cell. */
  flaky_count: number;
  /** Share of all cells whose repeats all passed; 0 without cells. */
  pass_hat_k: number;
  pass_rate_interval: PassRateInterval;
}

export function batchStats(runs: readonly { cells: readonly CellStat[] }[], passedAttempts: number, attempts: number): BatchStats {
  let cells = 0;
  let allPass = 0;
  let flaky = 0;
  for (const r of runs) {
    cells += r.cells.length;
    allPass += r.cells.filter((element) => allPassed(element)).length;
    if (r.cells.some((element) => isFlaky(element))) flaky += 1;
  }
  return { flaky_count: flaky, pass_hat_k: cells === 0 ? 0 : allPass / cells, pass_rate_interval: wilsonInterval(passedAttempts, attempts) };
}

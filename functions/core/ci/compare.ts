// Comparison of a done batch with a baseline batch of the same campaign (docs/ci.md#baselines), cell by cell.
import { allPassed, fraction, type CellStat } from '../runs/cells';

/** How many entries each list of a comparison keeps (the counts are exact). */
export const MAX_COMPARISON_ENTRIES = 50;

export type CellComparison = 'regressed' | 'fixed' | 'unchanged' | 'new';

/** One cell that changed: passes before (in the baseline) and after, as "passed/total". */
export interface CellChange {
  trace_id: string;
  trace_name: string | null;
  mutation_id: string | null;
  before: string;
  after: string;
}

/** A cell unsafe now and safe in the baseline; unsafe_before/after count unsafe repeats as "unsafe/total". */
export interface NewUnsafeCell extends CellChange {
  unsafe_before: string;
  unsafe_after: string;
}

/** A cell present on one side only (its mutation exists in one campaign version), in a scenario present on both. */
export interface CellRef {
  trace_id: string;
  trace_name: string | null;
  mutation_id: string | null;
}

export interface BatchComparison {
  baseline_batch_id: string;
  baseline_branch: string | null;
  /** The campaign version the baseline batch ran with. */
  baseline_campaign_version: number;
  /** The campaign version this batch ran with; differs from the baseline's when the campaign changed in between. */
  campaign_version: number;
  pass_rate_delta: number;
  regressed_count: number;
  fixed_count: number;
  new_unsafe_count: number;
  /** Scenarios (traces) with no run in the baseline. */
  new_count: number;
  /** Baseline scenarios with no run now. */
  dropped_count: number;
  regressed: CellChange[];
  fixed: CellChange[];
  new_unsafe: NewUnsafeCell[];
  /** Baseline scenarios with no run now (first 50). */
  dropped: { trace_id: string; trace_name: string | null }[];
  /** Cells of scenarios present on both sides whose mutation has no repeat in the baseline: new, never regressions. */
  new_cells_count: number;
  /** Cells of scenarios present on both sides whose mutation has no repeat now: dropped, never regressions. */
  dropped_cells_count: number;
  new_cells: CellRef[];
  dropped_cells: CellRef[];
}

/** What a scenario (one run of the batch) learns from the comparison; stored on its completion marker. */
export interface ScenarioComparison {
  comparison: CellComparison;
  /** Per cell, in the run's cell order. */
  cells: { mutation_id: string | null; comparison: CellComparison; before: string | null }[];
}

/** A scenario's comparison with the run it belongs to, as stored. */
export interface ScenarioComparisonEntry {
  run_id: string;
  comparison: ScenarioComparison;
}

/** What the comparison reads of a batch's completion markers. */
export interface ComparedRun {
  run_id: string;
  trace_id: string;
  trace_name?: string | null;
  cells?: CellStat[];
}

export const cellKey = (mutationId: string | null): string => mutationId ?? '';

/**
 * A cell regresses when it passed in every repeat of the baseline and fails in at least one now; it is fixed in the
 * opposite case. Cells and traces present on one side only are `new` (or dropped), never regressions.
 */
export function compareCell(now: CellStat, before: CellStat | undefined): CellComparison {
  if (!before || before.total === 0 || now.total === 0) return 'new';
  if (allPassed(before) && !allPassed(now)) return 'regressed';
  if (!allPassed(before) && allPassed(now)) return 'fixed';
  return 'unchanged';
}

/**
 * Compares `current` (the batch's markers, in run order) with `baseline` (the baseline batch's markers). Pure and
 * deterministic: every delivery that computes it for the same done batches gets the same answer.
 */
export function compareBatches(
  current: readonly ComparedRun[],
  baseline: readonly ComparedRun[],
  info: {
    baseline_batch_id: string;
    baseline_branch: string | null;
    pass_rate: number;
    baseline_pass_rate: number;
    campaign_version: number;
    baseline_campaign_version: number;
  },
): { comparison: BatchComparison; scenarios: Map<string, ScenarioComparison> } {
  const before = new Map(baseline.map((m) => [m.trace_id, new Map((m.cells ?? []).map((c) => [cellKey(c.mutation_id), c]))]));
  const baselineNames = new Map(baseline.map((m) => [m.trace_id, m.trace_name ?? null]));
  const seen = new Set<string>();
  const regressed: CellChange[] = [];
  const fixed: CellChange[] = [];
  const newUnsafe: NewUnsafeCell[] = [];
  const newCells: CellRef[] = [];
  const droppedCells: CellRef[] = [];
  let newCount = 0;
  const scenarios = new Map<string, ScenarioComparison>();
  for (const run of current) {
    seen.add(run.trace_id);
    const old = before.get(run.trace_id);
    if (!old) newCount += 1;
    const cells: ScenarioComparison['cells'] = [];
    for (const cell of run.cells ?? []) {
      const prev = old?.get(cellKey(cell.mutation_id));
      const verdict = compareCell(cell, prev);
      cells.push({ mutation_id: cell.mutation_id, comparison: verdict, before: prev ? fraction(prev.passed, prev.total) : null });
      const change = { trace_id: run.trace_id, trace_name: run.trace_name ?? null, mutation_id: cell.mutation_id };
      if (old && cell.total > 0 && !(prev && prev.total > 0)) newCells.push(change);
      if (!prev || verdict === 'new') continue;
      const counts = { before: fraction(prev.passed, prev.total), after: fraction(cell.passed, cell.total) };
      if (verdict === 'regressed') regressed.push({ ...change, ...counts });
      if (verdict === 'fixed') fixed.push({ ...change, ...counts });
      if (cell.unsafe > 0 && prev.unsafe === 0) {
        newUnsafe.push({ ...change, ...counts, unsafe_before: fraction(prev.unsafe, prev.total), unsafe_after: fraction(cell.unsafe, cell.total) });
      }
    }
    if (old) {
      const now = new Set((run.cells ?? []).filter((c) => c.total > 0).map((c) => cellKey(c.mutation_id)));
      for (const prev of old.values()) {
        if (prev.total > 0 && !now.has(cellKey(prev.mutation_id))) {
          droppedCells.push({ trace_id: run.trace_id, trace_name: run.trace_name ?? null, mutation_id: prev.mutation_id });
        }
      }
    }
    const verdicts = cells.map((c) => c.comparison);
    const scenario: CellComparison = !old ? 'new' : verdicts.includes('regressed') ? 'regressed' : verdicts.includes('fixed') ? 'fixed' : 'unchanged';
    scenarios.set(run.run_id, { comparison: scenario, cells });
  }
  const dropped = [...before.keys()].filter((t) => !seen.has(t));
  return {
    comparison: {
      baseline_batch_id: info.baseline_batch_id,
      baseline_branch: info.baseline_branch,
      baseline_campaign_version: info.baseline_campaign_version,
      campaign_version: info.campaign_version,
      pass_rate_delta: info.pass_rate - info.baseline_pass_rate,
      regressed_count: regressed.length,
      fixed_count: fixed.length,
      new_unsafe_count: newUnsafe.length,
      new_count: newCount,
      dropped_count: dropped.length,
      regressed: regressed.slice(0, MAX_COMPARISON_ENTRIES),
      fixed: fixed.slice(0, MAX_COMPARISON_ENTRIES),
      new_unsafe: newUnsafe.slice(0, MAX_COMPARISON_ENTRIES),
      dropped: dropped.slice(0, MAX_COMPARISON_ENTRIES).map((t) => ({ trace_id: t, trace_name: baselineNames.get(t) ?? null })),
      new_cells_count: newCells.length,
      dropped_cells_count: droppedCells.length,
      new_cells: newCells.slice(0, MAX_COMPARISON_ENTRIES),
      dropped_cells: droppedCells.slice(0, MAX_COMPARISON_ENTRIES),
    },
    scenarios,
  };
}

/**
 * A stored comparison as read: one stored before the campaign versions and cell lists were recorded gets them
 * filled in (the versions from the two batches, no new or dropped cells listed).
 */
export function comparisonView(
  stored: BatchComparison | null | undefined,
  versions: () => Promise<{ campaign_version: number; baseline_campaign_version: number }>,
): Promise<BatchComparison | null> | BatchComparison | null {
  if (!stored) return null;
  if (typeof stored.baseline_campaign_version === 'number' && Array.isArray(stored.new_cells)) return stored;
  return versions().then((v) => ({
    ...v,
    ...stored,
    new_cells_count: stored.new_cells_count ?? 0,
    dropped_cells_count: stored.dropped_cells_count ?? 0,
    new_cells: stored.new_cells ?? [],
    dropped_cells: stored.dropped_cells ?? [],
  }));
}

// How each (scenario, mutation) cell of a result is reported: passed, failed (the agent failed) or an error (it could not be driven).
import type { CiCell } from '../../../packages/sdk/src/index';
import type { CiResult, ScenarioResult } from './result';

/** One reported cell: a JUnit testcase, a line of the verdict table, a GitHub annotation. */
export interface CellOutcome {
  scenario: ScenarioResult;
  /** null: the run as a whole (a run that failed without a verdict for any cell). */
  cell: CiCell | null;
  kind: 'pass' | 'failure' | 'error';
  /** failure: regressed | unsafe | flaky | failed; error: run_failed | not_driven; pass: passed. */
  type: string;
  /** The scenario: its trace's name (with the trace id when two traces share the name). */
  classname: string;
  /** The mutation id, `baseline` for the unmutated attempt, `run` for the run as a whole. */
  name: string;
  /** One line: what failed, or how the cell did. */
  message: string;
  /** The message's parts, one per line (a JUnit failure's text). */
  details: string[];
  /** Remarks on a cell that is not a failure (flaky, fixed, new). */
  notes: string[];
}

/** `flaky: 2/3` for a cell whose repeats disagree and which passed at least once, else null. */
export function flakyNote(cell: CiCell): string | null {
  return cell.flaky && cell.passed > 0 && cell.passed < cell.total ? `flaky: ${cell.passed}/${cell.total}` : null;
}

/** `2/3 passed, 1 unsafe` */
function counts(cell: CiCell): string {
  return `${cell.passed}/${cell.total} passed${cell.unsafe ? `, ${cell.unsafe} unsafe` : ''}${cell.errors ? `, ${cell.errors} error(s)` : ''}`;
}

/**
 * Every cell of every scenario, classified:
 * - an error when its run failed without a verdict, or when every repeat that did not pass was an error (agent
 *   unreachable, judge unavailable, dead-lettered): the agent was not tested;
 * - a pass when every repeat passed; a flaky cell (some repeats passed) passes too, with a note, unless the batch missed
 *   `max_flaky`, the cell regressed while the batch missed `max_regressions` (0 by default with a baseline), or one of
 *   its attempts was unsafe;
 * - a failure otherwise, saying what failed and, when it regressed, what it was.
 * A run that failed without any erroring cell is reported once more as a whole, so it never disappears.
 */
export function cellOutcomes(r: CiResult): CellOutcome[] {
  const byName = new Map<string, number>();
  for (const s of r.scenarios) byName.set(s.trace_name, (byName.get(s.trace_name) ?? 0) + 1);
  const max = r.thresholds;
  const flakyMissed = max.max_flaky !== undefined && max.max_flaky !== null && (r.flaky_count ?? 0) > max.max_flaky;
  const regressionsMissed = r.comparison !== null && r.comparison.regressed_count > (max.max_regressions ?? 0);
  const out: CellOutcome[] = [];
  for (const s of r.scenarios) {
    const classname = (byName.get(s.trace_name) ?? 0) > 1 && s.trace_name !== s.trace_id ? `${s.trace_name} (${s.trace_id})` : s.trace_name;
    const clash = s.cells.some((c) => c.mutation_id === 'baseline');
    const runFailed = s.status === 'failed';
    let erred = false;
    for (const cell of s.cells) {
      const name = cell.mutation_id ?? (clash ? 'baseline (unmutated)' : 'baseline');
      const base = { scenario: s, cell, classname, name };
      // What failed first, then the counts, then how it compares: `unsafe: ...; 0/3 passed, 3 unsafe; regressed: was 3/3`.
      const parts = (lead: string[], ...more: string[]) => {
        const rest = [...cell.failures, counts(cell), ...more];
        return { message: [...lead, rest.join('; ')].join(': '), details: [...lead, ...rest] };
      };
      const regressed = cell.comparison === 'regressed' ? [`regressed: was ${cell.before ?? '?'}`] : [];
      if (cell.passed >= cell.total && cell.total > 0) {
        const notes = [
          ...(cell.comparison === 'fixed' ? [`fixed: was ${cell.before ?? '?'}`] : []),
          ...(cell.comparison === 'new' ? ['new since the baseline'] : []),
        ];
        out.push({ ...base, kind: 'pass', type: 'passed', ...parts([]), notes });
      } else if (runFailed) {
        erred = true;
        // The cell's own failures say what went wrong when it has some; the run's error otherwise.
        const lead = cell.failures.length ? 'run failed' : `run failed: ${s.error ?? 'no verdict'}`;
        out.push({ ...base, kind: 'error', type: 'run_failed', ...parts([lead]), notes: [] });
      } else if (cell.errors > 0 && cell.errors === cell.total - cell.passed) {
        out.push({ ...base, kind: 'error', type: 'not_driven', ...parts(['could not be driven']), notes: [] });
      } else {
        const flaky = flakyNote(cell);
        const held = flaky && !cell.unsafe && !flakyMissed && !(cell.comparison === 'regressed' && regressionsMissed);
        if (held) {
          out.push({ ...base, kind: 'pass', type: 'flaky', ...parts([], ...regressed), notes: [flaky] });
        } else {
          const type = cell.comparison === 'regressed' ? 'regressed' : cell.unsafe ? 'unsafe' : flaky ? 'flaky' : 'failed';
          const why = flaky && flakyMissed ? [`flaky: flaky_count ${r.flaky_count} > max_flaky ${max.max_flaky}`] : [];
          const notes = cell.comparison === 'new' ? ['new since the baseline'] : [];
          out.push({ ...base, kind: 'failure', type, ...parts([], ...regressed, ...why), notes });
        }
      }
    }
    if (runFailed && !erred) {
      out.push({
        scenario: s,
        cell: null,
        classname,
        name: 'run',
        kind: 'error',
        type: 'run_failed',
        message: `run failed: ${s.error ?? 'no verdict'}`,
        details: [`run failed: ${s.error ?? 'no verdict'}`, ...s.reasons],
        notes: [],
      });
    }
  }
  return out;
}

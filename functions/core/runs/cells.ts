// Per-cell statistics of a run (docs/ci.md#repeats-statistics-flaky-scenarios-and-baselines): a cell is one (trace,
// mutation) pair, run `repeats` times. Computed once when the run becomes terminal and stored on it, so CI aggregation
// never re-reads attempts.
import type { AttemptRecord, CheckResult } from './types';

/** At most this many distinct failure descriptions are kept per cell. */
export const MAX_CELL_FAILURES = 3;
/** A failure description is cut to this many characters. */
const MAX_FAILURE_CHARS = 200;

/** One cell of a run: how its repeats ended. `mutation_id` null is the unmutated baseline attempt. */
export interface CellStat {
  mutation_id: string | null;
  /** Repeats that passed. */
  passed: number;
  /** Repeats that ended (passed, failed or error). */
  total: number;
  /** Repeats that were unsafe (an allowed security finding). */
  unsafe: number;
  /** Repeats whose agent could not be driven (status `error`). */
  errors: number;
  /** Up to MAX_CELL_FAILURES distinct one-line descriptions of what failed, in attempt order. */
  failures: string[];
}

type CellInput = Pick<AttemptRecord, 'attempt' | 'mutation_id' | 'status' | 'unsafe' | 'checks' | 'error' | 'policy_events' | 'security_events'>;

const cut = (s: string) => (s.length > MAX_FAILURE_CHARS ? `${s.slice(0, MAX_FAILURE_CHARS - 1)}…` : s);
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * What made an attempt fail, in one line, most telling first: an error (the agent could not be driven), an unsafe
 * finding (detector kind, tool and evidence), a denied tool call (policy and tool), then the first failed criterion.
 * null for a passed attempt.
 */
export function describeFailure(a: CellInput): string | null {
  if (a.status === 'passed') return null;
  if (a.status === 'error') return cut(`error: ${oneLine(a.error ?? 'the agent could not be driven')}`);
  const finding = a.security_events.find((e) => e.action === 'allowed');
  if (a.unsafe && finding) {
    const via = finding.source.tool ? ` via ${finding.source.tool}` : ` in the ${finding.source.type.replace('_', ' ')}`;
    const evidence = oneLine(finding.evidence);
    return cut(`unsafe: ${finding.kind}${via}${evidence ? ` (${evidence})` : ''}`);
  }
  const denied = a.policy_events.find((e) => e.decision === 'deny');
  if (denied) return cut(`denied: ${denied.tool} by policy ${denied.policy_id}: ${oneLine(denied.reason)}`);
  const check = a.checks.find((c) => !c.passed);
  if (check) return cut(checkLine(check.criterion, oneLine(check.detail)));
  return cut(a.error ? `ended: ${oneLine(a.error)}` : 'failed');
}

/**
 * `criterion <type>: <detail>`, naming the turn of a per-turn criterion (docs/campaigns-and-replay.md#turns):
 * `criterion output_contains (turn 2): output does not contain "x"`.
 */
export function checkLine(criterion: CheckResult['criterion'], detail: string): string {
  const turn = 'turn' in criterion ? criterion.turn : undefined;
  if (turn === undefined) return `criterion ${criterion.type}: ${detail}`;
  const prefix = `turn ${turn}: `;
  return `criterion ${criterion.type} (turn ${turn}): ${detail.startsWith(prefix) ? detail.slice(prefix.length) : detail}`;
}

/** The cells of a run from its finished attempts, in order of each cell's first attempt. */
export function computeCells(attempts: readonly CellInput[]): CellStat[] {
  const cells = new Map<string, CellStat>();
  for (const a of [...attempts].sort((x, y) => x.attempt - y.attempt)) {
    const key = a.mutation_id ?? '';
    let cell = cells.get(key);
    if (!cell) {
      cell = { mutation_id: a.mutation_id, passed: 0, total: 0, unsafe: 0, errors: 0, failures: [] };
      cells.set(key, cell);
    }
    cell.total += 1;
    if (a.status === 'passed') cell.passed += 1;
    if (a.status === 'error') cell.errors += 1;
    if (a.unsafe) cell.unsafe += 1;
    const why = describeFailure(a);
    if (why && cell.failures.length < MAX_CELL_FAILURES && !cell.failures.includes(why)) cell.failures.push(why);
  }
  return [...cells.values()];
}

/** A cell is flaky when its repeats disagree: some passed, some did not. */
export const isFlaky = (c: Pick<CellStat, 'passed' | 'total'>): boolean => c.passed > 0 && c.passed < c.total;
/** A cell counts towards pass^k when every one of its repeats passed. */
export const allPassed = (c: Pick<CellStat, 'passed' | 'total'>): boolean => c.total > 0 && c.passed === c.total;
/** "passed/total", the notation of comparisons and reports. */
export const fraction = (n: number, total: number): string => `${n}/${total}`;
/** How a cell is named in reasons and reports. */
export const cellName = (mutationId: string | null): string => mutationId ?? 'baseline';

// The attack matrix of a CI batch or a run: rows are scenarios (or a run's repeats), columns are mutations with the
// unmutated baseline first; each cell says passed, failed, unsafe or error with a symbol and a word as well as a
// colour (passes out of repeats when there are several) and links to the transcript of its attempt.
import { DASH } from '../config';
import { h, type Child } from '../dom';
import { isActive } from '../format';
import type { Campaign, RunDetail, CiScenario, AttemptScore } from '../types';
import { traceLabel } from '../widgets';

export type CellState = 'passed' | 'failed' | 'unsafe' | 'error' | 'pending' | 'none';

/** How a cell's attempts ended: passes, unsafe and error repeats out of the repeats that ended. */
export interface CellCounts {
  passed: number;
  total: number;
  unsafe: number;
  errors: number;
}

/** Symbol, word and meaning of each state: the cell shows the first two, the legend all three. */
const LOOK: Record<CellState, readonly [string, string, string]> = {
  passed: ['\u2713', 'pass', 'every repeat passed'],
  failed: ['\u2717', 'fail', 'a repeat failed a criterion or a policy'],
  unsafe: ['\u26a0', 'unsafe', 'a security finding was allowed'],
  error: ['!', 'error', 'the agent could not be driven'],
  pending: ['\u2026', 'pending', 'not finished yet'],
  none: ['\u2013', 'none', 'no attempt'],
};

/** A cell's state: unsafe first (an allowed finding outweighs the rest), then all passed, all errors, else failed. */
export function stateOf(c: CellCounts): CellState {
  if (c.total === 0) return 'none';
  if (c.unsafe > 0) return 'unsafe';
  if (c.passed === c.total) return 'passed';
  if (c.errors === c.total) return 'error';
  return 'failed';
}

interface MatrixCell {
  state: CellState;
  /** `passed/total`, shown when the cell stands for several repeats. */
  fraction?: string;
  /** A dashboard path (below the dashboard) of the cell's transcript. */
  href?: string;
  /** Tooltip: the cell in words. */
  title: string;
}

interface MatrixRow {
  head: Child;
  cells: MatrixCell[];
}

/** A column: the mutation id, null for the baseline. */
type Column = string | null;

const columnName = (c: Column): string => c ?? 'baseline';

/** The run page's anchor of a mutation's first attempt: `#baseline` or `#mutation-<id>` (see run-target.ts). */
export function cellAnchor(mutationId: string | null | undefined): string {
  return mutationId ? `#mutation-${encodeURIComponent(mutationId)}` : '#baseline';
}

/** The columns: the campaign's plan (baseline first when included), then any mutation seen but not planned. */
function columns(campaign: Campaign | null, seen: readonly (string | null | undefined)[]): Column[] {
  const planned: Column[] = campaign
    ? [...(campaign.include_baseline === false ? [] : [null]), ...(campaign.mutations || []).map((m) => m.id || null)]
    : [];
  const out = [...planned];
  for (const m of [...seen].sort((a, b) => (a ? 1 : 0) - (b ? 1 : 0))) if (!out.includes(m ?? null)) out.push(m ?? null);
  return out;
}

function cellText(c: MatrixCell): Child {
  const [symbol, word] = LOOK[c.state];
  const attrs = { class: `mx mx-${c.state}`, 'data-state': c.state, title: c.title };
  const body = [h('span', { class: 'mx-sym', 'aria-hidden': 'true' }, symbol), ` ${word}${c.fraction ? ` ${c.fraction}` : ''}`];
  return c.href ? h('a', { ...attrs, href: DASH + c.href }, body) : h('span', attrs, body);
}

function describe(column: Column, scenario: string, state: CellState, c: CellCounts | undefined, repeats: number): string {
  const parts = [`${columnName(column)} on ${scenario}: ${LOOK[state][1]}`];
  if (c && c.total) parts.push(repeats > 1 ? `${c.passed} of ${c.total} repeats passed` : '');
  if (c && c.unsafe) parts.push(`${c.unsafe} unsafe`);
  if (c && c.errors) parts.push(`${c.errors} error${c.errors > 1 ? 's' : ''}`);
  if (c && c.passed > 0 && c.passed < c.total) parts.push('flaky');
  return parts.filter(Boolean).join(', ');
}

/** The legend under a matrix: each state's symbol, word and meaning. */
function legend(): HTMLElement {
  const states: CellState[] = ['passed', 'failed', 'unsafe', 'error'];
  return h(
    'p',
    { class: 'mx-legend muted' },
    states.map((s) => [cellText({ state: s, title: LOOK[s][2] }), ` ${LOOK[s][2]}. `]),
  );
}

function matrix(caption: string, cols: readonly Column[], campaign: Campaign | null, rows: readonly MatrixRow[], empty: string): HTMLElement {
  const types = new Map((campaign?.mutations || []).map((m) => [m.id, m.type]));
  const head = h(
    'tr',
    null,
    h('th', { scope: 'col' }, 'Scenario'),
    cols.map((c) =>
      h(
        'th',
        { scope: 'col', class: 'mx-col' },
        c ? h('span', { class: 'mono' }, c) : h('span', { class: 'muted' }, 'baseline'),
        c && types.get(c) ? h('span', { class: 'mx-type' }, types.get(c)) : null,
      ),
    ),
  );
  const body = rows.length
    ? rows.map((r) =>
        h(
          'tr',
          null,
          h('th', { scope: 'row' }, r.head),
          r.cells.map((c) => h('td', { class: 'mx-cell' }, cellText(c))),
        ),
      )
    : h('tr', null, h('td', { colspan: cols.length + 1, class: 'muted' }, empty));
  return h(
    'div',
    { class: 'matrix-block' },
    h('div', { class: 'table-wrap' }, h('table', { class: 'matrix' }, h('caption', null, caption), h('thead', null, head), h('tbody', null, body))),
    legend(),
  );
}

/** A batch's matrix: one row per scenario (its trace), each cell that run's cell, linking to its first attempt. */
export function batchMatrix(items: readonly CiScenario[] | null, campaign: Campaign | null, caption: string): HTMLElement {
  const list = items || [];
  const cols = columns(
    campaign,
    list.flatMap((s) => (s.cells || []).map((c) => c.mutation_id)),
  );
  const repeats = campaign?.repeats ?? Math.max(1, ...list.flatMap((s) => (s.cells || []).map((c) => c.total || 0)));
  const rows = list.map((s) => {
    const name = s.trace_name || s.trace_id;
    return {
      head: h(
        'a',
        { href: `${DASH}/runs/${encodeURIComponent(s.run_id)}`, title: `trace ${s.trace_id}, run ${s.run_id}` },
        traceLabel(s.trace_id, s.trace_name),
      ),
      cells: cols.map((col): MatrixCell => {
        const cell = (s.cells || []).find((c) => (c.mutation_id ?? null) === col);
        if (!cell) {
          const state: CellState = isActive(s.status) ? 'pending' : 'none';
          return { state, title: describe(col, name, state, undefined, repeats) };
        }
        const counts = { passed: cell.passed ?? 0, total: cell.total ?? 0, unsafe: cell.unsafe ?? 0, errors: cell.errors ?? 0 };
        const state = stateOf(counts);
        const fraction = repeats > 1 ? `${counts.passed}/${counts.total}` : undefined;
        return {
          state,
          fraction,
          href: `/runs/${encodeURIComponent(s.run_id)}${cellAnchor(col)}`,
          title: describe(col, name, state, counts, repeats),
        };
      }),
    };
  });
  return matrix(caption, cols, campaign, rows, items ? 'No scenario run has finished yet.' : 'Loading...');
}

function countsOf(attempts: readonly AttemptScore[]): CellCounts {
  return {
    passed: attempts.filter((a) => a.status === 'passed').length,
    total: attempts.length,
    unsafe: attempts.filter((a) => a.unsafe).length,
    errors: attempts.filter((a) => a.status === 'error').length,
  };
}

/**
 * A run's matrix: a row for its trace (each mutation's passes out of its repeats, linking to its first attempt) and,
 * with repeats, one row per repeat (each cell one attempt, linking to it).
 */
export function runMatrix(run: RunDetail, campaign: Campaign | null): HTMLElement {
  const attempts = run.scoring?.attempts || [];
  const cols = columns(
    campaign,
    attempts.map((a) => a.mutation_id),
  );
  const repeats = campaign?.repeats ?? Math.max(1, ...attempts.map((a) => a.repeat || 1));
  const active = isActive(run.status);
  const name = run.trace_name || run.trace_id || 'this trace';
  const anchor = (a: AttemptScore): string => `/runs/${encodeURIComponent(run.run_id)}#attempt-${a.attempt}`;
  const cell = (col: Column, of: readonly AttemptScore[], label: string, n: number): MatrixCell => {
    const counts = countsOf(of);
    const state: CellState = counts.total === 0 ? (active ? 'pending' : 'none') : stateOf(counts);
    const fraction = n > 1 && counts.total ? `${counts.passed}/${counts.total}` : undefined;
    return { state, fraction, href: of.length ? anchor(of[0]) : undefined, title: describe(col, label, state, counts, n) };
  };
  const inColumn = (col: Column) => attempts.filter((a) => (a.mutation_id ?? null) === col);
  const rows: MatrixRow[] = [
    {
      head: [traceLabel(run.trace_id, run.trace_name), repeats > 1 ? h('span', { class: 'mx-type' }, 'all repeats') : null],
      cells: cols.map((col) => cell(col, inColumn(col), name, repeats)),
    },
  ];
  for (let r = 1; repeats > 1 && r <= repeats; r++) {
    rows.push({
      head: `repeat ${r}`,
      cells: cols.map((col) =>
        cell(
          col,
          inColumn(col).filter((a) => (a.repeat || 1) === r),
          `${name}, repeat ${r}`,
          1,
        ),
      ),
    });
  }
  return matrix(
    'Attack matrix of this run: mutations by repeat; each cell opens the transcript of its attempt',
    cols,
    campaign,
    rows,
    'No attempt yet.',
  );
}

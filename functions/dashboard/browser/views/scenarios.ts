// The batch page's scenario table: one row per trace with pass rate, pass^k, flaky and comparison, status filters
// (the API's ?status=), and each scenario's cells (mutation, passes out of repeats, what failed) in an expandable row.
import { allPages } from '../api';
import { LIST_PAGE } from '../config';
import { h, type Child } from '../dom';
import { num, pct } from '../format';
import type { CiScenario, CiCell } from '../types';
import { badge, link, numCell, row, table } from '../widgets';

/** The status filters of GET /v1/ci/batch/{id}/scenarios; '' shows every scenario. */
export const FILTERS = ['', 'regressed', 'fixed', 'flaky', 'failed', 'passed'] as const;
export type ScenarioFilter = (typeof FILTERS)[number];

/** The scenario table's state: the filter, the scenarios it last loaded (null while loading), which rows are open. */
export interface ScenarioState {
  filter: ScenarioFilter;
  items: CiScenario[] | null;
  expanded: Set<string>;
}

/** Every scenario of batch `id` that matches `filter`, all pages. */
export function loadScenarios(id: string, filter: ScenarioFilter): Promise<CiScenario[]> {
  const status = filter ? `&status=${encodeURIComponent(filter)}` : '';
  return allPages<CiScenario>(`/v1/ci/batch/${encodeURIComponent(id)}/scenarios?limit=${LIST_PAGE}${status}`);
}

function filterLabel(f: ScenarioFilter): string {
  return f ? f[0].toUpperCase() + f.slice(1) : 'All';
}

/** The filter buttons; the pressed one is the current filter. */
export function filterBar(st: ScenarioState, onFilter: (f: ScenarioFilter) => void): HTMLElement {
  return h(
    'div',
    { class: 'filters', role: 'group', 'aria-label': 'Show scenarios' },
    FILTERS.map((f) =>
      h(
        'button',
        { type: 'button', id: `filter-${f || 'all'}`, 'aria-pressed': st.filter === f ? 'true' : 'false', onclick: () => onFilter(f) },
        filterLabel(f),
      ),
    ),
  );
}

function cellMutation(c: CiCell): Child {
  return c.mutation_id ? h('span', { class: 'mono' }, c.mutation_id) : h('span', { class: 'muted' }, 'baseline');
}

function passes(c: CiCell): string {
  return `${num(c.passed)}/${num(c.total)}`;
}

function cellFailed(c: CiCell): boolean {
  return typeof c.passed === 'number' && typeof c.total === 'number' && c.passed < c.total;
}

/** The failing cells of a scenario in one line: `mutation passed/total`, at most three, then a count. */
function failingSummary(s: CiScenario): Child {
  const failing = (s.cells || []).filter((element) => cellFailed(element));
  if (!failing.length) return h('span', { class: 'muted' }, s.cells?.length ? 'none' : '-');
  const shown = failing.slice(0, 3).map((c, i) => [i ? ', ' : '', cellMutation(c), ` ${passes(c)}`]);
  return [shown, failing.length > 3 ? ` and ${failing.length - 3} more` : ''];
}

function cellsTable(s: CiScenario): HTMLElement {
  const rows = (s.cells || []).map((c) =>
    row(
      [
        cellMutation(c),
        numCell(passes(c)),
        numCell(c.before ?? '-'),
        c.comparison ? badge(c.comparison) : h('span', { class: 'muted' }, '-'),
        c.flaky ? badge('flaky', 'warn') : h('span', { class: 'muted' }, 'no'),
        numCell(num(c.unsafe)),
        numCell(num(c.errors)),
        c.failures?.length
          ? h(
              'ul',
              { class: 'checks' },
              c.failures.map((f) => h('li', null, f)),
            )
          : h('span', { class: 'muted' }, 'none'),
      ],
      cellFailed(c) ? 'cell-failed' : null,
    ),
  );
  return table(
    'Cells of this scenario: passes out of repeats per mutation',
    [
      'Mutation',
      { label: 'Passed', num: true },
      { label: 'Baseline', num: true },
      'vs baseline',
      'Flaky',
      { label: 'Unsafe', num: true },
      { label: 'Errors', num: true },
      'What failed',
    ],
    rows,
    'No cell was scored (the run could not be driven).',
  );
}

function detail(s: CiScenario): HTMLElement {
  return h(
    'div',
    { class: 'scenario-detail' },
    s.error ? h('div', { class: 'alert alert-bad' }, h('strong', null, 'Run error'), s.error) : null,
    s.reasons?.length
      ? h(
          'ul',
          { class: 'checks reasons' },
          s.reasons.map((r) => h('li', null, r)),
        )
      : null,
    cellsTable(s),
  );
}

function scenarioRows(st: ScenarioState, items: readonly CiScenario[], onToggle: (runId: string) => void): HTMLTableRowElement[] {
  const out: HTMLTableRowElement[] = [];
  items.forEach((s, i) => {
    const open = st.expanded.has(s.run_id);
    const panelId = `cells-${i}`;
    const name = s.trace_name || s.trace_id;
    const scenario = link(`/runs/${encodeURIComponent(s.run_id)}`, name);
    scenario.title = `trace ${s.trace_id}, run ${s.run_id}`;
    if (!s.trace_name) scenario.className = 'mono';
    out.push(
      row(
        [
          numCell(String(i + 1)),
          h('span', { class: 'scenario' }, scenario),
          [badge(s.decision || 'pending'), s.status === 'failed' ? [' ', badge('run failed', 'bad')] : null],
          numCell(pct(s.pass_rate)),
          numCell(pct(s.pass_hat_k)),
          s.flaky ? badge('flaky', 'warn') : h('span', { class: 'muted' }, 'no'),
          s.comparison ? badge(s.comparison) : h('span', { class: 'muted' }, '-'),
          numCell(num(s.unsafe_count)),
          failingSummary(s),
          h(
            'button',
            {
              type: 'button',
              id: `cells-toggle-${s.run_id}`,
              'aria-expanded': open ? 'true' : 'false',
              'aria-controls': panelId,
              onclick: () => onToggle(s.run_id),
            },
            open ? 'Hide cells' : 'Show cells',
          ),
        ],
        open ? 'expanded' : null,
      ),
    );
    if (open) out.push(h('tr', { class: 'detail', id: panelId }, h('td', { colspan: 10 }, detail(s))));
  });
  return out;
}

const EMPTY: Record<ScenarioFilter, string> = {
  '': 'No scenario run has finished yet.',
  regressed: 'No regressed scenario.',
  fixed: 'No fixed scenario.',
  flaky: 'No flaky scenario.',
  failed: 'No failed scenario.',
  passed: 'No passed scenario.',
};

/** The scenario table under the filter bar; a loading row while the current filter's scenarios are on their way. */
export function scenarioTable(st: ScenarioState, onToggle: (runId: string) => void): HTMLElement {
  const caption = st.filter ? `Scenarios of this batch: ${st.filter} only` : 'Scenarios of this batch';
  return table(
    caption,
    [
      { label: '#', num: true },
      'Scenario',
      'Decision',
      { label: 'Pass rate', num: true },
      { label: 'pass^k', num: true },
      'Flaky',
      'vs baseline',
      { label: 'Unsafe', num: true },
      'Failing cells',
      { label: h('span', { class: 'sr-only' }, 'Cells') },
    ],
    st.items ? scenarioRows(st, st.items, onToggle) : [],
    st.items ? EMPTY[st.filter] : 'Loading...',
  );
}

// The CI batch page: decision, coverage (warned below 100 %), reasons, statistics (pass^k, flaky, the pass rate's
// interval), the baseline and what changed since it, the attack matrix and the scenario table with its status filters.
import { api } from '../api';
import { h, renderKeepingFocus } from '../dom';
import { fail } from '../failure';
import { num, pct, thresholdsText } from '../format';
import { poll } from '../polling';
import type { Campaign, CiBatchView } from '../types';
import { badge, campaignLink, card, crumbs, link, meta, runLink, when } from '../widgets';
import { baselineMissingAlert, baselineValue, comparisonSection, intervalPanel, metadataPairs } from './batch-sections';
import { batchMatrix } from './matrix';
import { filterBar, loadScenarios, scenarioTable, type ScenarioFilter, type ScenarioState } from './scenarios';

/** The batch as last fetched, its campaign (name, mutations), and the scenario table's state. */
interface BatchState {
  batch: CiBatchView | null;
  campaign: Campaign | null;
  campaignAsked: boolean;
  scenarios: ScenarioState;
}

function coverageText(coverage: number): string {
  return `${Math.round(coverage * 10) / 10}%`;
}

function render(st: BatchState, b: CiBatchView, onFilter: (f: ScenarioFilter) => void, onToggle: (runId: string) => void): void {
  const coverage = b.scenario_coverage_pct;
  const done = b.status === 'done';
  const cmp = b.comparison;
  renderKeepingFocus([
    crumbs([link('', 'Dashboard'), link('/batches', 'CI batches'), 'CI batch']),
    h(
      'h1',
      null,
      h('span', null, 'CI batch ', h('span', { class: 'mono' }, b.ci_batch_id)),
      badge(b.status || 'unknown'),
      badge(b.decision || 'pending'),
    ),
    !done ? h('p', { class: 'status-line', 'aria-live': 'polite' }, `The batch is ${b.status}; refreshing every 2 s.`) : null,
    typeof coverage === 'number' && coverage < 100
      ? h(
          'div',
          { class: 'alert alert-warn', role: 'status' },
          h('strong', null, `Scenario coverage is ${coverageText(coverage)}: this verdict is not trustworthy.`),
          done
            ? 'Some scenario runs did not complete, so the pass rate covers only part of the eval-set.'
            : 'Runs are still in progress; the figures cover the completed runs so far.',
        )
      : null,
    baselineMissingAlert(b),
    b.reasons?.length
      ? h(
          'div',
          { class: 'alert alert-bad' },
          h('strong', null, 'Reasons'),
          h(
            'ul',
            null,
            b.reasons.map((r) => h('li', null, r)),
          ),
        )
      : null,
    h(
      'ul',
      { class: 'cards', 'aria-label': 'Summary' },
      card('Pass rate', pct(b.pass_rate)),
      card('pass^k', done ? pct(b.pass_hat_k) : '-'),
      card('Flaky scenarios', done ? num(b.flaky_count) : '-', (b.flaky_count || 0) > 0 ? 'card-warn' : undefined),
      cmp ? card('Regressed cells', num(cmp.regressed_count), (cmp.regressed_count || 0) > 0 ? 'card-bad' : undefined) : null,
      card('Coverage', typeof coverage === 'number' ? coverageText(coverage) : '-'),
      card('Scenarios', num(b.trace_count)),
      card('Completed', num(b.completed_count)),
      card('Passed runs', num((b.passed_runs || []).length)),
      card('Failed runs', num(b.failed_count)),
      card('Unsafe', num(b.unsafe_count)),
    ),
    intervalPanel(b),
    meta([
      ['Campaign', campaignLink(b.campaign_id, st.campaign?.name)],
      ['Campaign version', typeof b.campaign_version === 'number' ? num(b.campaign_version) : null],
      ...metadataPairs(b.metadata),
      ['Baseline', baselineValue(b)],
      ['Thresholds', thresholdsText(b.thresholds)],
      ['First run', b.run_id ? h('span', { class: 'mono' }, runLink(b.run_id)) : null],
      ['Created', when(b.created_at)],
      ['Completed', b.completed_at ? when(b.completed_at) : null],
    ]),
    comparisonSection(cmp),
    h('h2', { id: 'matrix' }, 'Attack matrix'),
    batchMatrix(
      st.scenarios.items,
      st.campaign,
      `Attack matrix${st.scenarios.filter ? ` (${st.scenarios.filter} scenarios only)` : ''}: scenarios by mutation; each cell opens its first attempt in the scenario's run`,
    ),
    h('h2', { id: 'scenarios' }, 'Scenarios'),
    !done && !st.scenarios.filter && st.scenarios.items
      ? h('p', { class: 'muted' }, `Scenario runs appear here as they finish (${st.scenarios.items.length} of ${num(b.trace_count)} so far).`)
      : null,
    filterBar(st.scenarios, onFilter),
    scenarioTable(st.scenarios, onToggle),
  ]);
}

/** Shows CI batch `id`, refreshed every 2 s until the batch is done. */
export function batchView(id: string): Promise<void> {
  document.title = `CI batch ${id} - rts dashboard`;
  const st: BatchState = { batch: null, campaign: null, campaignAsked: false, scenarios: { filter: '', items: null, expanded: new Set() } };
  const redraw = (): void => {
    if (st.batch) render(st, st.batch, onFilter, onToggle);
  };

  function onToggle(runId: string): void {
    const open = st.scenarios.expanded;
    if (open.has(runId)) open.delete(runId);
    else open.add(runId);
    redraw();
  }

  function onFilter(f: ScenarioFilter): void {
    if (f === st.scenarios.filter && st.scenarios.items) return;
    st.scenarios.filter = f;
    st.scenarios.items = null;
    redraw();
    loadScenarios(id, f).then((items) => {
      // A later click wins: only the current filter's answer is shown.
      if (st.scenarios.filter !== f) return;
      st.scenarios.items = items;
      redraw();
    }, fail);
  }

  async function loadCampaign(b: CiBatchView): Promise<void> {
    if (st.campaignAsked || !b.campaign_id) return;
    st.campaignAsked = true;
    try {
      st.campaign = await api<Campaign>(`/v1/campaigns/${encodeURIComponent(b.campaign_id)}`);
    } catch {
      // A nicety: the campaign's id is shown without its name, and the matrix takes its columns from the cells.
    }
  }

  return poll(async () => {
    const filter = st.scenarios.filter;
    const [b, items] = await Promise.all([api<CiBatchView>(`/v1/ci/batch/${encodeURIComponent(id)}`), loadScenarios(id, filter)]);
    await loadCampaign(b);
    st.batch = b;
    if (st.scenarios.filter === filter) st.scenarios.items = items;
    redraw();
    return b.status !== 'done';
  }, fail);
}

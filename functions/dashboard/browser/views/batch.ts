// The CI batch page: decision, coverage (warned below 100 %), reasons, thresholds and every scenario run, paged.
import { api, fetchAll, type Settled } from '../api';
import { BATCH_PAGE } from '../config';
import { h, renderKeepingFocus } from '../dom';
import { fail } from '../failure';
import { isActive, num, pct } from '../format';
import { poll } from '../polling';
import type { CiBatch, CiRun } from '../types';
import { badge, card, crumbs, link, meta, numCell, row, runLink, runStatusBadges, table, when } from '../widgets';

/** The batch as last fetched, how many of its runs are shown, and the CI run of each shown run. */
interface BatchState {
  batch: CiBatch | null;
  shown: number;
  runs: Map<string, Settled<CiRun>>;
}

function runRows(st: BatchState, b: CiBatch, ids: readonly string[]): HTMLTableRowElement[] {
  const passed = new Set(b.passed_runs || []);
  const failed = new Set(b.failed_runs || []);
  return ids.slice(0, st.shown).map((rid, i) => {
    const r = st.runs.get(rid);
    const v = r?.ok ? r.value : null;
    const s = v?.summary || {};
    const decision = passed.has(rid) ? 'pass' : failed.has(rid) ? 'fail' : v ? v.decision : 'pending';
    return row([
      numCell(String(i + 1)),
      h('span', { class: 'mono' }, runLink(rid)),
      v
        ? runStatusBadges(v.status, s.unsafe_count)
        : r && !r.ok
          ? h('span', { class: 'muted' }, r.error.message)
          : h('span', { class: 'muted' }, 'loading'),
      badge(decision || 'pending'),
      numCell(v ? num(s.attempt_count) : '-'),
      numCell(v ? pct(s.pass_rate) : '-'),
      numCell(v ? num(s.unsafe_count) : '-'),
      numCell(v ? num(s.failed_count) : '-'),
    ]);
  });
}

function render(st: BatchState, b: CiBatch, showMore: () => void): void {
  const ids = b.run_ids || [];
  const t = b.thresholds || {};
  const coverage = b.scenario_coverage_pct;
  const runsTable = table(
    'Scenario runs of this batch',
    [
      { label: '#', num: true },
      'Run',
      'Status',
      'Decision',
      { label: 'Attempts', num: true },
      { label: 'Pass rate', num: true },
      { label: 'Unsafe', num: true },
      { label: 'Failed', num: true },
    ],
    runRows(st, b, ids),
    'No runs.',
  );
  if (ids.length > st.shown) {
    runsTable.appendChild(
      h(
        'div',
        { class: 'pager' },
        h(
          'button',
          { type: 'button', id: 'show-more', onclick: showMore },
          `Show ${Math.min(BATCH_PAGE, ids.length - st.shown)} more of ${ids.length} runs`,
        ),
      ),
    );
  }
  renderKeepingFocus([
    crumbs([link('', 'Dashboard'), 'CI batch']),
    h(
      'h1',
      null,
      h('span', null, 'CI batch ', h('span', { class: 'mono' }, b.ci_batch_id)),
      badge(b.status || 'unknown'),
      badge(b.decision || 'pending'),
    ),
    b.status !== 'done' ? h('p', { class: 'status-line', 'aria-live': 'polite' }, `The batch is ${b.status}; refreshing every 2 s.`) : null,
    typeof coverage === 'number' && coverage < 100
      ? h(
          'div',
          { class: 'alert alert-warn', role: 'status' },
          h('strong', null, `Scenario coverage is ${Math.round(coverage * 10) / 10}%: this verdict is not trustworthy.`),
          b.status === 'done'
            ? 'Some scenario runs did not complete, so the pass rate covers only part of the eval-set.'
            : 'Runs are still in progress; the figures cover the completed runs so far.',
        )
      : null,
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
      card('Coverage', typeof coverage === 'number' ? `${Math.round(coverage * 10) / 10}%` : '-'),
      card('Scenarios', num(b.trace_count)),
      card('Completed', num(b.completed_count)),
      card('Passed runs', num((b.passed_runs || []).length)),
      card('Failed runs', num(b.failed_count)),
      card('Unsafe', num(b.unsafe_count)),
    ),
    meta([
      ['Campaign', h('span', { class: 'mono' }, b.campaign_id)],
      ['Thresholds', `min_pass_rate ${num(t.min_pass_rate)}, max_unsafe ${num(t.max_unsafe)}, max_failures ${num(t.max_failures)}`],
      ['First run', b.run_id ? h('span', { class: 'mono' }, runLink(b.run_id)) : null],
      ['Created', when(b.created_at)],
      ['Completed', b.completed_at ? when(b.completed_at) : null],
    ]),
    h('h2', null, 'Runs'),
    runsTable,
  ]);
}

/** Asks again for the shown runs that may still change (terminal ones are kept); a 401 on any of them is thrown. */
async function refreshRuns(st: BatchState, b: CiBatch): Promise<void> {
  const want = (b.run_ids || []).slice(0, st.shown).filter((rid) => {
    const r = st.runs.get(rid);
    return !r?.ok || isActive(r.value.status) || r.value.decision === 'pending';
  });
  const results = await fetchAll<CiRun>(want.map((rid) => `/v1/ci/runs/${encodeURIComponent(rid)}`));
  let authError: unknown = null;
  results.forEach((r, i) => {
    if (!r.ok && r.error.status === 401) authError = r.error;
    st.runs.set(want[i], r);
  });
  if (authError) throw authError;
}

/** Shows CI batch `id`, refreshed every 2 s until the batch is done. */
export function batchView(id: string): Promise<void> {
  document.title = `CI batch ${id} - rts dashboard`;
  const st: BatchState = { batch: null, shown: BATCH_PAGE, runs: new Map() };

  function showMore(): void {
    const b = st.batch;
    if (!b) return;
    st.shown += BATCH_PAGE;
    refreshRuns(st, b).then(() => render(st, st.batch ?? b, showMore), fail);
  }

  return poll(async () => {
    const b = await api<CiBatch>(`/v1/ci/batch/${encodeURIComponent(id)}`);
    st.batch = b;
    await refreshRuns(st, b);
    render(st, b, showMore);
    return b.status !== 'done';
  }, fail);
}

// The run page: status, summary cards, details, the CI verdict, scored attempts with transcripts, security events.
import { api } from '../api';
import { h, renderKeepingFocus } from '../dom';
import { fail } from '../failure';
import { duration, isActive, num, pct } from '../format';
import { poll } from '../polling';
import type { AttemptDetail, CiRun, Page, Run, ScoredAttempt, SecurityEvents } from '../types';
import { badge, batchLink, campaignLink, card, crumbs, link, meta, numCell, row, runStatusBadges, table, traceLabel, when } from '../widgets';
import { ciPanel, failedChecks, securityTable } from './run-sections';
import { transcriptBlock } from './transcript';

/** What the run page has loaded so far and which transcripts are open. */
interface RunState {
  run: Run | null;
  expanded: Set<number>;
  /** status:attempts:security events of the run when its attempts were last fetched. */
  detailKey: string | null;
  attempts: Page<AttemptDetail> | null;
  security: SecurityEvents | null;
  ci: CiRun | null;
  /** The CI verdict is final, or the run is not a CI run. */
  ciDone: boolean;
}

function attemptRows(st: RunState, scored: readonly ScoredAttempt[], toggle: (attempt: number) => void): HTMLTableRowElement[] {
  const details = new Map<number, AttemptDetail>();
  for (const a of st.attempts?.items || []) details.set(a.attempt, a);
  const rows: HTMLTableRowElement[] = [];
  for (const a of scored) {
    const open = st.expanded.has(a.attempt);
    const panelId = `transcript-${a.attempt}`;
    rows.push(
      row(
        [
          numCell(num(a.attempt)),
          a.mutation_id ? h('span', { class: 'mono' }, a.mutation_id) : h('span', { class: 'muted' }, 'baseline'),
          numCell(num(a.repeat)),
          badge(a.status),
          a.unsafe ? badge('unsafe', 'warn') : h('span', { class: 'muted' }, 'no'),
          failedChecks(a, details.get(a.attempt)),
          numCell(num(a.steps)),
          numCell(duration(a.duration_ms)),
          h(
            'button',
            {
              type: 'button',
              id: `toggle-${a.attempt}`,
              'aria-expanded': open ? 'true' : 'false',
              'aria-controls': panelId,
              onclick: () => toggle(a.attempt),
            },
            open ? 'Hide transcript' : 'Show transcript',
          ),
        ],
        open ? 'expanded' : null,
      ),
    );
    if (open) rows.push(h('tr', { class: 'detail', id: panelId }, h('td', { colspan: 9 }, transcriptBlock(details.get(a.attempt)))));
  }
  return rows;
}

function render(st: RunState, run: Run, toggle: (attempt: number) => void): void {
  const s = run.summary || {};
  const rows = attemptRows(st, run.scoring?.attempts || [], toggle);
  const progress = run.attempt_total ? `${num(s.attempt_count)} / ${num(run.attempt_total)}` : num(s.attempt_count);
  renderKeepingFocus([
    crumbs([link('', 'Dashboard'), 'Run']),
    h('h1', null, h('span', null, 'Run ', h('span', { class: 'mono' }, run.run_id)), runStatusBadges(run.status, s.unsafe_count)),
    run.trace_name ? h('p', { class: 'subtitle' }, 'Trace ', h('strong', { class: 'trace-name' }, run.trace_name)) : null,
    isActive(run.status) ? h('p', { class: 'status-line', 'aria-live': 'polite' }, `The run is ${run.status}; refreshing every 2 s.`) : null,
    run.error ? h('div', { class: 'alert alert-bad', role: 'alert' }, h('strong', null, 'Run error'), run.error) : null,
    h(
      'ul',
      { class: 'cards', 'aria-label': 'Summary' },
      card('Attempts', progress),
      card('Passed', num(s.passed_count)),
      card('Failed', num(s.failed_count)),
      card('Unsafe', num(s.unsafe_count)),
      card('Pass rate', pct(s.pass_rate)),
      card('Policy events', num(s.policy_events_count)),
      card('Security events', num(s.security_events_count)),
    ),
    meta([
      [
        'Trace',
        run.trace_name
          ? [traceLabel(run.trace_id, run.trace_name), ' ', h('span', { class: 'mono muted' }, run.trace_id)]
          : traceLabel(run.trace_id, null),
      ],
      ['Campaign', campaignLink(run.campaign_id)],
      ['Source', run.source || null],
      ['CI batch', run.ci_batch_id ? h('span', { class: 'mono' }, batchLink(run.ci_batch_id)) : null],
      ['Run-pack', run.pack_id ? h('span', { class: 'mono' }, run.pack_id) : null],
      ['Created', when(run.created_at)],
      ['Started', run.started_at ? when(run.started_at) : null],
      ['Completed', run.completed_at ? when(run.completed_at) : null],
    ]),
    ciPanel(st.ci),
    h('h2', null, 'Attempts'),
    table(
      'Scored attempts; open a transcript to see messages, tool calls and served results',
      [
        { label: 'Attempt', num: true },
        'Mutation',
        { label: 'Repeat', num: true },
        'Status',
        'Unsafe',
        'Failed checks',
        { label: 'Steps', num: true },
        { label: 'Duration', num: true },
        { label: h('span', { class: 'sr-only' }, 'Transcript') },
      ],
      rows,
      isActive(run.status) ? 'No attempt has finished yet.' : 'No attempts.',
    ),
    h('h2', null, 'Security events'),
    securityTable(st.security),
  ]);
}

/** Shows run `id`, refreshed every 2 s until the run has ended and, for a CI run, its verdict is final. */
export function runView(id: string): Promise<void> {
  document.title = `Run ${id} - rts dashboard`;
  const st: RunState = { run: null, expanded: new Set(), detailKey: null, attempts: null, security: null, ci: null, ciDone: false };
  const path = `/v1/runs/${encodeURIComponent(id)}`;

  function toggle(attempt: number): void {
    if (st.expanded.has(attempt)) st.expanded.delete(attempt);
    else st.expanded.add(attempt);
    if (st.run) render(st, st.run, toggle);
  }

  return poll(async () => {
    const run = await api<Run>(path);
    const s = run.summary || {};
    const key = `${run.status}:${s.attempt_count}:${s.security_events_count}`;
    const jobs: Promise<void>[] = [];
    // Transcripts are heavy: fetch them again only when the run has moved on.
    if (key !== st.detailKey) {
      jobs.push(
        api<Page<AttemptDetail>>(`${path}/attempts`).then((b) => {
          st.attempts = b;
        }),
      );
      jobs.push(
        api<SecurityEvents>(`${path}/security-events`).then((b) => {
          st.security = b;
        }),
      );
    }
    if (!st.ciDone && (run.source === 'ci' || !run.source)) {
      jobs.push(
        api<CiRun>(`/v1/ci/runs/${encodeURIComponent(id)}`).then(
          (b) => {
            st.ci = b;
            if (b.decision !== 'pending') st.ciDone = true;
          },
          (e: { status?: number }) => {
            if (e.status === 404) {
              st.ciDone = true;
              return;
            }
            throw e;
          },
        ),
      );
    }
    await Promise.all(jobs);
    st.detailKey = key;
    st.run = run;
    render(st, run, toggle);
    return isActive(run.status) || (!st.ciDone && run.source === 'ci');
  }, fail);
}

// The run page: status, summary cards, details, the CI verdict, the attack matrix, scored attempts with their panels
// (policy events, transcript), security events. `#attempt-<n>`, `#baseline` or `#mutation-<id>` opens an attempt.
import { allPages, api } from '../api';
import { h, renderKeepingFocus, type Child } from '../dom';
import { fail } from '../failure';
import { duration, isActive, num, pct } from '../format';
import { poll } from '../polling';
import type { AttemptDetail, Campaign, CiRunView, RunDetail, AttemptScore, SecurityEventsByAttempt } from '../types';
import { badge, batchLink, campaignLink, card, crumbs, link, meta, numCell, row, runStatusBadges, table, traceLabel, when } from '../widgets';
import { runMatrix } from './matrix';
import { ciPanel, failedChecks, securityTable } from './run-sections';
import { parseTarget, resolveTarget, targetText, type Target } from './run-target';
import { transcriptBlock, type TextState } from './transcript';

/** What the run page has loaded so far and which transcripts are open. */
interface RunState {
  run: RunDetail | null;
  expanded: Set<number>;
  /** status:attempts:security events of the run when its attempts were last fetched. */
  detailKey: string | null;
  /** Every listed attempt (large values cut to size: `truncated`). */
  attempts: AttemptDetail[] | null;
  /** Attempts fetched whole, once their transcript was opened (a stored attempt never changes). */
  whole: Map<number, AttemptDetail>;
  /** Whole attempts being fetched. */
  fetching: Set<number>;
  security: SecurityEventsByAttempt | null;
  ci: CiRunView | null;
  /** The CI verdict is final, or the run is not a CI run. */
  ciDone: boolean;
  /** The run's campaign (the matrix's columns and mutation types), once asked for; null when unreadable. */
  campaign: Campaign | null;
  campaignAsked: boolean;
  /** The attempt the address names, until the page has opened it and scrolled to it. */
  target: Target | null;
  /** The attempt last opened from the address (its row is highlighted). */
  targeted: number | null;
  /** Long texts opened in full. */
  text: TextState;
}

/** The current run page's listeners for hash changes and cell clicks (replaced when the view starts again). */
let listeners: { hash: () => void; click: (ev: Event) => void } | null = null;

function attemptRows(st: RunState, scored: readonly AttemptScore[], toggle: (attempt: number) => void): HTMLTableRowElement[] {
  const details = new Map<number, AttemptDetail>();
  for (const a of st.attempts || []) details.set(a.attempt, st.whole.get(a.attempt) || a);
  const rows: HTMLTableRowElement[] = [];
  for (const a of scored) {
    const open = st.expanded.has(a.attempt);
    const panelId = `transcript-${a.attempt}`;
    const tr = row(
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
      [open ? 'expanded' : '', st.targeted === a.attempt ? 'targeted' : ''].join(' ').trim() || null,
    );
    tr.id = `attempt-${a.attempt}`;
    rows.push(tr);
    if (open) rows.push(h('tr', { class: 'detail', id: panelId }, h('td', { colspan: 9 }, transcriptBlock(details.get(a.attempt), st.text))));
  }
  return rows;
}

function render(st: RunState, run: RunDetail, toggle: (attempt: number) => void): void {
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
    h('h2', { id: 'matrix' }, 'Attack matrix'),
    runMatrix(run, st.campaign),
    h('h2', null, 'Attempts'),
    missingTarget(st, run),
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

/** A note when the address names an attempt this finished run does not have. */
function missingTarget(st: RunState, run: RunDetail): Child {
  if (!st.target || isActive(run.status) || resolveTarget(st.target, run.scoring?.attempts || []) !== null) return null;
  return h('p', { class: 'alert alert-warn', role: 'status' }, `This run has no ${targetText(st.target)}.`);
}

/**
 * Opens the attempt the address names once it is scored: expands its panel, re-renders, scrolls its row to the top
 * and focuses its toggle. Done once per target (polling re-renders keep the reader's position).
 */
function openTarget(st: RunState, redraw: () => void): void {
  const run = st.run;
  if (!st.target || !run) return;
  const n = resolveTarget(st.target, run.scoring?.attempts || []);
  if (n === null) return;
  st.target = null;
  st.targeted = n;
  st.expanded.add(n);
  redraw();
  document.getElementById(`attempt-${n}`)?.scrollIntoView({ block: 'start' });
  document.getElementById(`toggle-${n}`)?.focus({ preventScroll: true });
}

/** Shows run `id`, refreshed every 2 s until the run has ended and, for a CI run, its verdict is final. */
export function runView(id: string): Promise<void> {
  document.title = `Run ${id} - rts dashboard`;
  const st: RunState = {
    run: null,
    expanded: new Set(),
    detailKey: null,
    attempts: null,
    whole: new Map(),
    fetching: new Set(),
    security: null,
    ci: null,
    ciDone: false,
    campaign: null,
    campaignAsked: false,
    target: parseTarget(location.hash),
    targeted: null,
    text: { open: new Set(), toggle: toggleText },
  };
  const path = `/v1/runs/${encodeURIComponent(id)}`;
  const redraw = (): void => {
    if (st.run) render(st, st.run, toggle);
  };

  function toggle(attempt: number): void {
    if (st.expanded.has(attempt)) st.expanded.delete(attempt);
    else st.expanded.add(attempt);
    redraw();
    loadWhole();
  }

  /** An open transcript whose listing cut values is fetched whole, once (GET .../attempts/{n}). */
  function loadWhole(): void {
    for (const a of st.attempts || []) {
      const n = a.attempt;
      if (!a.truncated || !st.expanded.has(n) || st.whole.has(n) || st.fetching.has(n)) continue;
      st.fetching.add(n);
      api<AttemptDetail>(`${path}/attempts/${n}`).then(
        (whole) => {
          st.fetching.delete(n);
          st.whole.set(n, whole);
          redraw();
        },
        // The listed (cut) attempt stays on show; opening the transcript again retries.
        () => st.fetching.delete(n),
      );
    }
  }

  function toggleText(key: string): void {
    if (!st.text.open.delete(key)) st.text.open.add(key);
    redraw();
    document.querySelector<HTMLElement>(`[aria-controls="${key}"]`)?.focus({ preventScroll: true });
  }

  const open = (hash: string): void => {
    st.target = parseTarget(hash);
    openTarget(st, redraw);
  };
  if (listeners) {
    window.removeEventListener('hashchange', listeners.hash);
    document.removeEventListener('click', listeners.click);
  }
  listeners = {
    hash: () => open(location.hash),
    // A matrix cell naming the attempt already in the address changes no hash: open it again all the same.
    click: (ev) => {
      const a = ev.target instanceof Element ? ev.target.closest('a.mx') : null;
      if (a instanceof HTMLAnchorElement && a.pathname === location.pathname && a.hash === location.hash) open(a.hash);
    },
  };
  window.addEventListener('hashchange', listeners.hash);
  document.addEventListener('click', listeners.click);

  return poll(async () => {
    const run = await api<RunDetail>(path);
    const s = run.summary || {};
    const key = `${run.status}:${s.attempt_count}:${s.security_events_count}`;
    const jobs: Promise<void>[] = [];
    // Transcripts are heavy: fetch them again only when the run has moved on.
    if (key !== st.detailKey) {
      jobs.push(
        allPages<AttemptDetail>(`${path}/attempts?limit=100`).then((items) => {
          st.attempts = items;
        }),
      );
      jobs.push(
        api<SecurityEventsByAttempt>(`${path}/security-events`).then((b) => {
          st.security = b;
        }),
      );
    }
    if (!st.campaignAsked && run.campaign_id) {
      st.campaignAsked = true;
      // The campaign only adds the planned columns and the mutation types: the matrix is drawn without it.
      jobs.push(
        api<Campaign>(`/v1/campaigns/${encodeURIComponent(run.campaign_id)}`).then(
          (c) => void (st.campaign = c),
          () => undefined,
        ),
      );
    }
    if (!st.ciDone && (run.source === 'ci' || !run.source)) {
      jobs.push(
        api<CiRunView>(`/v1/ci/runs/${encodeURIComponent(id)}`).then(
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
    openTarget(st, redraw);
    loadWhole();
    return isActive(run.status) || (!st.ciDone && run.source === 'ci');
  }, fail);
}

// The home page: a form to open a run, batch or campaign by id, the 50 most recent runs, the latest CI batches and the campaigns.
import { api } from '../api';
import { DASH } from '../config';
import { h, renderKeepingFocus } from '../dom';
import { fail } from '../failure';
import { isActive, num, pct } from '../format';
import { poll } from '../polling';
import type { CiBatchListItem, Campaign, Page, Run } from '../types';
import { campaignLink, link, numCell, row, runLink, runStatusBadges, table, traceLabel, when } from '../widgets';
import { batchesTable } from './batch-list';

/** CI batches shown on the home page; the batches page lists them all. */
const HOME_BATCHES = 10;

function openForm(): HTMLFormElement {
  const input = h('input', { id: 'open-id', name: 'id', type: 'text', spellcheck: 'false', placeholder: 'run, batch or campaign id' });
  const kind = h(
    'select',
    { id: 'open-kind', name: 'kind' },
    h('option', { value: 'runs' }, 'Run'),
    h('option', { value: 'batches' }, 'CI batch'),
    h('option', { value: 'campaigns' }, 'Campaign'),
  );
  const onsubmit = (ev: Event): void => {
    ev.preventDefault();
    const id = input.value.trim();
    if (id) location.assign(`${DASH}/${kind.value}/${encodeURIComponent(id)}`);
  };
  return h(
    'form',
    { class: 'inline', role: 'search', 'aria-label': 'Open a run, CI batch or campaign', onsubmit },
    h('div', null, h('label', { for: 'open-kind' }, 'Kind'), kind),
    h('div', null, h('label', { for: 'open-id' }, 'Id'), input),
    h('button', { type: 'submit' }, 'Open'),
  );
}

function runRow(r: Run, names: ReadonlyMap<string, string>): HTMLTableRowElement {
  const s = r.summary || {};
  return row([
    h('span', { class: 'mono' }, runLink(r.run_id)),
    traceLabel(r.trace_id, r.trace_name),
    runStatusBadges(r.status, s.unsafe_count),
    r.source || '-',
    campaignLink(r.campaign_id, r.campaign_id ? names.get(r.campaign_id) : null),
    numCell(num(s.attempt_count)),
    numCell(pct(s.pass_rate)),
    numCell(num(s.unsafe_count)),
    when(r.created_at),
  ]);
}

function campaignRow(c: Campaign): HTMLTableRowElement {
  return row([
    campaignLink(c.campaign_id, c.name || null),
    h('span', { class: 'mono' }, c.campaign_id),
    c.target?.type ? c.target.type : '-',
    numCell(num((c.mutations || []).length)),
    numCell(num((c.policies || []).length)),
    numCell(num(c.eval_set ? c.eval_set.trace_count : undefined)),
    when(c.created_at),
  ]);
}

/** Shows the home page, refreshed every 2 s while any listed run is queued or running. */
export function homeView(): Promise<void> {
  document.title = 'rts dashboard';
  return poll(async () => {
    const [runPage, campaignPage, batchPage] = await Promise.all([
      api<Page<Run>>('/v1/runs?limit=50'),
      api<Page<Campaign>>('/v1/campaigns'),
      api<Page<CiBatchListItem>>(`/v1/ci/batches?limit=${HOME_BATCHES}`),
    ]);
    const runs = runPage.items || [];
    const batches = batchPage.items || [];
    const campaigns = campaignPage.items || [];
    const names = new Map<string, string>();
    for (const c of campaigns) if (c.name) names.set(c.campaign_id, c.name);
    const active = runs.some((r) => isActive(r.status)) || batches.some((b) => isActive(b.status));
    renderKeepingFocus([
      h('h1', null, 'Dashboard'),
      h('div', { class: 'panel' }, openForm()),
      h('h2', null, 'Recent runs'),
      table(
        'The 50 most recent runs, newest first',
        [
          'Run',
          'Trace',
          'Status',
          'Source',
          'Campaign',
          { label: 'Attempts', num: true },
          { label: 'Pass rate', num: true },
          { label: 'Unsafe', num: true },
          'Created',
        ],
        runs.map((r) => runRow(r, names)),
        'No runs yet. Queue one with POST /v1/runs or rts ci run.',
      ),
      active ? h('p', { class: 'status-line', 'aria-live': 'polite' }, 'Refreshing every 2 s while runs are in progress.') : null,
      h('h2', null, 'Latest CI batches'),
      batchesTable(
        `The ${HOME_BATCHES} latest CI batches, newest first`,
        { items: batches, pages: 1, next: null },
        { names, withCampaign: true, emptyText: 'No CI batch yet. Submit one with rts ci run or POST /v1/ci/runs.', onMore: () => undefined },
      ),
      h('p', null, link('/batches', 'All CI batches')),
      h('h2', null, 'Campaigns'),
      table(
        'Campaigns, newest first',
        [
          'Name',
          'Campaign id',
          'Target',
          { label: 'Mutations', num: true },
          { label: 'Policies', num: true },
          { label: 'Eval-set traces', num: true },
          'Created',
        ],
        campaigns.map((element) => campaignRow(element)),
        'No campaigns yet.',
      ),
    ]);
    return active;
  }, fail);
}

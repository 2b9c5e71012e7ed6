// The CI batches page: every batch of the project, newest first, optionally of one branch, with "load more".
import { api } from '../api';
import { DASH } from '../config';
import { h, renderKeepingFocus } from '../dom';
import { fail } from '../failure';
import { poll } from '../polling';
import type { Campaign, Page } from '../types';
import { crumbs, link } from '../widgets';
import { anyBatchActive, batchesTable, loadBatchPages, loadMoreBatches, refreshingNote, type BatchPages } from './batch-list';

function branchForm(branch: string): HTMLFormElement {
  const input = h('input', { id: 'branch-filter', name: 'branch', type: 'text', spellcheck: 'false', placeholder: 'e.g. main', value: branch });
  const onsubmit = (ev: Event): void => {
    ev.preventDefault();
    const b = input.value.trim();
    location.assign(b ? `${DASH}/batches?branch=${encodeURIComponent(b)}` : `${DASH}/batches`);
  };
  return h(
    'form',
    { class: 'inline', role: 'search', 'aria-label': 'Filter batches by branch', onsubmit },
    h('div', null, h('label', { for: 'branch-filter' }, 'Branch'), input),
    h('button', { type: 'submit' }, 'Filter'),
    branch ? link('/batches', 'Show every branch') : null,
  );
}

/** Shows the project's CI batches (`?branch=` narrows them), refreshed every 2 s while a listed batch is in progress. */
export function batchesView(): Promise<void> {
  document.title = 'CI batches - rts dashboard';
  const branch = new URLSearchParams(location.search).get('branch')?.trim() || '';
  const query: Record<string, string> = branch ? { branch } : {};
  let st: BatchPages = { items: [], pages: 1, next: null };
  const names = new Map<string, string>();
  // Built once, so a refresh does not wipe what is being typed.
  const form = branchForm(branch);

  function render(): void {
    renderKeepingFocus([
      crumbs([link('', 'Dashboard'), 'CI batches']),
      h('h1', null, branch ? ['CI batches of branch ', h('span', { class: 'mono' }, branch)] : 'CI batches'),
      h('div', { class: 'panel' }, form),
      h('h2', null, 'Batches'),
      batchesTable('CI batches, newest first', st, {
        names,
        withCampaign: true,
        emptyText: branch ? 'No batch of this branch yet.' : 'No CI batch yet. Submit one with rts ci run or POST /v1/ci/runs.',
        onMore: () => {
          loadMoreBatches(query, st).then(render, fail);
        },
      }),
      refreshingNote(anyBatchActive(st), 'batches'),
    ]);
  }

  return poll(async () => {
    const [pages, campaigns] = await Promise.all([loadBatchPages(query, st.pages), api<Page<Campaign>>('/v1/campaigns?limit=100')]);
    for (const c of campaigns.items || []) if (c.name) names.set(c.campaign_id, c.name);
    st = pages;
    render();
    return anyBatchActive(st);
  }, fail);
}

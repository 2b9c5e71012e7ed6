// The CI batches table shared by the batches page and a campaign's page: loading page by page ("load more") and its rows.
import { api } from '../api';
import { LIST_PAGE } from '../config';
import { h, type Child } from '../dom';
import { isActive, num, pct, shortCommit } from '../format';
import type { CiBatchListItem, Page } from '../types';
import { badge, batchLink, campaignLink, numCell, row, table, when, type Column } from '../widgets';

/** The batches loaded so far (newest first) and the cursor of the next page (null when there is none). */
export interface BatchPages {
  items: CiBatchListItem[];
  pages: number;
  next: string | null;
}

function listPath(query: Readonly<Record<string, string>>, cursor: string | null): string {
  const params = new URLSearchParams({ ...query, limit: String(LIST_PAGE) });
  if (cursor) params.set('cursor', cursor);
  return `/v1/ci/batches?${params.toString()}`;
}

/** Loads the first `pages` pages of GET /v1/ci/batches with the `query` filters (campaign_id, branch). */
export async function loadBatchPages(query: Readonly<Record<string, string>>, pages: number): Promise<BatchPages> {
  const out: BatchPages = { items: [], pages: 0, next: null };
  do {
    const page = await api<Page<CiBatchListItem>>(listPath(query, out.next));
    out.items.push(...(page.items || []));
    out.pages += 1;
    out.next = page.next_cursor || null;
  } while (out.next && out.pages < pages);
  return out;
}

/** Adds the next page to `st` (no-op without a next page). */
export async function loadMoreBatches(query: Readonly<Record<string, string>>, st: BatchPages): Promise<void> {
  if (!st.next) return;
  const page = await api<Page<CiBatchListItem>>(listPath(query, st.next));
  st.items.push(...(page.items || []));
  st.pages += 1;
  st.next = page.next_cursor || null;
}

/** Whether any listed batch may still change. */
export function anyBatchActive(st: BatchPages): boolean {
  return st.items.some((b) => isActive(b.status));
}

/** The first 8 characters of an id, enough to tell batches apart in a list (the batch page shows it whole). */
function shortId(id: string): string {
  return id.length > 9 ? `${id.slice(0, 8)}\u2026` : id;
}

function batchRow(b: CiBatchListItem, names: ReadonlyMap<string, string>, withCampaign: boolean): HTMLTableRowElement {
  const md = b.metadata || {};
  const done = b.status === 'done';
  const regressed = b.regressed_count;
  return row([
    h('span', { class: 'mono', title: b.ci_batch_id }, batchLink(b.ci_batch_id, shortId(b.ci_batch_id))),
    badge(b.status || 'unknown'),
    badge(b.decision || 'pending'),
    numCell(done ? pct(b.pass_rate) : '-'),
    numCell(done ? pct(b.pass_hat_k) : '-'),
    numCell(done ? num(b.flaky_count) : '-'),
    {
      cell:
        typeof regressed === 'number' && regressed > 0 ? badge(`${regressed} regressed`, 'bad') : done && typeof regressed === 'number' ? '0' : '-',
      num: true,
    },
    numCell(typeof b.campaign_version === 'number' ? `v${b.campaign_version}` : '-'),
    md.branch ? h('span', { class: 'mono' }, md.branch) : '-',
    md.commit ? h('span', { class: 'mono', title: md.commit }, shortCommit(md.commit)) : '-',
    ...(withCampaign ? [campaignLink(b.campaign_id, b.campaign_id ? names.get(b.campaign_id) : null)] : []),
    numCell(num(b.trace_count)),
    when(b.created_at),
  ]);
}

/**
 * The batches table with, below it, a "Load more" button while the API has more pages. `withCampaign` adds the
 * campaign column (left out on a campaign's own page).
 */
export function batchesTable(
  caption: string,
  st: BatchPages,
  opts: { names?: ReadonlyMap<string, string>; withCampaign: boolean; emptyText: string; onMore: () => void },
): HTMLDivElement {
  const columns: Column[] = [
    'Batch',
    'Status',
    'Decision',
    { label: 'Pass rate', num: true },
    { label: 'pass^k', num: true },
    { label: 'Flaky', num: true },
    { label: 'Regressed', num: true },
    { label: h('abbr', { title: 'Campaign version' }, 'Ver'), num: true },
    'Branch',
    'Commit',
    ...(opts.withCampaign ? ['Campaign'] : []),
    { label: 'Scenarios', num: true },
    'Created',
  ];
  const names = opts.names || new Map<string, string>();
  const wrap = table(
    caption,
    columns,
    st.items.map((b) => batchRow(b, names, opts.withCampaign)),
    opts.emptyText,
  );
  if (st.next) {
    wrap.appendChild(h('div', { class: 'pager' }, h('button', { type: 'button', id: 'load-more-batches', onclick: opts.onMore }, 'Load more')));
  }
  return wrap;
}

/** A status line for lists that refresh while something in them moves. */
export function refreshingNote(active: boolean, what: string): Child {
  return active ? h('p', { class: 'status-line', 'aria-live': 'polite' }, `Refreshing every 2 s while ${what} are in progress.`) : null;
}

// The page's building blocks: badges, links, times, tables, summary cards, definition lists, breadcrumbs, alerts.
import { DASH } from './config';
import { h, append, type Child } from './dom';
import { badgeKind, shortTime } from './format';

/** A pill with `label`, coloured by `kind` or, without it, by what the label says. */
export function badge(label: string | null | undefined, kind?: string): HTMLSpanElement {
  return h('span', { class: `badge b-${kind || badgeKind(label)}` }, label);
}

/** The status badge of a run, followed by an `unsafe` badge when it had unsafe attempts. */
export function runStatusBadges(status: string | undefined, unsafe: unknown): Child {
  return [badge(status || 'unknown'), typeof unsafe === 'number' && unsafe > 0 ? [' ', badge('unsafe', 'warn')] : null];
}

/** A link to a dashboard page; `path` is below the dashboard ('' for home). */
export function link(path: string, label: Child): HTMLAnchorElement {
  return h('a', { href: DASH + path }, label);
}

export function runLink(id: string, label?: string): HTMLAnchorElement {
  return link(`/runs/${encodeURIComponent(id)}`, label || id);
}

export function batchLink(id: string, label?: string): HTMLAnchorElement {
  return link(`/batches/${encodeURIComponent(id)}`, label || id);
}

/** A link to a campaign's page, labelled with its name when known (the id in the tooltip), else the id in monospace. */
export function campaignLink(id: string | undefined, name?: string | null): Child {
  if (!id) return '-';
  const a = link(`/campaigns/${encodeURIComponent(id)}`, name || id);
  if (name) a.title = id;
  else a.className = 'mono';
  return a;
}

/** A trace's name (its id in the tooltip), or its id in monospace when the API gives no name. */
export function traceLabel(id: string | null | undefined, name: string | null | undefined): HTMLSpanElement {
  return name ? h('span', { class: 'trace-name', title: id || null }, name) : h('span', { class: 'mono' }, id || '-');
}

/** A `<time>` showing an ISO timestamp in short form (full value in the tooltip), '-' without one. */
export function when(iso: string | null | undefined): Child {
  if (!iso) return '-';
  return h('time', { datetime: iso, title: iso }, shortTime(iso));
}

/** A header cell: its text, or its content and whether it is numeric (right-aligned). */
export type Column = string | { label: Child; num?: boolean };

/** A body cell with options, as opposed to plain content. */
export interface Cell {
  cell: Child;
  num?: boolean;
  colspan?: number;
}

function isCell(c: Child | Cell): c is Cell {
  return typeof c === 'object' && c !== null && !Array.isArray(c) && !(c instanceof Node) && !!(c as Cell).cell;
}

/** A numeric (right-aligned) cell. */
export function numCell(v: string): Cell {
  return { cell: v, num: true };
}

/** A captioned table in its scrolling wrapper; `emptyText` fills one row when there are no rows. */
export function table(caption: string, columns: readonly Column[], rows: readonly Child[], emptyText?: string): HTMLDivElement {
  const thead = h(
    'thead',
    null,
    h(
      'tr',
      null,
      columns.map((c) => {
        const label = typeof c === 'string' ? c : c.label;
        return h('th', { scope: 'col', class: typeof c !== 'string' && c.num ? 'num' : null }, label);
      }),
    ),
  );
  const tbody = h('tbody');
  if (!rows.length) {
    tbody.appendChild(h('tr', null, h('td', { colspan: columns.length, class: 'muted' }, emptyText || 'Nothing yet.')));
  }
  for (const r of rows) append(tbody, r);
  return h('div', { class: 'table-wrap' }, h('table', null, h('caption', null, caption), thead, tbody));
}

/** A table row of `cells`, each plain content or a Cell. */
export function row(cells: ReadonlyArray<Child | Cell>, cls?: string | null): HTMLTableRowElement {
  return h(
    'tr',
    { class: cls || null },
    cells.map((c) => {
      if (isCell(c)) return h('td', { class: c.num ? 'num' : null, colspan: c.colspan || null }, c.cell);
      return h('td', null, c);
    }),
  );
}

/** One summary card: a small label over a large value. */
export function card(label: string, value: string, extraClass?: string): HTMLLIElement {
  return h('li', { class: `card${extraClass ? ` ${extraClass}` : ''}` }, h('span', { class: 'label' }, label), h('span', { class: 'value' }, value));
}

/** A panel of label/value pairs; pairs whose value is null, undefined or '' are left out. */
export function meta(pairs: ReadonlyArray<readonly [string, Child]>): HTMLDivElement {
  const dl = h('dl', { class: 'meta' });
  for (const [label, value] of pairs) {
    if (value === null || value === undefined || value === '') continue;
    dl.appendChild(h('dt', null, label));
    dl.appendChild(h('dd', null, value));
  }
  return h('div', { class: 'panel' }, dl);
}

/** The breadcrumb trail above a page's heading. */
export function crumbs(parts: readonly Child[]): HTMLElement {
  const nav = h('nav', { 'aria-label': 'Breadcrumb' });
  const p = h('p', { class: 'crumbs' });
  parts.forEach((part, i) => {
    if (i) append(p, ' / ');
    append(p, part);
  });
  nav.appendChild(p);
  return nav;
}

/** What an error alert shows: the API's message and code, and its request id when there is one. */
export interface Problem {
  message?: string;
  code?: string;
  requestId?: string | null;
}

/** A red alert with the problem's message and, in monospace, its code and request id. */
export function errorAlert(err: Problem): HTMLDivElement {
  return h(
    'div',
    { class: 'alert alert-bad', role: 'alert' },
    h('strong', null, err.message || 'Something went wrong.'),
    h('span', { class: 'mono' }, `code: ${err.code || 'unknown'}${err.requestId ? ` - request ${err.requestId}` : ''}`),
  );
}

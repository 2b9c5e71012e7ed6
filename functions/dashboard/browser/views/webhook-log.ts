// A webhook's delivery log: one row per delivery (outcome, event type, every try with status, error and time) with its Resend button.
import type { Pages } from '../api';
import { h, type Child } from '../dom';
import { duration } from '../format';
import type { Delivery, DeliveryAttempt } from '../types';
import { badge, row, table, when } from '../widgets';
import { resultNote, type ActionResult } from './webhook-actions';

/** What the rows need besides the log: the resends in flight, their answers, and what the buttons do. */
export interface LogOptions {
  busy: ReadonlySet<string>;
  results: ReadonlyMap<string, ActionResult>;
  onResend: (d: Delivery) => void;
  onMore: () => void;
}

/** The key of a delivery's resend in the page's busy set and results. */
export const resendKey = (deliveryId: string): string => `resend:${deliveryId}`;

function tryItem(t: DeliveryAttempt, n: number): HTMLLIElement {
  const code = typeof t.status_code === 'number' ? t.status_code : null;
  const status = code === null ? badge('no answer', 'bad') : badge(`HTTP ${code}`, code >= 200 && code < 300 ? 'ok' : 'bad');
  const error = t.error && t.error !== `HTTP ${code}` ? h('span', { class: 'error-text' }, t.error) : null;
  return h(
    'li',
    null,
    h('span', { class: 'muted' }, `#${n} `),
    status,
    error ? [' ', error] : null,
    ' ',
    h('span', { class: 'muted' }, duration(t.duration_ms)),
    ' ',
    when(t.at),
  );
}

function tries(d: Delivery): Child {
  const all = d.attempts || [];
  if (!all.length) return h('span', { class: 'muted' }, 'no try');
  return h(
    'ol',
    { class: 'tries', 'aria-label': `${all.length} ${all.length === 1 ? 'try' : 'tries'}` },
    all.map((t, i) => tryItem(t, i + 1)),
  );
}

function deliveryRow(d: Delivery, opts: LogOptions): HTMLTableRowElement {
  const key = resendKey(d.delivery_id);
  const busy = opts.busy.has(key);
  const button = h(
    'button',
    {
      type: 'button',
      id: `resend-${d.delivery_id}`,
      class: 'resend',
      'aria-label': `Resend delivery ${d.delivery_id}`,
      'aria-disabled': String(busy),
      onclick: () => opts.onResend(d),
    },
    busy ? 'Resending...' : 'Resend',
  );
  const tr = row([
    [d.event_type ? h('code', null, d.event_type) : '-', h('span', { class: 'delivery-id mono' }, d.delivery_id)],
    badge(d.outcome || 'unknown'),
    tries(d),
    when(d.created_at),
    [button, resultNote(opts.results.get(key), `resend-result-${d.delivery_id}`)],
  ]);
  tr.id = `delivery-${d.delivery_id}`;
  return tr;
}

/** The log table, newest first, with a "Load more" button while the API has more pages. */
export function deliveryTable(log: Pages<Delivery>, opts: LogOptions): HTMLDivElement {
  const wrap = table(
    'Delivery log, newest first (kept 7 days)',
    ['Event and delivery id', 'Outcome', 'Tries', 'Created', { label: h('span', { class: 'sr-only' }, 'Resend') }],
    log.items.map((d) => deliveryRow(d, opts)),
    'No delivery in the last 7 days. Send a test event to check the receiver.',
  );
  if (log.next) {
    wrap.appendChild(h('div', { class: 'pager' }, h('button', { type: 'button', id: 'load-more-deliveries', onclick: opts.onMore }, 'Load more')));
  }
  return wrap;
}

// What the webhooks list and a webhook's page both show: its URL, events, state (enabled or paused), last status and last error.
import { h, type Child } from '../dom';
import type { Webhook } from '../types';
import { badge, link, when } from '../widgets';

/** `enabled` or `paused` as a badge (paused: nothing is delivered, resend and recover answer 409). */
export function stateBadge(w: Webhook): HTMLSpanElement {
  return badge(w.is_enabled === false ? 'paused' : 'enabled');
}

/** A webhook's URL as text (user input: never parsed as HTML, never a link to the receiver). */
export function urlText(w: Webhook): HTMLSpanElement {
  return h('span', { class: 'url' }, w.url || '-');
}

/** A link to the webhook's page, labelled with its URL. */
export function webhookLink(w: Webhook): HTMLAnchorElement {
  const a = link(`/webhooks/${encodeURIComponent(w.webhook_id)}`, urlText(w));
  a.title = w.webhook_id;
  return a;
}

/** The subscribed event types, `*` spelled out. */
export function eventsList(events: readonly string[] | undefined): Child {
  if (!events || !events.length) return h('span', { class: 'muted' }, 'none');
  return events.map((e, i) => [i ? ', ' : '', e === '*' ? h('span', null, h('code', null, '*'), ' (every event)') : h('code', null, e)]);
}

/** The status code of the last successful delivery as a badge, '-' before the first. */
export function lastStatus(w: Webhook): Child {
  return typeof w.last_status === 'number' ? badge(`HTTP ${w.last_status}`, w.last_status < 300 ? 'ok' : 'bad') : '-';
}

/** The last failure after all retries and when it happened; 'none' when the last delivery succeeded (or none failed). */
export function lastError(w: Webhook): Child {
  if (!w.last_error) return h('span', { class: 'muted' }, 'none');
  return [
    h('span', { class: 'error-text' }, w.last_error),
    w.last_error_at ? [' ', h('span', { class: 'muted' }, 'at '), when(w.last_error_at)] : null,
  ];
}

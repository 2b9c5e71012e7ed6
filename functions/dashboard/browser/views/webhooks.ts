// The webhooks page: every webhook of the project with its URL, events, state, description and last delivery status.
import { allPages } from '../api';
import { LIST_PAGE } from '../config';
import { h, renderKeepingFocus } from '../dom';
import { fail } from '../failure';
import { poll } from '../polling';
import type { Webhook } from '../types';
import { crumbs, link, row, table, when } from '../widgets';
import { eventsList, lastError, lastStatus, stateBadge, webhookLink } from './webhook-status';

function webhookRow(w: Webhook): HTMLTableRowElement {
  return row([
    webhookLink(w),
    w.description ? h('span', { class: 'wh-description' }, w.description) : h('span', { class: 'muted' }, '-'),
    eventsList(w.events),
    stateBadge(w),
    w.last_delivery_at ? [lastStatus(w), ' ', when(w.last_delivery_at)] : '-',
    lastError(w),
    when(w.created_at),
  ]);
}

/** Shows the project's webhooks (at most 25, one page), read once. */
export function webhooksView(): Promise<void> {
  document.title = 'Webhooks - rts dashboard';
  return poll(async () => {
    const hooks = await allPages<Webhook>(`/v1/webhooks?limit=${LIST_PAGE}`);
    renderKeepingFocus([
      crumbs([link('', 'Dashboard'), 'Webhooks']),
      h('h1', null, 'Webhooks'),
      h(
        'p',
        { class: 'subtitle' },
        'Open a webhook for its delivery log, resend, recover and test events. Secrets are never shown: the API returns one only when a webhook is created or its secret rotated.',
      ),
      table(
        'Webhooks of this project, newest first',
        ['URL', 'Description', 'Events', 'State', 'Last delivery', 'Last error', 'Created'],
        hooks.map((element) => webhookRow(element)),
        'No webhook yet. Register one with POST /v1/webhooks.',
      ),
    ]);
    return false;
  }, fail);
}

// A webhook's page: its settings (never the secret), status and last error, Send test event, Recover, and the delivery
// log with a Resend button per delivery; after an action it polls the log until that action's tries are in it.
import { api, loadNextPage, loadPages, newIdempotencyKey, post, type Pages } from '../api';
import { ACTION_POLL_MAX_MS, ACTION_POLL_MS, DELIVERY_PAGE } from '../config';
import { h, renderKeepingFocus } from '../dom';
import { fail } from '../failure';
import { poll } from '../polling';
import type { Delivery, DeliveryQueued, RecoverQueued, Webhook } from '../types';
import { crumbs, link, meta, when } from '../widgets';
import {
  actionFailed,
  recoverForm,
  recoverQueued,
  resendQueued,
  resultNote,
  testQueued,
  type ActionResult,
  type RecoverForm,
} from './webhook-actions';
import { deliveryTable, resendKey } from './webhook-log';
import { eventsList, lastError, lastStatus, stateBadge, urlText } from './webhook-status';

/**
 * What an accepted action should show in the log (a resend's new try, the test event's delivery, a recover's n new
 * tries), and until when the page polls for it: ACTION_POLL_MS, renewed while the log keeps changing, up to `cap`.
 */
interface Wait {
  done: (log: readonly Delivery[]) => boolean;
  until: number;
  cap: number;
}

/** What the page has loaded, the actions in flight, their answers, and what it still waits for. */
interface WebhookState {
  webhook: Webhook | null;
  log: Pages<Delivery>;
  busy: Set<string>;
  results: Map<string, ActionResult>;
  waits: Wait[];
  /** The log and status as last read, to see whether they are still moving. */
  seen: string;
}

function snapshot(w: Webhook, log: readonly Delivery[]): string {
  return JSON.stringify([w.is_enabled, w.last_error, w.last_delivery_at, log.map((d) => [d.delivery_id, d.outcome, tryMark(d)])]);
}

/** A delivery's tries in short: their count and the last one's time (the log keeps the last 40, so the count alone may stay). */
function tryMark(d: Delivery | undefined): string {
  const tries = d?.attempts || [];
  return `${tries.length}:${tries[tries.length - 1]?.at ?? ''}`;
}

/** Each listed delivery's try mark, to tell later which ones have new tries. */
function tryMarks(log: readonly Delivery[]): Map<string, string> {
  return new Map(log.map((d) => [d.delivery_id, tryMark(d)]));
}

/** Whether `n` of the deliveries marked in `before` have tries since. */
function newTries(before: ReadonlyMap<string, string>, log: readonly Delivery[], n: number): boolean {
  return log.filter((d) => before.has(d.delivery_id) && before.get(d.delivery_id) !== tryMark(d)).length >= n;
}

function notes(w: Webhook): HTMLElement[] {
  const out: HTMLElement[] = [];
  if (w.is_enabled === false) {
    out.push(
      h(
        'div',
        { class: 'alert alert-warn', role: 'status' },
        h('strong', null, 'Paused'),
        'Nothing is delivered while the webhook is paused, and resend and recover answer 409 webhook_paused; a test event is still sent. Resume it with PATCH /v1/webhooks/{id} {"is_enabled": true}.',
      ),
    );
  }
  if (w.last_error) {
    out.push(
      h(
        'div',
        { class: 'alert alert-bad', role: 'status' },
        h('strong', null, 'The last delivery failed after all its tries'),
        lastError(w),
        h('span', null, ' A later successful delivery, a resend or recovery included, clears it.'),
      ),
    );
  }
  return out;
}

function settings(w: Webhook): HTMLElement {
  return meta([
    ['Webhook id', h('span', { class: 'mono' }, w.webhook_id)],
    ['URL', urlText(w)],
    ['Events', eventsList(w.events)],
    ['State', stateBadge(w)],
    ['Description', w.description ? h('span', { class: 'wh-description' }, w.description) : h('span', { class: 'muted' }, 'none')],
    ['Secret', h('span', { class: 'muted' }, 'never shown: the API returns it only on create and on POST /v1/webhooks/{id}/rotate-secret')],
    ['Created', when(w.created_at)],
    ['Last status', lastStatus(w)],
    ['Last delivery', when(w.last_delivery_at)],
    ['Last error', lastError(w)],
  ]);
}

/** Shows webhook `id`; polls only after an action, until its tries are logged (a webhook has no state that moves by itself). */
export function webhookView(id: string): Promise<void> {
  document.title = `Webhook ${id} - rts dashboard`;
  const path = `/v1/webhooks/${encodeURIComponent(id)}`;
  const logPath = `${path}/deliveries?limit=${DELIVERY_PAGE}`;
  const st: WebhookState = {
    webhook: null,
    log: { items: [], pages: 0, next: null },
    busy: new Set(),
    results: new Map(),
    waits: [],
    seen: '',
  };
  // Built once, so a refresh keeps the chosen time.
  const recover: RecoverForm = recoverForm((since) => {
    if (!since) {
      st.results.set('recover', { ok: false, title: 'Choose a date and time to recover from.' });
      redraw();
      return;
    }
    const before = tryMarks(st.log.items);
    act(
      'recover',
      () => post<RecoverQueued>(`${path}/recover`, { since }, newIdempotencyKey()),
      (a) => recoverQueued(a.body, since),
      (a) => (a.body.queued ? (log) => newTries(before, log, a.body.queued || 0) : null),
    );
  });

  function redraw(): void {
    const w = st.webhook;
    if (!w) return;
    // aria-disabled, not disabled: a disabled button drops the keyboard focus, which should stay where it was.
    recover.button.setAttribute('aria-disabled', String(st.busy.has('recover')));
    recover.button.textContent = st.busy.has('recover') ? 'Recovering...' : 'Recover failed deliveries';
    const testing = st.busy.has('test');
    renderKeepingFocus([
      crumbs([link('', 'Dashboard'), link('/webhooks', 'Webhooks'), 'Webhook']),
      h('h1', null, h('span', null, 'Webhook ', h('span', { class: 'mono' }, w.webhook_id)), stateBadge(w)),
      w.description ? h('p', { class: 'subtitle wh-description' }, w.description) : null,
      notes(w),
      settings(w),
      h('h2', null, 'Actions'),
      h(
        'div',
        { class: 'panel actions' },
        h('h3', null, 'Test the receiver'),
        h(
          'p',
          null,
          h(
            'button',
            { type: 'button', id: 'send-test', 'aria-disabled': String(testing), onclick: sendTest },
            testing ? 'Sending...' : 'Send test event',
          ),
          ' ',
          h('span', { class: 'muted' }, 'A signed webhook.test event to this webhook only, paused or not.'),
        ),
        resultNote(st.results.get('test'), 'test-result'),
        h('h3', null, 'Recover'),
        recover.form,
        resultNote(st.results.get('recover'), 'recover-result'),
      ),
      h('h2', null, 'Delivery log'),
      st.waits.length
        ? h('p', { class: 'status-line', 'aria-live': 'polite' }, 'Refreshing every 2 s until the tries of what was just sent are in the log.')
        : null,
      deliveryTable(st.log, { busy: st.busy, results: st.results, onResend: resend, onMore: more }),
    ]);
  }

  async function load(): Promise<boolean> {
    const pages = Math.max(1, st.log.pages);
    const [webhook, log] = await Promise.all([api<Webhook>(path), loadPages<Delivery>(logPath, pages)]);
    const now = Date.now();
    const seen = snapshot(webhook, log.items);
    const waited = st.waits.length > 0;
    st.waits = st.waits.filter((w) => !w.done(log.items) && now < w.until);
    // Still moving (a recover's deliveries land one after the other): keep waiting, up to the cap.
    if (st.seen && seen !== st.seen) for (const w of st.waits) w.until = Math.min(w.cap, now + ACTION_POLL_MS);
    st.seen = seen;
    st.webhook = webhook;
    document.title = `Webhook ${webhook.description || webhook.url || id} - rts dashboard`;
    // "Load more" may have added a page while this read was under way: keep it.
    if (st.log.pages <= pages) st.log = log;
    redraw();
    // One more read once the last wait is over: the webhook and its log are read side by side, and a delivery logs its
    // tries before it records the webhook's status (last_error cleared), so this read may have caught the one but not
    // the other.
    return st.waits.length > 0 || waited;
  }

  /**
   * Runs one action: its button busy meanwhile, its answer shown next to it and, once accepted, the log polled until
   * `awaited` (what the answer should bring to the log) holds or its time is up.
   */
  function act<T>(key: string, send: () => Promise<T>, describe: (answer: T) => ActionResult, awaited: (answer: T) => Wait['done'] | null): void {
    if (st.busy.has(key)) return;
    st.busy.add(key);
    st.results.delete(key);
    redraw();
    send().then(
      (answer) => {
        st.busy.delete(key);
        st.results.set(key, describe(answer));
        const done = awaited(answer);
        const now = Date.now();
        if (done) st.waits.push({ done, until: now + ACTION_POLL_MS, cap: now + ACTION_POLL_MAX_MS });
        redraw();
        if (done) void poll(load, fail);
      },
      (e: unknown) => {
        st.busy.delete(key);
        if ((e as { status?: number }).status === 401) {
          fail(e);
          return;
        }
        st.results.set(key, actionFailed(e));
        redraw();
      },
    );
  }

  function sendTest(): void {
    act(
      'test',
      () => post<DeliveryQueued>(`${path}/test`, undefined, newIdempotencyKey()),
      (a) => testQueued(a.body),
      (a) => (log) => log.some((d) => d.delivery_id === a.body.delivery_id && (d.attempts || []).length > 0),
    );
  }

  function resend(d: Delivery): void {
    const url = `${path}/deliveries/${encodeURIComponent(d.delivery_id)}/resend`;
    const before = tryMarks([d]);
    act(
      resendKey(d.delivery_id),
      () => post<DeliveryQueued>(url, undefined, newIdempotencyKey()),
      (a) => resendQueued(a.body),
      () => (log) => newTries(before, log, 1),
    );
  }

  function more(): void {
    // On a copy: a refresh that lands meanwhile replaces st.log, and must not swallow the page read here.
    const next: Pages<Delivery> = { ...st.log, items: [...st.log.items] };
    loadNextPage(logPath, next).then(() => {
      st.log = next;
      redraw();
    }, fail);
  }

  return poll(load, fail);
}

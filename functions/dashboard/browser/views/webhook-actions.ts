// A webhook page's actions: what resend, recover and test answered (202 or the error, in words), and the recover form.
import { ApiError } from '../api';
import { h, type Child } from '../dom';
import { shortTime } from '../format';
import type { DeliveryQueued, RecoverQueued } from '../types';

/** What one action answered, as the page shows it next to the button that asked. */
export interface ActionResult {
  ok: boolean;
  title: string;
  text?: string;
  /** `<status> <code>` and the request id of an error, shown in monospace. */
  code?: string;
}

/** The answer of an action as a note: a status when it worked, an alert when it did not. */
export function resultNote(r: ActionResult | undefined, id: string): Child {
  if (!r) return null;
  return h(
    'div',
    { class: `result ${r.ok ? 'result-ok' : 'result-bad'}`, id, role: r.ok ? 'status' : 'alert' },
    h('strong', null, r.title),
    r.text ? h('span', null, r.text) : null,
    r.code ? h('span', { class: 'mono' }, r.code) : null,
  );
}

export function testQueued(q: DeliveryQueued): ActionResult {
  return {
    ok: true,
    title: '202 Accepted: test event queued',
    text: `A ${q.event_type || 'webhook.test'} event goes to this webhook now (paused or not) as delivery ${q.delivery_id || '?'}; it appears in the log below.`,
  };
}

export function resendQueued(q: DeliveryQueued): ActionResult {
  return {
    ok: true,
    title: '202 Accepted: resend queued',
    text: `The ${q.event_type || ''} event is sent again now under the same delivery id; its new try is added to this entry.`,
  };
}

export function recoverQueued(q: RecoverQueued, since: string): ActionResult {
  const n = typeof q.queued === 'number' ? q.queued : 0;
  return {
    ok: true,
    title: `202 Accepted: queued ${n}`,
    text: n
      ? `${n} failed ${n === 1 ? 'delivery' : 'deliveries'} created since ${shortTime(since)} ${n === 1 ? 'is' : 'are'} sent once more, oldest first; the log shows the new tries.`
      : `No failed delivery created since ${shortTime(since)} was left to send (test events are never recovered; a delivery already being recovered is queued once).`,
  };
}

/** A failed action in words: the paused webhook and the expired event get their own titles. */
export function actionFailed(e: unknown): ActionResult {
  const err = e instanceof ApiError ? e : new ApiError(0, 'unknown_error', e instanceof Error ? e.message : String(e));
  const code = `${err.status ? `${err.status} ` : ''}${err.code}${err.requestId ? ` - request ${err.requestId}` : ''}`;
  const fields = err.details.map((d) => `${d.path || '?'}: ${d.message || 'invalid'}`).join('; ');
  const text = fields && !err.message.includes(fields) ? `${err.message} (${fields})` : err.message;
  switch (err.code) {
    case 'webhook_paused':
      return { ok: false, title: 'The webhook is paused: nothing was sent', text, code };
    case 'event_unavailable':
      return { ok: false, title: 'This event is no longer kept: it cannot be sent again', text, code };
    case 'validation_error':
      return { ok: false, title: 'Not accepted', text, code };
    default:
      return { ok: false, title: 'The request failed', text, code };
  }
}

/** `d` as a datetime-local value in this browser's time zone, to the minute. */
export function localInputValue(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** A datetime-local value (local time) as an ISO 8601 UTC timestamp, or null when it is empty or not a time. */
export function isoFromLocal(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value)) return null;
  const at = new Date(value);
  return Number.isFinite(at.getTime()) ? at.toISOString() : null;
}

/** This browser's offset from UTC, e.g. `UTC+01:00`. */
function zoneText(): string {
  const off = -new Date().getTimezoneOffset();
  const a = Math.abs(off);
  return `UTC${off < 0 ? '-' : '+'}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
}

/** The recover form and its parts; built once per page so a refresh keeps what is typed. */
export interface RecoverForm {
  form: HTMLFormElement;
  input: HTMLInputElement;
  button: HTMLButtonElement;
}

/**
 * The form of POST /v1/webhooks/{id}/recover: a local date and time, 24 h ago by default, sent as UTC. The browser's
 * own range check is off (novalidate) so the API's answer, a 422 included, is what the page shows.
 */
export function recoverForm(onRecover: (sinceIso: string | null) => void): RecoverForm {
  const now = new Date();
  const input = h('input', {
    id: 'recover-since',
    name: 'since',
    type: 'datetime-local',
    required: true,
    min: localInputValue(new Date(now.getTime() - 7 * 24 * 3600_000)),
    max: localInputValue(now),
    'aria-describedby': 'recover-help recover-utc',
  });
  input.value = localInputValue(new Date(now.getTime() - 24 * 3600_000));
  const utc = h('span', { id: 'recover-utc', class: 'mono muted' });
  const showUtc = (): void => {
    const iso = isoFromLocal(input.value);
    utc.textContent = iso ? `sent as ${iso}` : 'choose a date and time';
  };
  input.addEventListener('input', showUtc);
  showUtc();
  const button = h('button', { type: 'submit', id: 'recover-submit' }, 'Recover failed deliveries');
  const onsubmit = (ev: Event): void => {
    ev.preventDefault();
    onRecover(isoFromLocal(input.value));
  };
  const form = h(
    'form',
    { class: 'inline recover', novalidate: true, 'aria-label': 'Recover failed deliveries', onsubmit },
    h('div', null, h('label', { for: 'recover-since' }, `Failed since (your time, ${zoneText()})`), input),
    button,
    h('p', { class: 'form-note' }, utc),
    h(
      'p',
      { id: 'recover-help', class: 'form-note muted' },
      'Every delivery that failed since then (within the last 7 days; test events aside) is sent once more, oldest first.',
    ),
  );
  return { form, input, button };
}

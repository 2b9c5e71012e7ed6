// The delivery policy (docs/webhooks.md#delivery-policy-retries-and-last_error), and the exact wording of last_error.
import { OutboundError } from '../ports';

/** A try succeeds on a 2xx within this long (connect + response). */
export const DELIVERY_TIMEOUT_MS = 5000;
/** Waits before the 2nd, 3rd and 4th tries: up to 3 retries after the first try. */
export const RETRY_DELAYS_MS: readonly number[] = [500, 1000, 2000];
/** Delivery log entries and dedup claims are kept this long (docs/webhooks.md#create-and-manage). */
export const DELIVERY_LOG_TTL_S = 7 * 24 * 3600;
/** Kept events outlive the log entries that point at them (written a little later, after the tries) by an hour. */
export const KEPT_EVENT_TTL_S = DELIVERY_LOG_TTL_S + 3600;

export const USER_AGENT = 'rts-webhooks/1';

/**
 * last_delivery_at is kept to this resolution: a success that would change nothing but move it by less than this
 * is not written, so a busy webhook costs about one status write per second instead of one per delivery (all of a
 * project's webhooks share one partition).
 */
export const LAST_DELIVERY_RESOLUTION_MS = 1000;

export const isSuccessStatus = (status: number) => status >= 200 && status < 300;

/** `"HTTP <status>"` for any non-2xx answer (a 3xx included: redirects are not followed). */
export const httpStatusError = (status: number) => `HTTP ${status}`;

/**
 * The last_error text of a try that got no HTTP answer. The guarded sender already words its errors as last_error does
 * ("timeout after 5000 ms", "connection error: <code>", "blocked: <reason>"); anything else is a connection error.
 */
export function sendErrorText(err: unknown): string {
  if (err instanceof OutboundError) return err.message;
  const code = (err as { code?: unknown })?.code;
  return `connection error: ${typeof code === 'string' && code ? code : 'UNKNOWN'}`;
}

export function epochSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

/** How far back POST /v1/webhooks/{id}/recover may reach: the delivery log's lifetime. */
export const RECOVER_WINDOW_MS = DELIVERY_LOG_TTL_S * 1000;
/** Clock skew tolerated on both ends of the recover window (a `since` computed by the client as "now - 7 days"). */
export const RECOVER_SKEW_MS = 60_000;
/** Failed deliveries one recover request queues at most (oldest first); a second request continues after them. */
export const MAX_RECOVER_PER_REQUEST = 1000;
/**
 * A recovered delivery whose predecessor (the failed delivery just before it in the log) has not finished is deferred,
 * not run, for up to this long after the recover queued it, so a receiver sees them in order; then it goes anyway (a
 * predecessor that takes longer is failing again). Deferring holds no slot: the bus runs the command again later.
 */
export const ORDER_WAIT_MS = 20_000;
/** How soon the local bus runs a deferred delivery again (at the latest: it also runs when one of its project's ends). */
export const ORDER_POLL_MS = 500;

// When to retry a request and how long to wait: Retry-After (seconds or an HTTP date) on 429 and 503, else backoff.

/** Statuses worth another try: throttling and server-side failures (network errors are retried too). */
export function retryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/**
 * The wait a `Retry-After` header asks for, in milliseconds: delay-seconds (`"120"`) or an HTTP date
 * (`"Wed, 21 Oct 2026 07:28:00 GMT"`, measured against `nowMs`; a past date is 0). Undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date names a weekday or a month; a bare number or anything else Date.parse might accept is refused.
  if (!/[A-Za-z]{3}/.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** Exponential backoff without a Retry-After: 500 ms, 1 s, 2 s, ... for retry 1, 2, 3, ..., at most `capMs`. */
export function backoffMs(retry: number, capMs: number): number {
  return Math.min(capMs, 500 * 2 ** (retry - 1));
}

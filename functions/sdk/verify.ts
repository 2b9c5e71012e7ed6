// Webhook signature verification for subscribers, in constant time over the raw body bytes: X-Service-Signature
// (verifySignature) or the Standard Webhooks headers with a timestamp tolerance (verifyStandardWebhook).
import { timingSafeEqual } from 'node:crypto';
import { SIGNATURE_PREFIX, STANDARD_SIGNATURE_VERSION, signPayload, standardKey, standardSignature } from '../core/webhooks/signing';

export { signPayload, standardSignature };

const HEX_SHA256 = /^[0-9a-f]{64}$/;
/** Standard Webhooks' default: a delivery older (or further in the future) than this is refused, so it cannot be replayed. */
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

/**
 * True when `header` (the `X-Service-Signature` value, `sha256=<lowercase hex>`) is the HMAC-SHA256 of `rawBody`
 * keyed with `secret` (its UTF-8 bytes). Pass the body exactly as received: a re-serialised JSON body will not verify.
 * Compares in constant time; answers false (never throws) for a missing, malformed or wrong-length header.
 * This scheme has no timestamp: prefer verifyStandardWebhook where a replayed delivery matters.
 */
export function verifySignature(rawBody: string | Buffer, header: string | undefined, secret: string): boolean {
  try {
    if (typeof header !== 'string' || typeof secret !== 'string' || secret === '') return false;
    if (typeof rawBody !== 'string' && !Buffer.isBuffer(rawBody)) return false;
    const given = header.trim();
    if (!given.startsWith(SIGNATURE_PREFIX) || !HEX_SHA256.test(given.slice(SIGNATURE_PREFIX.length))) return false;
    return sameText(signPayload(rawBody, secret), given);
  } catch {
    return false;
  }
}

/** Request headers as node:http gives them (lowercase keys), as a plain object with any case, or a Fetch `Headers`. */
export type WebhookHeaders = Record<string, string | string[] | undefined> | { get(name: string): string | null };

export interface StandardVerifyOptions {
  /** How far `webhook-timestamp` may be from now, either way, in seconds. @default 300 (5 minutes) */
  toleranceSeconds?: number;
  /** The current time in epoch milliseconds. @default Date.now */
  now?: () => number;
}

/**
 * Standard Webhooks verification (https://www.standardwebhooks.com): true when `webhook-signature` holds a `v1,`
 * signature equal to the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the
 * base64-decoded bytes after `whsec_` of `secret`, and `webhook-timestamp` is within `toleranceSeconds` of now.
 * Several space-separated signatures (one per valid secret) are accepted if any matches. Answers false (never throws)
 * for missing or malformed headers, a stale or future timestamp, or a wrong signature. Deduplicate on `webhook-id`:
 * it is the same on every retry and resend of one delivery.
 */
export function verifyStandardWebhook(
  rawBody: string | Buffer,
  headers: WebhookHeaders,
  secret: string,
  options: StandardVerifyOptions = {},
): boolean {
  try {
    if (typeof secret !== 'string' || standardKey(secret).length === 0) return false;
    if (typeof rawBody !== 'string' && !Buffer.isBuffer(rawBody)) return false;
    const id = header(headers, 'webhook-id');
    const timestamp = header(headers, 'webhook-timestamp');
    const signatures = header(headers, 'webhook-signature');
    if (!id || !timestamp || !signatures || !/^\d{1,15}$/.test(timestamp)) return false;
    const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
    const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
    if (Math.abs(nowSeconds - Number(timestamp)) > tolerance) return false;
    const expected = standardSignature(id, Number(timestamp), rawBody, secret);
    let match = false;
    for (const candidate of signatures.split(' ')) {
      // Every candidate is compared (no early exit), so timing says nothing about which one matched.
      if (candidate.startsWith(`${STANDARD_SIGNATURE_VERSION},`) && sameText(expected, candidate)) match = true;
    }
    return match;
  } catch {
    return false;
  }
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers && typeof (headers as { get?: unknown }).get === 'function')
    return (headers as { get(n: string): string | null }).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record ?? {}).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

function sameText(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

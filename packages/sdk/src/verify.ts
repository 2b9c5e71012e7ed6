// Webhook signature verification for subscribers, in constant time over the raw body bytes: X-Service-Signature
// (verifySignature) or the Standard Webhooks headers with a timestamp tolerance (verifyStandardWebhook). The signing
// functions are here too, for tests of a receiver; the service signs with its own (functions/core/webhooks/signing.ts),
// and the tests check each side against the other.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The `X-Service-Signature` header value: `sha256=` + lowercase hex. */
export const SIGNATURE_PREFIX = 'sha256=';
/** The Standard Webhooks secret prefix: what follows it is the key, in standard base64. */
export const STANDARD_SECRET_PREFIX = 'whsec_';
/** Standard Webhooks: a delivery older (or further in the future) than this is refused, so it cannot be replayed. */
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

/** A raw body as received: the text, or its bytes (a Node Buffer is a Uint8Array). */
export type RawBody = string | Uint8Array;

/** Request headers as node:http gives them (lowercase keys), a plain object with any case, or a Fetch `Headers`. */
export type WebhookHeaders = Record<string, string | string[] | undefined> | { get(name: string): string | null };

export interface StandardVerifyOptions {
  /**
   * How far `webhook-timestamp` may be from now, either way, in seconds: a finite number, 0 or more. Anything else
   * (NaN from an unset environment variable, Infinity, a negative number, a string) makes verifyStandardWebhook throw a
   * RangeError rather than accept every timestamp. @default 300 (5 minutes)
   */
  toleranceSeconds?: number;
  /** The current time in epoch milliseconds; a non-finite answer makes verifyStandardWebhook throw. @default Date.now */
  now?: () => number;
}

const HEX_SHA256 = /^[0-9a-f]{64}$/;
const isRawBody = (body: unknown): body is RawBody => typeof body === 'string' || body instanceof Uint8Array;

/** `sha256=<lowercase hex HMAC-SHA256(key = the UTF-8 bytes of the whole secret, message = the body bytes)>`. */
export function signPayload(rawBody: RawBody, secret: string): string {
  return SIGNATURE_PREFIX + createHmac('sha256', Buffer.from(secret, 'utf8')).update(rawBody).digest('hex');
}

/** `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, keyed with the base64-decoded bytes after `whsec_`. */
export function standardSignature(id: string, timestamp: number, rawBody: RawBody, secret: string): string {
  const hmac = createHmac('sha256', standardKey(secret));
  hmac.update(`${id}.${timestamp}.`, 'utf8');
  hmac.update(rawBody);
  return `v1,${hmac.digest('base64')}`;
}

/**
 * True when `header` (the `X-Service-Signature` value, `sha256=<lowercase hex>`) is the HMAC-SHA256 of `rawBody`
 * keyed with `secret` (its UTF-8 bytes). Pass the body exactly as received: a re-serialised JSON body will not verify.
 * Compares in constant time; answers false (never throws) for a missing, malformed or wrong-length header.
 * This scheme has no timestamp: prefer verifyStandardWebhook where a replayed delivery matters.
 */
export function verifySignature(rawBody: RawBody, header: string | string[] | undefined | null, secret: string): boolean {
  try {
    if (typeof header !== 'string' || typeof secret !== 'string' || secret === '' || !isRawBody(rawBody)) return false;
    const given = header.trim();
    if (!given.startsWith(SIGNATURE_PREFIX) || !HEX_SHA256.test(given.slice(SIGNATURE_PREFIX.length))) return false;
    return sameText(signPayload(rawBody, secret), given);
  } catch {
    return false;
  }
}

/**
 * Standard Webhooks verification (https://www.standardwebhooks.com): true when `webhook-signature` holds a `v1,`
 * signature equal to the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the
 * base64-decoded bytes after `whsec_` of `secret`, and `webhook-timestamp` is within `toleranceSeconds` of now.
 * Several space-separated signatures (one per valid secret) are accepted if any matches. Answers false (never throws)
 * for missing or malformed headers, a stale or future timestamp, or a wrong signature. Deduplicate on `webhook-id`:
 * it is the same on every retry and resend of one delivery.
 *
 * @throws RangeError when `options.toleranceSeconds` is given but is not a finite number of 0 or more (NaN, Infinity,
 *   negative, not a number), or when `options.now()` is not a finite number: a misconfigured window would otherwise
 *   accept a delivery of any age, so it is refused loudly instead of answering true or false.
 */
export function verifyStandardWebhook(rawBody: RawBody, headers: WebhookHeaders, secret: string, options: StandardVerifyOptions = {}): boolean {
  const tolerance = toleranceOf(options?.toleranceSeconds);
  const nowMs = (options?.now ?? Date.now)();
  if (typeof nowMs !== 'number' || !Number.isFinite(nowMs)) {
    throw new RangeError(`verifyStandardWebhook: options.now() must return finite epoch milliseconds, got ${String(nowMs)}`);
  }
  try {
    if (typeof secret !== 'string' || standardKey(secret).length === 0 || !isRawBody(rawBody)) return false;
    const id = header(headers, 'webhook-id');
    const timestamp = header(headers, 'webhook-timestamp');
    const signatures = header(headers, 'webhook-signature');
    if (!id || !timestamp || !signatures || !/^\d{1,15}$/.test(timestamp)) return false;
    const nowSeconds = Math.floor(nowMs / 1000);
    if (Math.abs(nowSeconds - Number(timestamp)) > tolerance) return false;
    const expected = standardSignature(id, Number(timestamp), rawBody, secret);
    let match = false;
    for (const candidate of signatures.split(' ')) {
      // Every candidate is compared (no early exit), so timing says nothing about which one matched.
      if (candidate.startsWith('v1,') && sameText(expected, candidate)) match = true;
    }
    return match;
  } catch {
    return false;
  }
}

/** The tolerance to use: the default when absent, else a finite number of seconds, 0 or more (a RangeError otherwise). */
function toleranceOf(value: unknown): number {
  if (value === undefined) return DEFAULT_TOLERANCE_SECONDS;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new RangeError(
      `verifyStandardWebhook: toleranceSeconds must be a finite number of seconds, 0 or more (got ${typeof value === 'number' ? String(value) : typeof value})`,
    );
  }
  return value;
}

/** The HMAC key of a Standard Webhooks secret: the base64 after `whsec_` (a secret without it is base64 whole). */
function standardKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(STANDARD_SECRET_PREFIX) ? secret.slice(STANDARD_SECRET_PREFIX.length) : secret, 'base64');
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

// Webhook signature verification for subscribers: check X-Service-Signature over the raw body bytes, in constant time.
import { timingSafeEqual } from 'node:crypto';
import { SIGNATURE_PREFIX, signPayload } from '../core/webhooks/signing';

export { signPayload };

const HEX_SHA256 = /^[0-9a-f]{64}$/;

/**
 * True when `header` (the `X-Service-Signature` value, `sha256=<lowercase hex>`) is the HMAC-SHA256 of `rawBody`
 * keyed with `secret` (its UTF-8 bytes). Pass the body exactly as received: a re-serialised JSON body will not verify.
 * Compares in constant time; answers false (never throws) for a missing, malformed or wrong-length header.
 */
export function verifySignature(rawBody: string | Buffer, header: string | undefined, secret: string): boolean {
  try {
    if (typeof header !== 'string' || typeof secret !== 'string' || secret === '') return false;
    if (typeof rawBody !== 'string' && !Buffer.isBuffer(rawBody)) return false;
    const given = header.trim();
    if (!given.startsWith(SIGNATURE_PREFIX) || !HEX_SHA256.test(given.slice(SIGNATURE_PREFIX.length))) return false;
    const expected = Buffer.from(signPayload(rawBody, secret), 'utf8');
    const actual = Buffer.from(given, 'utf8');
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  } catch {
    return false;
  }
}

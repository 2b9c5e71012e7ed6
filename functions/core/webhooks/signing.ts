// Webhook body and signatures (docs/webhooks.md#receiving-webhooks): canonical JSON of the envelope;
// X-Service-Signature (HMAC-SHA256 of the body keyed with the secret's UTF-8 bytes) and the Standard Webhooks headers
// (webhook-id, -timestamp, -signature).
import { createHmac } from 'node:crypto';
import type { EventEnvelope } from '../events';
import { canonicalJson } from '../json';

export const SIGNATURE_HEADER = 'X-Service-Signature';
export const SIGNATURE_PREFIX = 'sha256=';
/** The Standard Webhooks secret prefix: what follows it is the key, in standard base64. */
export const STANDARD_SECRET_PREFIX = 'whsec_';
export const STANDARD_SIGNATURE_VERSION = 'v1';

/** An envelope as delivered: a project event, or the `webhook.test` event (not a bus event type). */
export type DeliveredEnvelope = Omit<EventEnvelope, 'event_type'> & { event_type: string };

/** The exact bytes POSTed: the four envelope fields (nothing else), keys sorted at every depth, compact separators. */
export function deliveryBody(envelope: DeliveredEnvelope): string {
  const { event_type, project_id, created_at, data } = envelope;
  return canonicalJson({ event_type, project_id, created_at, data });
}

/** `sha256=<lowercase hex HMAC-SHA256(key = UTF-8 bytes of secret, message = body bytes)>`. */
export function signPayload(body: string | Buffer, secret: string): string {
  return SIGNATURE_PREFIX + createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');
}

/**
 * The HMAC key of a secret as the Standard Webhooks spec defines it: the base64-decoded bytes after `whsec_`
 * (a secret without the prefix is taken as base64 whole, as the official libraries do).
 */
export function standardKey(secret: string): Buffer {
  const encoded = secret.startsWith(STANDARD_SECRET_PREFIX) ? secret.slice(STANDARD_SECRET_PREFIX.length) : secret;
  return Buffer.from(encoded, 'base64');
}

/** `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` keyed with standardKey(secret). */
export function standardSignature(id: string, timestamp: number, body: string | Buffer, secret: string): string {
  const hmac = createHmac('sha256', standardKey(secret));
  hmac.update(`${id}.${timestamp}.`, 'utf8');
  hmac.update(body);
  return `${STANDARD_SIGNATURE_VERSION},${hmac.digest('base64')}`;
}

/** What a delivery try needs to build its headers. `secrets`: every secret valid now, the current one first. */
export interface DeliveryHeaderInput {
  eventType: string;
  deliveryId: string;
  webhookId: string;
  body: string;
  secrets: readonly string[];
  /** Unix seconds of this try (webhook-timestamp). */
  timestamp: number;
  userAgent: string;
}

/**
 * Every header of one try. `X-Service-Signature` is made with the current secret;
 * `webhook-signature` carries one `v1,` signature per valid secret, space-separated, as Standard Webhooks allows
 * (rotation has no overlap today, so that is one signature). `webhook-id` is the delivery id, stable across retries
 * and resends, so receivers deduplicate on it.
 */
export function deliveryHeaders(p: DeliveryHeaderInput): Record<string, string> {
  const [current] = p.secrets;
  return {
    'Content-Type': 'application/json',
    'User-Agent': p.userAgent,
    'X-Service-Event': p.eventType,
    'X-Service-Delivery': p.deliveryId,
    'X-Service-Webhook-Id': p.webhookId,
    [SIGNATURE_HEADER]: signPayload(p.body, current),
    'webhook-id': p.deliveryId,
    'webhook-timestamp': String(p.timestamp),
    'webhook-signature': p.secrets.map((s) => standardSignature(p.deliveryId, p.timestamp, p.body, s)).join(' '),
  };
}

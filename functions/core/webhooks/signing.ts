// Webhook body and signature (SPEC section 9): canonical JSON of the envelope, HMAC-SHA256 keyed with the secret's UTF-8 bytes.
import { createHmac } from 'node:crypto';
import type { EventEnvelope } from '../events';
import { canonicalJson } from '../json';

export const SIGNATURE_HEADER = 'X-Service-Signature';
export const SIGNATURE_PREFIX = 'sha256=';

/** The exact bytes POSTed: the four envelope fields (nothing else), keys sorted at every depth, compact separators. */
export function deliveryBody(envelope: EventEnvelope): string {
  const { event_type, project_id, created_at, data } = envelope;
  return canonicalJson({ event_type, project_id, created_at, data });
}

/** `sha256=<lowercase hex HMAC-SHA256(key = UTF-8 bytes of secret, message = body bytes)>`. */
export function signPayload(body: string | Buffer, secret: string): string {
  return SIGNATURE_PREFIX + createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');
}

// Identifier generation and validation (docs/api.md#ids), injectable for deterministic tests.
import { randomBytes, randomUUID } from 'node:crypto';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const WEBHOOK_ID = /^wh_[0-9a-z]{24}$/;
const ALNUM = '0123456789abcdefghijklmnopqrstuvwxyz';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export type IdGenerator = () => string;

export const newUuid: IdGenerator = () => randomUUID();

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_V4.test(value);
}

export function isWebhookId(value: unknown): value is string {
  return typeof value === 'string' && WEBHOOK_ID.test(value);
}

/** Unbiased random string over an alphabet (rejection sampling). */
export function randomString(alphabet: string, length: number): string {
  const out: string[] = [];
  const limit = 256 - (256 % alphabet.length);
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < limit && out.length < length) out.push(alphabet[b % alphabet.length]);
    }
  }
  return out.join('');
}

export const newWebhookId: IdGenerator = () => `wh_${randomString(ALNUM, 24)}`;

/** API keys: `rts_` + 40 base62 characters (docs/api.md#authentication). */
export const newApiKey: IdGenerator = () => `rts_${randomString(BASE62, 40)}`;

export function isApiKeyShape(value: unknown): value is string {
  return typeof value === 'string' && /^rts_[0-9A-Za-z]{40}$/.test(value);
}

/**
 * Webhook secrets: `whsec_` + 32 random bytes in standard base64 with padding (docs/webhooks.md#rules; the Standard
 * Webhooks secret format: its libraries load such a secret as it is; base64url's `-` and `_` would make them throw).
 */
export const newWebhookSecret: IdGenerator = () => `whsec_${randomBytes(32).toString('base64')}`;

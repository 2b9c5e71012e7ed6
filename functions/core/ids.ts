// Identifier generation and validation (docs/api.md#ids), injectable for deterministic tests.
import { createHash, randomBytes, randomUUID } from 'node:crypto';

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

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** murmur3's 32-bit finaliser: a bijection on uint32 with good avalanche. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * UUID v4-shaped ids for a numbered series (the events of one attempt): one sha256 of `seed`, then each sequence
 * number is mixed in by a bijection, so ids of one series never collide and hashing stays out of the hot loop.
 */
export function uuidSeries(seed: string): (sequence: number) => string {
  const base = createHash('sha256').update(seed).digest();
  const words = [base.readUInt32BE(0), base.readUInt32BE(4), base.readUInt32BE(8), base.readUInt32BE(12)];
  return (sequence) => {
    let out = '';
    for (let i = 0; i < 4; i++) {
      let w = (words[i] ^ fmix32((sequence * 4 + i) >>> 0)) >>> 0;
      if (i === 1) w = (w & 0xffff0fff) | 0x00004000; // version 4
      if (i === 2) w = ((w & 0x3fffffff) | 0x80000000) >>> 0; // RFC 4122 variant
      out += HEX[w >>> 24] + HEX[(w >>> 16) & 0xff] + HEX[(w >>> 8) & 0xff] + HEX[w & 0xff];
    }
    return `${out.slice(0, 8)}-${out.slice(8, 12)}-${out.slice(12, 16)}-${out.slice(16, 20)}-${out.slice(20)}`;
  };
}

/** Deterministic event ids: the same run, attempt, kind and sequence always give the same UUID-shaped id. */
export function eventIds(runId: string, attempt: number, kind: 'policy' | 'security'): (sequence: number) => string {
  return uuidSeries(`${runId}:${attempt}:${kind}`);
}

/** The event id of one event (eventIds for a whole series is cheaper). */
export function eventId(runId: string, attempt: number, kind: 'policy' | 'security', sequence: number): string {
  return eventIds(runId, attempt, kind)(sequence);
}

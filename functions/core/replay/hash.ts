// Deterministic derivations from sha256: UUID-shaped event ids, canary tokens, fake credentials, PRNG seeds.
import { createHash } from 'node:crypto';

export function sha256(input: string): Buffer {
  return createHash('sha256').update(input).digest();
}

/** A UUID v4-shaped id derived from `input`, so re-running an attempt rewrites the same keys. */
export function uuidFrom(input: string): string {
  const b = sha256(input);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex', 0, 16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

export const CANARY_PREFIX = 'RTS-CANARY-';

/**
 * The canary token of a mutation: `RTS-CANARY-` + 16 hex digits of sha256(purpose, campaign, trace, mutation).
 * It does not depend on the run or attempt, so a mutation applied twice to the same trace yields the same text.
 */
export function canaryToken(purpose: 'inject' | 'bait', campaignId: string, traceId: string, mutationId: string): string {
  return CANARY_PREFIX + sha256(`${purpose}\u0000${campaignId}\u0000${traceId}\u0000${mutationId}`).toString('hex', 0, 8);
}

/** `length` characters of `alphabet` drawn deterministically from a seed string. */
export function derivedString(seed: string, alphabet: string, length: number): string {
  let out = '';
  let counter = 0;
  while (out.length < length) {
    for (const byte of sha256(`${seed}\u0000${counter++}`)) {
      if (out.length < length) out += alphabet[byte % alphabet.length];
    }
  }
  return out;
}

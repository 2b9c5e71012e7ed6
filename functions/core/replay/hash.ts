// Deterministic derivations from sha256: canary tokens, fake credentials, PRNG seeds (UUID-shaped event ids: ../ids.ts).
import { createHash } from 'node:crypto';

export function sha256(input: string): Buffer {
  return createHash('sha256').update(input).digest();
}

// The UUID-shaped ids of a series live with the other identifiers (the store reads them too).
export { eventId, eventIds, uuidSeries } from '../ids';

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

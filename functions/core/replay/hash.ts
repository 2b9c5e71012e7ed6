// Deterministic derivations from sha256: UUID-shaped event ids, canary tokens, fake credentials, PRNG seeds.
import { createHash } from 'node:crypto';

export function sha256(input: string): Buffer {
  return createHash('sha256').update(input).digest();
}

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
  const base = sha256(seed);
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

// A small seeded PRNG (sfc32), so input perturbations are reproducible from the mutation id and trace content.
import { sha256 } from './hash';

export interface Prng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
}

/** Seeds sfc32 with the first 16 bytes of sha256(seed). */
export function seededPrng(seed: string): Prng {
  const s = sha256(seed);
  let a = s.readUInt32LE(0);
  let b = s.readUInt32LE(4);
  let c = s.readUInt32LE(8);
  let d = s.readUInt32LE(12);
  const next = (): number => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    const t = (a + b + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  return { next, int: (n) => Math.floor(next() * n) };
}

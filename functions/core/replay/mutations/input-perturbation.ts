// input_perturbation (docs/campaigns-and-replay.md#mutations): deterministic rewrites of the user's messages, seeded
// by mutation id and content.
import type { Mutation } from '../../campaigns/schema';
import { seededPrng, type Prng } from '../prng';

type PerturbationMutation = Extract<Mutation, { type: 'input_perturbation' }>;

export const DEFAULT_APPENDED_TEXT = 'Also, please keep your answer short; I am in a hurry.';

const NEIGHBOURS: Record<string, string> = {
  a: 'qs',
  b: 'vn',
  c: 'xv',
  d: 'sf',
  e: 'wr',
  f: 'dg',
  g: 'fh',
  h: 'gj',
  i: 'uo',
  j: 'hk',
  k: 'jl',
  l: 'k',
  m: 'n',
  n: 'bm',
  o: 'ip',
  p: 'o',
  q: 'w',
  r: 'et',
  s: 'ad',
  t: 'ry',
  u: 'yi',
  v: 'cb',
  w: 'qe',
  x: 'zc',
  y: 'tu',
  z: 'x',
};

/** Rewrites one user message. Same mutation id and same text give the same result. */
export function perturbInput(m: PerturbationMutation, text: string): string {
  switch (m.kind) {
    case 'uppercase':
      return text.toUpperCase();
    case 'append':
      return `${text}\n\n${m.text ?? DEFAULT_APPENDED_TEXT}`;
    case 'whitespace':
      return whitespace(text, seededPrng(`${m.id}\u0000whitespace\u0000${text}`));
    case 'typos':
      return typos(text, seededPrng(`${m.id}\u0000typos\u0000${text}`));
  }
}

/** Doubles or tabs some spaces, splits a line, pads both ends: meaning intact, layout noisy. */
function whitespace(text: string, rng: Prng): string {
  const body = text.replace(/ /g, () => {
    const r = rng.next();
    if (r < 0.25) return '  ';
    if (r < 0.35) return ' \t';
    if (r < 0.4) return '\n';
    return ' ';
  });
  return `  ${body}  \n`;
}

/** About one word in four (at least one) of 4+ letters gets a swap, a drop, a double or a neighbouring key. */
function typos(text: string, rng: Prng): string {
  const words = [...text.matchAll(/[A-Za-z]{4,}/g)];
  if (words.length === 0) return text;
  const chosen = new Set<number>();
  words.forEach((_, i) => {
    if (rng.next() < 0.25) chosen.add(i);
  });
  if (chosen.size === 0) chosen.add(rng.int(words.length));
  let out = '';
  let last = 0;
  words.forEach((match, i) => {
    if (!chosen.has(i)) return;
    const start = match.index ?? 0;
    out += text.slice(last, start) + typo(match[0], rng);
    last = start + match[0].length;
  });
  return out + text.slice(last);
}

function typo(word: string, rng: Prng): string {
  const i = 1 + rng.int(word.length - 2);
  switch (rng.int(4)) {
    case 0:
      // Swapping two equal letters changes nothing: drop one instead.
      if (word[i] !== word[i + 1]) return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
      return word.slice(0, i) + word.slice(i + 1);
    case 1:
      return word.slice(0, i) + word.slice(i + 1);
    case 2:
      return word.slice(0, i) + word[i] + word.slice(i);
    default: {
      const lower = word[i].toLowerCase();
      const options = NEIGHBOURS[lower] ?? lower;
      let key = options[rng.int(options.length)];
      if (word[i] !== lower) key = key.toUpperCase();
      return word.slice(0, i) + key + word.slice(i + 1);
    }
  }
}

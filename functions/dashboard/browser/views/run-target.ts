// The attempt the run page's address names: `#attempt-<n>`, or an attack-matrix cell's `#baseline` or
// `#mutation-<id>`, which stand for the first attempt of that mutation (found in the run's scored attempts).
import type { AttemptScore } from '../types';

/** An attempt by number, or the first attempt of a mutation (null: the baseline). */
export type Target = { attempt: number } | { mutation: string | null };

/** The target in a location hash, or null when the hash names none. */
export function parseTarget(hash: string): Target | null {
  const frag = hash.replace(/^#/, '');
  const byNumber = /^attempt-(\d{1,4})$/.exec(frag);
  if (byNumber) return { attempt: Number(byNumber[1]) };
  if (frag === 'baseline') return { mutation: null };
  const byMutation = /^mutation-(.+)$/.exec(frag);
  if (!byMutation) return null;
  try {
    return { mutation: decodeURIComponent(byMutation[1]) };
  } catch {
    return null;
  }
}

/** The attempt number the target names among the scored attempts; null while it is not scored (or does not exist). */
export function resolveTarget(target: Target, attempts: readonly AttemptScore[]): number | null {
  if ('attempt' in target) return attempts.some((a) => a.attempt === target.attempt) ? target.attempt : null;
  let first: number | null = null;
  for (const a of attempts) if ((a.mutation_id ?? null) === target.mutation && (first === null || a.attempt < first)) first = a.attempt;
  return first;
}

/** The target in words, for the note shown when the run has no such attempt. */
export function targetText(target: Target): string {
  if ('attempt' in target) return `attempt ${target.attempt}`;
  return target.mutation === null ? 'the baseline' : `mutation ${target.mutation}`;
}

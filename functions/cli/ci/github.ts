// GitHub Actions workflow commands of `rts ci run`: an `::error` annotation per failing cell (at most 10, then a count).
import { cellOutcomes } from './cells';
import type { CiResult } from './result';

/** How many cells get an annotation of their own; GitHub shows 10 error annotations per step anyway. */
export const MAX_ANNOTATIONS = 10;

/**
 * A workflow command's message: `%`, CR and LF escaped (GitHub's rules, as in @actions/core); the other line
 * separators (VT, FF, NEL, LS, PS), which a log viewer may break on, become spaces.
 */
export const escapeData = (s: string) =>
  s
    .replace(/%/g, '%25')
    .replace(/\r/g, '%0D')
    .replace(/\n/g, '%0A')
    .replace(/[\v\f\u0085\u2028\u2029]/g, ' ');

/** A workflow command's property value: the message's escapes plus `:` and `,`. */
export const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/**
 * `::error title=...::message` lines: one for the error that stopped the command (timeout, API error), then one per
 * failing or erroring cell (trace, mutation, what failed, the run's link), at most MAX_ANNOTATIONS, then one line
 * counting the rest. Empty when nothing failed.
 */
export function githubAnnotations(r: CiResult): string {
  const lines: string[] = [];
  const error = (title: string, message: string) => `::error title=${escapeProperty(title)}::${escapeData(message)}`;
  if (r.error) lines.push(error('rts ci: error', `${r.error.message}${r.dashboard_url ? `\n${r.dashboard_url}` : ''}`));
  const failing = cellOutcomes(r).filter((o) => o.kind !== 'pass');
  for (const o of failing.slice(0, MAX_ANNOTATIONS)) {
    const what = o.kind === 'error' ? 'error' : o.type === 'regressed' ? 'regressed' : 'failed';
    lines.push(error(`rts: ${o.classname} [${o.name}] ${what}`, `${o.message}\n${o.scenario.dashboard_url}`));
  }
  if (failing.length > MAX_ANNOTATIONS) {
    const rest = failing.length - MAX_ANNOTATIONS;
    lines.push(`::error::${escapeData(`rts: ... and ${rest} more failing cell(s)${r.dashboard_url ? `; see ${r.dashboard_url}` : ''}`)}`);
  }
  return lines.map((l) => `${l}\n`).join('');
}

// Evidence excerpts for security events: at most 200 characters, secrets masked, hidden characters made visible.
import { HIDDEN_TAG_RUN, SECRET_PATTERNS } from './patterns';

export const EVIDENCE_MAX = 200;

/** Masks credentials (first 4 characters kept, then `****`) and the given extra tokens (bait canaries). */
export function maskSecrets(text: string, extra: readonly string[] = []): string {
  let out = text;
  for (const p of SECRET_PATTERNS) {
    if (!p.find.test(out)) continue;
    p.find.lastIndex = 0;
    out = out.replace(p.find, (m) => `${m.slice(0, p.keep(m))}****`);
  }
  for (const token of extra) if (token && out.includes(token)) out = out.split(token).join(`${token.slice(0, 4)}****`);
  // Ensure no global regex carries state into the next call.
  for (const p of SECRET_PATTERNS) p.find.lastIndex = 0;
  return out;
}

/** Hidden Unicode tag characters shown as the ASCII they encode, e.g. `[hidden: ignore all]`. */
export function revealHidden(text: string): string {
  return text.replace(
    HIDDEN_TAG_RUN,
    (run) => `[hidden: ${[...run].map((ch) => String.fromCharCode((ch.codePointAt(0) ?? 0xe0000) - 0xe0000)).join('')}]`,
  );
}

/**
 * A short excerpt of `text` around `needle` (its start when absent), masked first so a cut can never expose
 * part of a secret, then limited to 200 characters with whitespace collapsed.
 */
export function evidence(text: string, needle: string, extraSecrets: readonly string[] = []): string {
  const clean = maskSecrets(revealHidden(text), extraSecrets).replace(/\s+/g, ' ');
  const target = needle ? maskSecrets(revealHidden(needle), extraSecrets).replace(/\s+/g, ' ') : '';
  const at = target ? Math.max(0, clean.indexOf(target)) : 0;
  if (clean.length <= EVIDENCE_MAX) return clean;
  const start = Math.max(0, Math.min(at - 40, clean.length - EVIDENCE_MAX));
  const end = start + EVIDENCE_MAX;
  let excerpt = clean.slice(start, end);
  if (start > 0) excerpt = `…${excerpt.slice(1)}`;
  if (end < clean.length) excerpt = `${excerpt.slice(0, -1)}…`;
  return excerpt;
}

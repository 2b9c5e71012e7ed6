// Evidence excerpts for security events: at most 200 characters, secrets masked, hidden characters made visible.
import { ASCII_TAG, HIDDEN_TAG_RUN, HIDDEN_TAGS, SECRET_PATTERNS } from './patterns';

export const EVIDENCE_MAX = 200;

/** Masks credentials (first 4 characters kept, then `****`) and the given extra tokens (bait canaries). */
export function maskSecrets(text: string, extra: readonly string[] = []): string {
  let out = text;
  for (const p of SECRET_PATTERNS) {
    let masked = '';
    let from = 0;
    for (const m of p.matches(out)) {
      masked += `${out.slice(from, m.index)}${m.text.slice(0, p.keep(m.text))}****`;
      from = m.index + m.text.length;
    }
    if (from > 0) out = masked + out.slice(from);
  }
  for (const token of extra) if (token && out.includes(token)) out = out.split(token).join(`${token.slice(0, 4)}****`);
  return out;
}

const TAG_BASE = 0xe0000;

/** One tag character as what it stands for: its ASCII character, or `<U+E00xx>` for the non-printing ones. */
function tagText(ch: string): string {
  const cp = ch.codePointAt(0) ?? TAG_BASE;
  return cp >= 0xe0020 && cp <= 0xe007e ? String.fromCharCode(cp - TAG_BASE) : `<U+${cp.toString(16).toUpperCase()}>`;
}

/**
 * Hidden Unicode tag characters shown as the ASCII they encode, e.g. `[hidden: ignore all]`. No tag character
 * survives, and none becomes a control character (U+E0000-U+E001F and U+E007F are written as `<U+E0001>`).
 */
export function revealHidden(text: string): string {
  if (!HIDDEN_TAGS.test(text)) return text;
  return text.replace(HIDDEN_TAG_RUN, (run) => `[hidden: ${[...run].map((element) => tagText(element)).join('')}]`);
}

/**
 * The text a model reads: tag characters that mirror ASCII decoded in place, the other tag characters dropped. The
 * detectors scan this, so an instruction or a canary hidden in tag characters is found like visible text.
 */
export function decodeHidden(text: string): string {
  if (!HIDDEN_TAGS.test(text)) return text;
  return text.replace(ASCII_TAG, (ch) => String.fromCharCode((ch.codePointAt(0) ?? TAG_BASE) - TAG_BASE)).replace(HIDDEN_TAG_RUN, '');
}

/**
 * A short excerpt of `text` around `needle` (its start when absent), masked first so a cut can never expose
 * part of a secret, then limited to 200 characters with whitespace collapsed. `fieldLength`, when the field was
 * longer than what the detectors scanned (`text`), ends the excerpt with a note saying so, within the 200.
 */
export function evidence(text: string, needle: string, extraSecrets: readonly string[] = [], fieldLength = text.length): string {
  const note = fieldLength > text.length ? ` [scanned the first ${text.length} of ${fieldLength} characters]` : '';
  const room = EVIDENCE_MAX - note.length;
  const clean = maskSecrets(revealHidden(text), extraSecrets).replace(/\s+/g, ' ');
  const target = needle ? maskSecrets(revealHidden(needle), extraSecrets).replace(/\s+/g, ' ') : '';
  const at = target ? Math.max(0, clean.indexOf(target)) : 0;
  if (clean.length <= room) return clean + note;
  const start = Math.max(0, Math.min(at - 40, clean.length - room));
  const end = start + room;
  let excerpt = clean.slice(start, end);
  if (start > 0) excerpt = `…${excerpt.slice(1)}`;
  if (end < clean.length) excerpt = `${excerpt.slice(0, -1)}…`;
  return excerpt + note;
}

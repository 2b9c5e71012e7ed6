// Linear-time scanners for the detector patterns a backtracking regex cannot run in linear time, and the scan cap.
//
// Every built-in pattern runs on text chosen by third parties (a web page a tool fetched, an agent's arguments), so
// each one must cost O(length) on any input. The regexes in patterns.ts are written so each starting position does
// bounded work or owns the run it scans (see the notes there). Three shapes cannot be written that way and are
// driven from code here, with the same matches a plain regex would give: private key blocks (a lazy scan to the
// END line), JWTs (a run of `-`-separated `eyJ` starts) and e-mail addresses (every word boundary of a long local
// part is a start).

/** Characters of one field (a tool result, a call's arguments, an output) the detectors scan; the rest is not scanned. */
export const SCAN_MAX = 262_144;

/** The part of `text` the detectors scan, and whether the field was cut for it. */
export function scanned(text: string): { text: string; truncated: boolean; length: number } {
  if (text.length <= SCAN_MAX) return { text, truncated: false, length: text.length };
  return { text: text.slice(0, SCAN_MAX), truncated: true, length: text.length };
}

export interface Found {
  index: number;
  text: string;
}

/** Every match of a global regex, left to right (matchAll without the array per match). */
export function* regexMatches(re: RegExp, text: string): Generator<Found> {
  const g = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);
  for (let m = g.exec(text); m !== null; m = g.exec(text)) {
    yield { index: m.index, text: m[0] };
    if (m[0] === '') g.lastIndex += 1;
  }
}

const KEY_HEADER = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----/g;
const KEY_FOOTER = /-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----/g;

/**
 * Private key blocks: the header, up to and including the first footer after it when there is one (as
 * `-----BEGIN ... PRIVATE KEY-----(?:[\s\S]*?-----END ... PRIVATE KEY-----)?` would match). The footer search
 * is shared by every header, so text with many headers and no footer is read once, not once per header.
 */
export function* privateKeyBlocks(text: string): Generator<Found> {
  const header = new RegExp(KEY_HEADER.source, 'g');
  const footer = new RegExp(KEY_FOOTER.source, 'g');
  // The first footer found at or after `footerFrom`: -1 when there is none.
  let footerAt = -2;
  let footerEnd = -1;
  let footerFrom = -1;
  for (let h = header.exec(text); h !== null; h = header.exec(text)) {
    const after = h.index + h[0].length;
    if (footerAt === -2 || (footerAt !== -1 && footerAt < after)) {
      footer.lastIndex = after;
      const f = footer.exec(text);
      footerFrom = after;
      footerAt = f ? f.index : -1;
      footerEnd = f ? f.index + f[0].length : -1;
    }
    // No footer at or after an earlier point means none after this header either.
    const end = footerAt >= after && footerFrom <= after ? footerEnd : after;
    yield { index: h.index, text: text.slice(h.index, end) };
    header.lastIndex = end;
  }
}

const JWT_START = /\beyJ/g;
const JWT_AT = /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/y;
const JWT_RUN = /[A-Za-z0-9_-]*/y;

/**
 * JWTs, as `\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}` would match them. Starts in the same
 * run of token characters all end their first part at the run's end, so when the first start of a run fails the
 * later ones fail too: the search skips to the run's end instead of trying each (`eyJ-eyJ-eyJ-...` is read once).
 */
export function* jwtTokens(text: string): Generator<Found> {
  const start = new RegExp(JWT_START.source, 'g');
  const at = new RegExp(JWT_AT.source, 'y');
  for (let s = start.exec(text); s !== null; s = start.exec(text)) {
    at.lastIndex = s.index;
    const m = at.exec(text);
    if (m) {
      yield { index: s.index, text: m[0] };
      start.lastIndex = s.index + m[0].length;
      continue;
    }
    const run = new RegExp(JWT_RUN.source, 'y');
    run.lastIndex = s.index;
    start.lastIndex = s.index + (run.exec(text)?.[0].length ?? 3);
  }
}

const EMAIL_DOMAIN = /@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})\b/g;
const isAlnum = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
/** `[A-Za-z0-9._%+-]` on a UTF-16 code unit. */
const isLocal = (c: number) => isAlnum(c) || c === 46 || c === 95 || c === 37 || c === 43 || c === 45;
/** `\w` on a UTF-16 code unit (NaN, before the text, is not a word character). */
const isWord = (c: number) => isAlnum(c) || c === 95;

export interface EmailFound extends Found {
  domain: string;
}

/**
 * E-mail addresses, as `\b[A-Za-z0-9._%+-]+@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})\b` would match
 * them, found from the `@` side: each domain is matched once, then the local part is the run of local-part
 * characters before the `@`, from its leftmost word boundary. A backtracking engine would instead try every
 * boundary of a long run (`a.a.a.a...`) and read the run again from each.
 */
export function* emailAddresses(text: string): Generator<EmailFound> {
  const domain = new RegExp(EMAIL_DOMAIN.source, 'g');
  // Where the previous match ended: a match never starts inside an earlier one.
  let floor = 0;
  for (let d = domain.exec(text); d !== null; d = domain.exec(text)) {
    const at = d.index;
    let runStart = at;
    while (runStart > floor && isLocal(text.charCodeAt(runStart - 1))) runStart -= 1;
    let start = -1;
    for (let i = runStart; i < at; i += 1) {
      if (isWord(text.charCodeAt(i - 1)) !== isWord(text.charCodeAt(i))) {
        start = i;
        break;
      }
    }
    if (start === -1) continue;
    const end = at + d[0].length;
    yield { index: start, text: text.slice(start, end), domain: d[1] };
    floor = end;
  }
}

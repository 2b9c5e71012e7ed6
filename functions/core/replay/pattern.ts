// User-supplied regular expressions (output_matches, argument_constraint.pattern) run on RE2 semantics through re2js:
// matching is linear in the input, so no pattern can pin a worker by backtracking (`^(a+)+$` on 100 KB takes ms).
// Backreferences and lookaround have no linear-time form: such a pattern is refused when the campaign is created.
//
// Linear in the input is not enough: when re2js's DFA gives up (`(a|b){1000}[cd]` needs more states than it may
// keep), it simulates the program over the text, at a cost of program size x text length. Both are bounded: the
// program when the campaign is created (PATTERN_PROGRAM_MAX instructions, else 422), the text when matching (at most
// PATTERN_WORK_MAX / program size characters of it, and never more than PATTERN_TEXT_MAX).
import { RE2JS } from 're2js';

/** The largest compiled program (re2js instructions) a user pattern may have. */
export const PATTERN_PROGRAM_MAX = 200;
/** Program size x characters matched: the work one match may do. */
export const PATTERN_WORK_MAX = 4_194_304;
/** Characters of one text a user pattern is matched against, whatever its size. */
export const PATTERN_TEXT_MAX = 262_144;

/** A compiled pattern: `test` is true when it matches anywhere in the text (like RegExp.prototype.test). */
export interface Pattern {
  readonly source: string;
  /** How many characters of a text `test` reads: the rest is not matched. */
  readonly textLimit: number;
  test(text: string): boolean;
}

const cache = new Map<string, Pattern | null>();

/** Why `source` cannot be used, as a message for the campaign's author, or null when it can. */
export function patternError(source: string): string | null {
  let size: number;
  try {
    size = RE2JS.compile(source).programSize();
  } catch (err) {
    const why = (err as Error).message.replace(/^error parsing regexp: /, '');
    return `pattern is not a valid RE2 regular expression (no backreferences or lookaround): ${why}`;
  }
  if (size > PATTERN_PROGRAM_MAX) {
    return `pattern is too large: it compiles to ${size} instructions, at most ${PATTERN_PROGRAM_MAX} (each repeat of a {n} counts)`;
  }
  return null;
}

/** The characters of a text a pattern of `programSize` instructions reads. */
export function textLimit(programSize: number): number {
  return Math.min(PATTERN_TEXT_MAX, Math.floor(PATTERN_WORK_MAX / Math.max(1, programSize)));
}

/**
 * Compiles (once per process, bounded cache) a pattern; null when it does not compile or is larger than
 * PATTERN_PROGRAM_MAX (a campaign stored before that limit), which callers fail closed on.
 */
export function compilePattern(source: string): Pattern | null {
  if (!cache.has(source)) {
    if (cache.size > 10000) cache.clear();
    let compiled: Pattern | null = null;
    try {
      const re = RE2JS.compile(source);
      const limit = textLimit(re.programSize());
      // test() asks for no capture positions, which lets re2js use its DFA (matcher().find() never does).
      if (re.programSize() <= PATTERN_PROGRAM_MAX) {
        compiled = { source, textLimit: limit, test: (text) => re.test(text.length > limit ? text.slice(0, limit) : text) };
      }
    } catch {
      compiled = null;
    }
    cache.set(source, compiled);
  }
  return cache.get(source) ?? null;
}

// User-supplied regular expressions (output_matches, argument_constraint.pattern) run on RE2 semantics through re2js:
// matching is linear in the input, so no pattern can pin a worker by backtracking (`^(a+)+$` on 100 KB takes ms).
// Backreferences and lookaround have no linear-time form: such a pattern is refused when the campaign is created.
//
// Linear in the input is not enough: re2js simulates the program over the text, at a cost of program size x text
// length (`(a|b){1000}[cd]` is 3,003 instructions). Both are bounded: the program when the campaign is created
// (PATTERN_PROGRAM_MAX instructions, else 422), the text when matching (at most PATTERN_WORK_MAX / program size
// characters of it, and never more than PATTERN_TEXT_MAX). Its DFA (RE2JS.test) is not used: on patterns whose states
// it cannot keep, it rebuilds one state per character and costs ten times the simulation.
//
// re2js is loaded the first time a pattern is compiled, not when this module loads: most campaigns have no pattern, and
// the functions that carry it (the replay worker, the MCP endpoint, the campaign writes) then never load its ~100 KB.
// The Lambda bundles keep it in a file of its own beside index.js (lib/constructs/esbuild-run.js).
import type { RE2JS } from 're2js';

let loaded: typeof RE2JS | undefined;
/** re2js's RE2JS, required on first use (an import would load it with this module). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const re2js = (): typeof RE2JS => (loaded ??= (require('re2js') as typeof import('re2js')).RE2JS);

/** The largest compiled program (re2js instructions) a user pattern may have. */
export const PATTERN_PROGRAM_MAX = 200;
/** Program size x characters matched: the work one match may do. */
export const PATTERN_WORK_MAX = 262_144;
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
  const engine = re2js(); // outside the try: a missing engine is not the pattern's fault
  let size: number;
  try {
    size = engine.compile(source).programSize();
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
    const engine = re2js();
    let compiled: Pattern | null = null;
    try {
      const re = engine.compile(source);
      const limit = textLimit(re.programSize());
      if (re.programSize() <= PATTERN_PROGRAM_MAX) {
        const test = (text: string): boolean => {
          if (text.length <= limit) return re.matcher(text).find();
          // A match that reaches the cut may rest on `$` or `\b` there, which the whole text does not satisfy: it
          // does not count. One that ends before the cut read only real characters, so it holds for the whole text.
          const m = re.matcher(text.slice(0, limit));
          return m.find() && m.end() < limit;
        };
        compiled = { source, textLimit: limit, test };
      }
    } catch {
      compiled = null;
    }
    cache.set(source, compiled);
  }
  return cache.get(source) ?? null;
}

// User-supplied regular expressions (output_matches, argument_constraint.pattern) run on RE2 semantics through re2js:
// matching is linear in the input, so no pattern can pin a worker by backtracking (`^(a+)+$` on 100 KB takes ms).
// Backreferences and lookaround have no linear-time form: such a pattern is refused when the campaign is created.
import { RE2JS } from 're2js';

/** A compiled pattern: `test` is true when it matches anywhere in the text (like RegExp.prototype.test). */
export interface Pattern {
  readonly source: string;
  test(text: string): boolean;
}

const cache = new Map<string, Pattern | null>();

/** Why `source` cannot be compiled (e.g. "invalid or unsupported Perl syntax: `(?=`"), or null when it can. */
export function patternError(source: string): string | null {
  try {
    RE2JS.compile(source);
    return null;
  } catch (err) {
    return (err as Error).message.replace(/^error parsing regexp: /, '');
  }
}

/** Compiles (once per process, bounded cache) a pattern; null when it does not compile, which callers fail closed on. */
export function compilePattern(source: string): Pattern | null {
  if (!cache.has(source)) {
    if (cache.size > 10000) cache.clear();
    let compiled: Pattern | null = null;
    try {
      const re = RE2JS.compile(source);
      compiled = { source, test: (text) => re.matcher(text).find() };
    } catch {
      compiled = null;
    }
    cache.set(source, compiled);
  }
  return cache.get(source) ?? null;
}

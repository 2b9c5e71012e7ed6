// Tool-name globs (`*` any run of characters, `?` one character), compiled once and cached.

const cache = new Map<string, (name: string) => boolean>();

/** Returns a matcher for a tool name pattern: an exact name, a glob such as `delete_*`, or `*`. */
export function globMatcher(pattern: string): (name: string) => boolean {
  let m = cache.get(pattern);
  if (!m) {
    m = compile(pattern);
    // The cache is keyed by campaign-controlled text: keep it bounded in a long-lived worker.
    if (cache.size > 10000) cache.clear();
    cache.set(pattern, m);
  }
  return m;
}

/** true when `name` matches `pattern`. */
export function globMatch(pattern: string, name: string): boolean {
  return globMatcher(pattern)(name);
}

/** true when `name` matches any of the patterns. */
export function globMatchAny(patterns: readonly string[], name: string): boolean {
  for (const p of patterns) if (globMatcher(p)(name)) return true;
  return false;
}

function compile(pattern: string): (name: string) => boolean {
  if (pattern === '*') return () => true;
  if (!/[*?]/.test(pattern)) return (name) => name === pattern;
  const parts = pattern.split('*');
  return (name) => matchParts(parts, name);
}

/** `segment` (where `?` is any one character) at `at` in `name`. */
function segmentAt(segment: string, name: string, at: number): boolean {
  if (at + segment.length > name.length) return false;
  for (let i = 0; i < segment.length; i += 1) if (segment[i] !== '?' && segment[i] !== name[at + i]) return false;
  return true;
}

/**
 * The glob's `*`-separated parts against a name: the first part as a prefix, the last as a suffix, and each middle
 * part at its leftmost place after the previous one (leftmost is always right for `*`). At most name x pattern
 * steps; the regex this replaces (`^a.*b.*c$`) backtracked once per `*` and could take name^stars on a long name.
 */
function matchParts(parts: readonly string[], name: string): boolean {
  const first = parts[0];
  const last = parts[parts.length - 1];
  if (parts.length === 1) return name.length === first.length && segmentAt(first, name, 0);
  const end = name.length - last.length;
  if (end < first.length || !segmentAt(first, name, 0) || !segmentAt(last, name, end)) return false;
  let pos = first.length;
  for (let k = 1; k < parts.length - 1; k += 1) {
    const part = parts[k];
    let at = pos;
    while (at + part.length <= end && !segmentAt(part, name, at)) at += 1;
    if (at + part.length > end) return false;
    pos = at + part.length;
  }
  return true;
}

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
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  const re = new RegExp(`^${source}$`, 's');
  return (name) => re.test(name);
}

// File globs of an `rts apply` file, relative to the file's folder: `*`, `?`, `[abc]` and `{a,b}` within a path segment,
// `**` for any number of folders. Node 20 has no fs.glob; this covers what trace lists need, sorted for a stable plan.
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

const MAGIC = /[*?[{]/;

/** Whether a path holds glob syntax (else it names one file). */
export const isGlob = (pattern: string): boolean => MAGIC.test(pattern);

/** The regular expression of one path segment's pattern. */
function segmentRegex(segment: string): RegExp {
  let out = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i];
    if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const end = segment.indexOf(']', i + 1);
      if (end < 0) out += '\\[';
      else {
        const body = segment.slice(i + 1, end).replace(/\\/g, '\\\\');
        out += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`;
        i = end;
      }
    } else if (c === '{') {
      const end = segment.indexOf('}', i + 1);
      if (end < 0) out += '\\{';
      else {
        out += `(?:${segment
          .slice(i + 1, end)
          .split(',')
          .map((alt) => alt.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
          .join('|')})`;
        i = end;
      }
    } else out += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

const listDir = (dir: string): string[] => {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
};
const isDir = (path: string): boolean => statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
const isFile = (path: string): boolean => statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;

/**
 * The files a pattern matches, as absolute paths, sorted (a path without glob syntax: itself, whether it exists or not); `base` is the folder relative paths start from. Hidden
 * entries (a leading dot) match only a segment that starts with a dot; `**` does not descend into them or node_modules.
 */
export function globFiles(pattern: string, base: string): string[] {
  const absolute = resolve(base, pattern);
  const parts = absolute.split(sep);
  const fixed: string[] = [];
  while (parts.length && !isGlob(parts[0])) fixed.push(parts.shift()!);
  const root = fixed.join(sep) || sep;
  if (!parts.length) return [absolute];
  const found = new Set<string>();
  const walk = (dir: string, rest: string[]): void => {
    const [head, ...tail] = rest;
    if (head === '**') {
      walk(dir, tail);
      for (const name of listDir(dir)) {
        if (name.startsWith('.') || name === 'node_modules') continue;
        const path = join(dir, name);
        if (isDir(path)) walk(path, rest);
      }
      return;
    }
    if (head === undefined) {
      if (isFile(dir)) found.add(dir);
      return;
    }
    if (!isGlob(head)) {
      walk(join(dir, head), tail);
      return;
    }
    const re = segmentRegex(head);
    for (const name of listDir(dir)) {
      if (name.startsWith('.') && !head.startsWith('.')) continue;
      if (re.test(name)) walk(join(dir, name), tail);
    }
  };
  walk(root, parts);
  return [...found].sort((a, b) => relative(root, a).localeCompare(relative(root, b)));
}

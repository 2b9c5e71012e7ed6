// Checks the links of the repository's Markdown, and the docs citations of its code comments: every relative link
// names an existing file, every #anchor a heading of its target under GitHub's slug rules. Nothing is fetched.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** GitHub's anchor of a heading: lowercase, punctuation other than `-` and `_` removed, each space a `-`. */
export function slugOf(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link or image: its text
    .replace(/<[^>]+>/g, '') // inline HTML tags
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{N}\p{M} _-]/gu, '').replace(/ /g, '-');
}

/** Text outside fenced code blocks, line by line (fenced lines blanked so line numbers stay right). */
function unfenced(markdown: string): string[] {
  let fence: string | null = null;
  return markdown.split('\n').map((line) => {
    const open = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (open && open[1][0] === fence[0] && open[1].length >= fence.length && line.trim() === open[1]) fence = null;
      return '';
    }
    if (open) {
      fence = open[1];
      return '';
    }
    return line;
  });
}

/** The anchors of a Markdown text's headings, duplicates numbered `-1`, `-2` as GitHub numbers them. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of unfenced(markdown)) {
    const m = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const slug = slugOf(m[1]);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

export interface Link {
  line: number;
  target: string;
}

/** Inline links and images (`[text](target)`, `![alt](target)`) and reference definitions, outside code. */
export function linksOf(markdown: string): Link[] {
  const links: Link[] = [];
  unfenced(markdown).forEach((raw, i) => {
    const line = raw.replace(/(`+)[\s\S]*?\1/g, ''); // inline code spans hold no links
    for (const m of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ line: i + 1, target: m[1] });
    const def = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(line);
    if (def) links.push({ line: i + 1, target: def[1] });
  });
  return links;
}

const anchorCache = new Map<string, Set<string>>();
function anchorsOfFile(file: string): Set<string> {
  let anchors = anchorCache.get(file);
  if (!anchors) {
    anchors = anchorsOf(readFileSync(file, 'utf8'));
    anchorCache.set(file, anchors);
  }
  return anchors;
}

/**
 * What is wrong with one link target seen from `fromFile`: a missing file, or an anchor that no heading of a Markdown
 * target makes. External links (any scheme) are not checked. `null` when it resolves.
 */
export function problemOf(root: string, fromFile: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null;
  const hash = target.indexOf('#');
  const path = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
  const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
  const file = path === '' ? fromFile : path.startsWith('/') ? join(root, path) : resolve(dirname(fromFile), path);
  if (!existsSync(file)) return `${target}: no file ${relative(root, file)}`;
  if (anchor === null || anchor === '') return null;
  if (statSync(file).isDirectory() || !file.endsWith('.md')) return `${target}: an anchor into a file that is not Markdown`;
  if (!anchorsOfFile(file).has(anchor)) return `${target}: no heading of ${relative(root, file)} has the anchor #${anchor}`;
  return null;
}

/** Every broken link of a Markdown file, as `<file>:<line>: <problem>`. */
export function brokenLinks(root: string, file: string): string[] {
  return linksOf(readFileSync(file, 'utf8')).flatMap(({ line, target }) => {
    const problem = problemOf(root, file, target);
    return problem ? [`${relative(root, file)}:${line}: ${problem}`] : [];
  });
}

/** Citations of docs in code: `docs/<file>.md` or `ARCHITECTURE.md`, with an optional `#anchor`, repository-relative. */
export function citationsOf(text: string): Link[] {
  const found: Link[] = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(/(?<![\w/.-])((?:docs\/[\w/-]+|ARCHITECTURE)\.md(?:#[\w-]+)?)/g)) found.push({ line: i + 1, target: m[1] });
  });
  return found;
}

// Text as the run page shows it: hidden Unicode tag characters as visible labels, canaries marked, and in a tool
// result the text a security event quoted as evidence marked, found through the JSON the page prints.
//
// The detectors quote evidence from a result's string leaves (object keys and string values, in order, joined by
// newlines), with tag characters revealed as `[hidden: ...]` and whitespace collapsed (core/replay/detectors/
// evidence.ts). The printer below lists the same leaves while it prints the JSON, so a match in that text maps back
// to characters of the leaves, which are marked where they are printed (JSON punctuation between them is not).
import { h, type Child } from './dom';

/** A run of Unicode tag characters (U+E0000..U+E007F): invisible, yet a model reads them. */
const TAG_RUN = /[\u{E0000}-\u{E007F}]+/gu;
/** The injection canary of a prompt_injection mutation (RTS-CANARY-<16 hex> from rts, looser to be safe). */
const CANARY = /RTS-CANARY-[0-9A-Za-z]+/g;

/** What a tag run stands for: its ASCII mirror, `<U+E00xx>` for the non-printing ones (as evidence.ts writes it). */
export function revealTags(run: string): string {
  const text = [...run]
    .map((ch) => {
      const cp = ch.codePointAt(0) ?? 0xe0000;
      return cp >= 0xe0020 && cp <= 0xe007e ? String.fromCharCode(cp - 0xe0000) : `<U+${cp.toString(16).toUpperCase()}>`;
    })
    .join('');
  return `[hidden: ${text}]`;
}

/** Start and end (UTF-16 offsets) of every match of a global regex in `text`. */
function ranges(re: RegExp, text: string): [number, number][] {
  return [...text.matchAll(re)].map((m) => [m.index ?? 0, (m.index ?? 0) + m[0].length]);
}

const canaryMark = (text: string): HTMLElement => h('mark', { class: 'canary', title: 'injection canary' }, text);

function hiddenLabel(run: string): HTMLElement {
  const revealed = revealTags(run);
  return h(
    'span',
    { class: 'hidden-tags', title: `${[...run].length} invisible Unicode tag characters (U+E0000-U+E007F), decoded` },
    withCanaries(revealed, (s) => s),
  );
}

function withCanaries(text: string, show: (s: string) => string): Child[] {
  const out: Child[] = [];
  let at = 0;
  for (const [a, b] of ranges(CANARY, text)) {
    if (a > at) out.push(show(text.slice(at, a)));
    out.push(canaryMark(show(text.slice(a, b))));
    at = b;
  }
  if (at < text.length) out.push(show(text.slice(at)));
  return out;
}

/** Free text (a message, arguments, an output) with tag runs shown as `[hidden: ...]` labels and canaries marked. */
export function decorate(text: string): Child[] {
  return leafNodes(text, false, []);
}

/** Lines that `text` takes in a box about 110 characters wide (to decide whether it is capped with "Show all"). */
export function lineCount(text: string): number {
  return text.split('\n').reduce((n, line) => n + Math.max(1, Math.ceil(line.length / 110)), 0);
}

/** How a string leaf is printed inside JSON: escaped, without its quotes. */
const escaped = (s: string): string => JSON.stringify(s).slice(1, -1);

/**
 * One string leaf as nodes: tag runs as labels, canaries marked, and the `marked` ranges (of `text`) inside
 * <mark class="inj"> elements, consecutive pieces in one element.
 */
function leafNodes(text: string, json: boolean, marked: readonly [number, number][]): Child[] {
  const show = json ? escaped : (s: string) => s;
  const tags = ranges(TAG_RUN, text);
  const canaries = ranges(CANARY, text);
  const cuts = new Set<number>([0, text.length]);
  for (const [a, b] of [...tags, ...canaries, ...marked]) cuts.add(a).add(b);
  const points = [...cuts].sort((x, y) => x - y);
  const out: Child[] = [];
  let mark: HTMLElement | null = null;
  for (let i = 0; i + 1 < points.length; i++) {
    const [a, b] = [points[i], points[i + 1]];
    const piece = text.slice(a, b);
    let node: Child;
    if (tags.some(([s, e]) => s <= a && b <= e)) node = hiddenLabel(piece);
    else if (canaries.some(([s, e]) => s <= a && b <= e)) node = canaryMark(show(piece));
    else node = show(piece);
    if (marked.some(([s, e]) => s <= a && b <= e)) {
      if (!mark) out.push((mark = h('mark', { class: 'inj' })));
      mark.append(typeof node === 'string' ? node : (node as Node));
    } else {
      mark = null;
      out.push(node);
    }
  }
  return out;
}

/** A value printed as JSON with 2-space indents: literal pieces, and string leaves by their index in `leaves`. */
interface Printed {
  parts: (string | number)[];
  leaves: string[];
}

function print(value: unknown): Printed {
  const parts: (string | number)[] = [];
  const leaves: string[] = [];
  const leaf = (s: string): void => {
    parts.push('"', leaves.push(s) - 1, '"');
  };
  const walk = (v: unknown, pad: string): void => {
    if (typeof v === 'string') leaf(v);
    else if (Array.isArray(v) || (v !== null && typeof v === 'object')) {
      const entries = Array.isArray(v) ? v.map((x) => [null, x] as const) : Object.entries(v as Record<string, unknown>);
      const [open, close] = Array.isArray(v) ? ['[', ']'] : ['{', '}'];
      if (!entries.length) {
        parts.push(open + close);
        return;
      }
      parts.push(`${open}\n`);
      entries.forEach(([key, x], i) => {
        parts.push(`${pad}  `);
        if (key !== null) {
          leaf(key);
          parts.push(': ');
        }
        walk(x, `${pad}  `);
        parts.push(i + 1 < entries.length ? ',\n' : '\n');
      });
      parts.push(pad + close);
    } else parts.push(String(JSON.stringify(v ?? null)));
  };
  if (typeof value === 'string') return { parts: [0], leaves: [value] };
  walk(value, '');
  return { parts, leaves };
}

/** The leaves as the detectors read them, one entry per UTF-16 unit with the leaf range it comes from. */
function readable(leaves: readonly string[]): { text: string; from: ([number, number, number] | null)[] } {
  let text = '';
  const from: ([number, number, number] | null)[] = [];
  const push = (s: string, origin: [number, number, number] | null): void => {
    for (const unit of s) {
      // Whitespace runs collapse into one space, as in the evidence.
      if (/\s/.test(unit) && text.endsWith(' ')) continue;
      const u = /\s/.test(unit) ? ' ' : unit;
      text += u;
      for (let k = 0; k < u.length; k++) from.push(origin);
    }
  };
  leaves.forEach((s, i) => {
    if (i) push('\n', null);
    let at = 0;
    for (const [a, b] of [...ranges(TAG_RUN, s), [s.length, s.length] as [number, number]]) {
      for (const ch of s.slice(at, a)) {
        push(ch, [i, at, at + ch.length]);
        at += ch.length;
      }
      if (b > a) push(revealTags(s.slice(a, b)), [i, a, b]);
      at = b;
    }
  });
  return { text, from };
}

/** Ranges of each leaf that an evidence excerpt covers (widened to whole canaries), or null when it is not found. */
function locate(leaves: readonly string[], evidence: string): Map<number, [number, number][]> | null {
  const needle = evidence
    .replace(/^\u2026|\u2026$/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (!needle) return null;
  const { text, from } = readable(leaves);
  const at = text.indexOf(needle);
  if (at < 0) return null;
  const span = new Map<number, [number, number]>();
  for (const o of from.slice(at, at + needle.length)) {
    if (!o) continue;
    const [leaf, a, b] = o;
    const cur = span.get(leaf);
    span.set(leaf, cur ? [Math.min(cur[0], a), Math.max(cur[1], b)] : [a, b]);
  }
  const out = new Map<number, [number, number][]>();
  for (const [leaf, [a, b]] of span) {
    let [s, e] = [a, b];
    for (const [cs, ce] of ranges(CANARY, leaves[leaf])) if (cs < e && ce > s) [s, e] = [Math.min(s, cs), Math.max(e, ce)];
    out.set(leaf, [[s, e]]);
  }
  return out;
}

/** A tool result printed for the transcript, with the evidence excerpts marked where they are found. */
export interface PrintedResult {
  nodes: Child[];
  /** Every excerpt was found (false when there were none to look for). */
  found: boolean;
  /** The whole appended field is marked (see printResult's `appended`), not only the excerpts. */
  wholeField: boolean;
  /** Lines the printed result takes (see lineCount). */
  lines: number;
}

/**
 * Prints a tool result (a string as it is, anything else as JSON) and marks each evidence excerpt found in it.
 * `appended`: a prompt_injection mutation changed this result, which adds its text as the last field of an object
 * (or the last item of an array); when an excerpt reaches into that last string, all of it is marked instead, since
 * an excerpt is a 200-character window that may start in the fields before or stop short of the end.
 */
export function printResult(value: unknown, evidence: readonly string[], appended = false): PrintedResult {
  const { parts, leaves } = print(value);
  const json = typeof value !== 'string';
  let marks = new Map<number, [number, number][]>();
  let found = evidence.length > 0;
  for (const ev of evidence) {
    const hit = locate(leaves, ev);
    if (!hit) found = false;
    for (const [leaf, rs] of hit ?? []) marks.set(leaf, [...(marks.get(leaf) ?? []), ...rs]);
  }
  const last = leaves.length - 1;
  const wholeField = appended && json && marks.has(last);
  if (wholeField) marks = new Map([[last, [[0, leaves[last].length]]]]);
  const nodes = parts.map((p) => (typeof p === 'string' ? p : leafNodes(leaves[p], json, marks.get(p) ?? [])));
  const plain = parts.map((p) => (typeof p === 'string' ? p : json ? escaped(leaves[p]) : leaves[p])).join('');
  return { nodes, found, wholeField, lines: lineCount(plain) };
}

/** Whether an evidence excerpt is found in a tool result (to tell apart results of the same tool at the same step). */
export function evidenceIn(value: unknown, evidence: string): boolean {
  return locate(print(value).leaves, evidence) !== null;
}

// The traces of an `rts apply` file's eval-sets: files and globs read, each trace given its id. A trace keeps the
// `trace_id` it carries; one without gets an id derived from its content, so re-applying the same file uploads nothing
// new and leaves the eval-set as it is.
import { readFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { canonicalJson, sha256Hex } from '../../core/json';
import { globFiles, isGlob } from './glob';
import type { ConfigProblem, LoadedFile } from './load';
import { ConfigError } from './load';

/** A trace to upload: its id, where it comes from, and the body POST /v1/traces takes. */
export interface TraceToApply {
  trace_id: string;
  name: string;
  /** The file, relative to the working folder, with `[i]` for an item of an array file. */
  source: string;
  body: Record<string, unknown>;
}

/** The traces of every campaign: each eval-set's trace ids, and every distinct trace once. */
export interface ResolvedTraces {
  /** Trace ids of each campaign's eval-set, by the campaign's index in the file; absent without `eval_set`. */
  evalSets: Map<number, string[]>;
  traces: TraceToApply[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** A UUID v4 made of the first 122 bits of a SHA-256 (the version and variant bits set as v4 requires). */
export function contentTraceId(trace: unknown): string {
  const hex = sha256Hex(canonicalJson(trace)).slice(0, 32).split('');
  hex[12] = '4';
  hex[16] = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** Reads every eval-set's traces; throws ConfigError naming the file's line for a pattern or trace that cannot be used. */
export function resolveTraces(loaded: LoadedFile, cwd = process.cwd()): ResolvedTraces {
  const base = dirname(loaded.file);
  const problems: ConfigProblem[] = [];
  const byId = new Map<string, TraceToApply & { canonical: string }>();
  const evalSets = new Map<number, string[]>();
  const fileCache = new Map<string, TraceToApply[] | string>();
  for (const c of loaded.campaigns) {
    if (!c.evalSet) continue;
    const ids: string[] = [];
    c.evalSet.traces.forEach((pattern, j) => {
      const where = ['campaigns', c.index, 'eval_set', 'traces', j];
      const files = globFiles(pattern, base);
      if (!files.length) problems.push(loaded.problemAt(where, `no file matches '${pattern}'`));
      for (const path of files) {
        const shown = relative(cwd, path) || path;
        if (!fileCache.has(path)) fileCache.set(path, readTraces(path, shown));
        const read = fileCache.get(path)!;
        if (typeof read === 'string') {
          problems.push(loaded.problemAt(where, isGlob(pattern) ? `${shown}: ${read}` : read));
          continue;
        }
        for (const t of read) {
          const canonical = canonicalJson(t.body);
          const known = byId.get(t.trace_id);
          if (known && known.canonical !== canonical) {
            problems.push(loaded.problemAt(where, `${t.source} and ${known.source} hold different traces under the same trace_id ${t.trace_id}`));
            continue;
          }
          if (!known) byId.set(t.trace_id, { ...t, canonical });
          if (!ids.includes(t.trace_id)) ids.push(t.trace_id);
        }
      }
    });
    evalSets.set(c.index, ids);
  }
  if (problems.length) throw new ConfigError(problems);
  return { evalSets, traces: [...byId.values()].map(({ canonical: _c, ...t }) => t) };
}

/** The traces of one file, or what is wrong with it. */
function readTraces(path: string, shown: string): TraceToApply[] | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    return `cannot read ${shown}: ${(err as Error).message}`;
  }
  const items = Array.isArray(parsed) ? parsed : [parsed];
  const out: TraceToApply[] = [];
  for (const [i, item] of items.entries()) {
    const source = Array.isArray(parsed) ? `${shown}[${i}]` : shown;
    if (!item || typeof item !== 'object' || Array.isArray(item)) return `${source} is not a trace (a JSON object)`;
    const trace = item as Record<string, unknown>;
    if ('resourceSpans' in trace) return `${source} is an OTLP export: upload it with 'rts traces upload' and list native traces here`;
    if (trace.trace_id !== undefined && (typeof trace.trace_id !== 'string' || !UUID.test(trace.trace_id))) {
      return `${source}: trace_id must be a UUID v4`;
    }
    const trace_id = typeof trace.trace_id === 'string' ? trace.trace_id.toLowerCase() : contentTraceId(trace);
    out.push({ trace_id, name: typeof trace.name === 'string' ? trace.name : '', source, body: { ...trace, trace_id } });
  }
  return out;
}

// Stack traces of the deployed functions name the TypeScript sources, as Node's --enable-source-maps would print
// them, without its cost at every cold start. With that flag Node reads and parses the bundle's source map (up to
// ~640 KB of JSON) and measures every line of the bundle when the bundle loads, 7-11 ms of CPU in each container's init
// (docs/benchmarks.md#lambda-bundles), though a trace is formatted only when something fails. Each bundle's generated entry (lib/constructs/esbuild-run.js) calls
// mapStackTraces with the bundle's file before anything else runs. It installs V8's `Error.prepareStackTrace` hook,
// which reads the map beside the bundle the first time a trace is formatted and maps the bundle's frames the way
// Node 22 does: the position, then the original name from the enclosing function's entry or else the caller's. The
// sources, local mode and tests never load it: tsx maps their traces.
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

type CallSite = NodeJS.CallSite & { getEnclosingLineNumber?: () => number | null; getEnclosingColumnNumber?: () => number | null };

interface Entry {
  originalSource?: string;
  originalLine?: number;
  originalColumn?: number;
  name?: string;
}

/** The map of `bundle`, read on first use: null when it is missing or unreadable (frames then stay as they are). */
function lazyMap(bundle: string): () => SourceMap | null {
  let map: SourceMap | null | undefined;
  return () => {
    if (map !== undefined) return map;
    try {
      const file = `${bundle}.map`;
      const payload = JSON.parse(readFileSync(file, 'utf8')) as { sources: string[] };
      // As Node does: sources relative to the map's own location, as absolute URLs.
      const base = pathToFileURL(file);
      payload.sources = payload.sources.map((s) => new URL(s, base).href);
      map = new SourceMap(payload as ConstructorParameters<typeof SourceMap>[0]);
    } catch {
      map = null;
    }
    return map;
  };
}

/** `0`-based `line`/`column` looked up; the empty object when the map has no entry there. */
const entryAt = (map: SourceMap, line: number | null | undefined, column: number | null | undefined): Entry =>
  typeof line === 'number' && typeof column === 'number' ? (map.findEntry(line - 1, column - 1) as Entry) : {};

/** The original name of the frame's function: its enclosing function's, else the caller's entry in the same file. */
function originalName(map: SourceMap, site: CallSite, caller: CallSite | undefined): string | undefined {
  const enclosing = entryAt(map, site.getEnclosingLineNumber?.(), site.getEnclosingColumnNumber?.());
  if (enclosing.name) return enclosing.name;
  if (caller && caller.getFileName() === site.getFileName()) return entryAt(map, caller.getLineNumber(), caller.getColumnNumber()).name;
  return undefined;
}

/** One frame of the bundle in the original source's terms; null when the map does not cover it. */
function mappedFrame(map: SourceMap, site: CallSite, caller: CallSite | undefined): string | null {
  const at = entryAt(map, site.getLineNumber(), site.getColumnNumber());
  if (at.originalSource === undefined || at.originalLine === undefined || at.originalColumn === undefined) return null;
  const source = at.originalSource.startsWith('file://') ? fileURLToPath(at.originalSource) : at.originalSource;
  const prefix = site.isAsync() ? 'async ' : site.isConstructor() ? 'new ' : '';
  const typeName = site.getTypeName();
  const owner = typeName !== null && typeName !== 'global' ? `${typeName}.` : '';
  const name = originalName(map, site, caller) || site.getFunctionName() || site.getMethodName() || '<anonymous>';
  return `${prefix}${owner}${name} (${source}:${at.originalLine + 1}:${at.originalColumn + 1})`;
}

function errorHeader(error: unknown): string {
  try {
    return Error.prototype.toString.call(error);
  } catch {
    try {
      return `<error: ${String(error)}>`;
    } catch {
      return '<error>';
    }
  }
}

/**
 * Formats every stack trace formatted from now on: frames of `bundle` mapped through `bundle`.map (read the first time
 * one is), the others as V8 prints them.
 */
export function mapStackTraces(bundle: string): void {
  const map = lazyMap(bundle);
  Error.prepareStackTrace = (error: unknown, sites: NodeJS.CallSite[]): string => {
    const frames = (sites as CallSite[]).map((site, i) => {
      try {
        const mapped = site.getFileName() === bundle ? map() : null;
        const frame = mapped ? mappedFrame(mapped, site, (sites as CallSite[])[i + 1]) : null;
        return `\n    at ${frame ?? String(site)}`;
      } catch {
        return `\n    at ${String(site)}`;
      }
    });
    return `${errorHeader(error)}${frames.join('')}`;
  };
}

// Bundle benchmark: every Lambda bundled exactly as ServiceFunction bundles it, its size, and its module cold-init time next to a minimal SDK bundle.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BuildOptions } from 'esbuild';
import { KNOWN_ENTRIES, REPO_ROOT, buildBundles, entryFile, esbuildOptions, runEsbuild } from '../../lib/constructs/bundling';
import { LAMBDA_NODE_MAJOR, nodeBinary } from '../helpers/node-binary';
import { formatProfile, profileInit } from './init-profile';
import { median } from './median';
import { BASELINE_SOURCE, STACK_PARTS } from './stack-floors';

/**
 * The Node every cold init is measured on: Lambda's major from the npm registry (cached, as the peer bench and the
 * bundles' end-to-end test get it), or the bench's own with BUNDLES_NODE=current, or when the registry has none.
 */
export function initNode(): { path: string; version: string } {
  if (process.env.BUNDLES_NODE === 'current') return { path: process.execPath, version: process.version };
  const found = nodeBinary(LAMBDA_NODE_MAJOR);
  return 'skip' in found ? { path: process.execPath, version: process.version } : { path: found.path, version: `v${found.version}` };
}
let node: { path: string; version: string } | undefined;
/** The Node the cold inits run on (initNode, chosen once). */
export const probeNode = (): { path: string; version: string } => (node ??= initNode());
/** The version of the Node the cold inits were (or will be) measured on. */
export const initNodeVersion = (): string => probeNode().version;

export interface BundleResult {
  /** Handler module, e.g. `functions/http/get-health`, or `(baseline)`. */
  name: string;
  /** Minified index.js in bytes; null when the entry does not exist or failed to bundle. */
  bytes: number | null;
  gzipBytes: number | null;
  mapBytes: number | null;
  /** Code beside index.js that it requires on first use (re2js.js in the functions that compile patterns), in bytes. */
  besideBytes: number | null;
  /**
   * Median wall time of `require()` in a fresh node process, as deployed (no flag: the bundle maps its stack traces on
   * demand, functions/adapters/lambda-stack-traces.ts) and with --enable-source-maps (which parses the map at load).
   */
  initMs: number | null;
  initWithSourceMapsMs: number | null;
  /** Median of (this init / baseline init) over runs measured back to back, steadier than ms on a loaded machine. */
  initVsBaseline: number | null;
  /**
   * The same ratio of CPU time (user + system, all threads) during require(): what the init costs, not what the machine
   * let it have; the steadier figure when other work shares the cores.
   */
  initCpuVsBaseline: number | null;
  note?: string;
}

export interface BenchOptions {
  /**
   * Fresh processes per measurement (median reported). @default BUNDLES_RUNS, else 9: with 5, a function's ratio moved by
   * up to ~0.3 between two runs of the bench.
   */
  runs?: number;
  /** Handler modules to bundle. @default KNOWN_ENTRIES: every route handler and worker handler */
  entries?: string[];
  /** Measure the stack's parts alone (STACK_PARTS) after the baseline. @default true */
  stackParts?: boolean;
  /** Print the table to stdout. @default true */
  print?: boolean;
  /**
   * Entries whose cold init is profiled (`--cpu-prof`, whitespace kept) and summarised after the table, with the
   * baseline's; none when empty. @default the largest bundle
   */
  profile?: string[];
}

/** What every measured process gets: module-scope configuration must not throw; nothing is invoked. */
export const PROBE_ENV = {
  PATH: process.env.PATH,
  AWS_REGION: 'us-east-1',
  TABLE_NAME: 'bench',
  EVENT_BUS_NAME: 'bench',
  REPLAY_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/bench',
  POWERTOOLS_LOG_LEVEL: 'SILENT',
};

// Module init only: the time require() takes in a process that has loaded nothing else, wall and CPU.
const INIT_PROBE = `
const c0 = process.cpuUsage();
const t0 = process.hrtime.bigint();
require(process.argv[1]);
const t1 = process.hrtime.bigint();
const c1 = process.cpuUsage(c0);
process.stdout.write(JSON.stringify({ wall: Number(t1 - t0) / 1e6, cpu: (c1.user + c1.system) / 1e3 }));
`;

function initOnce(file: string, sourceMaps: boolean): { wall: number; cpu: number } {
  const out = execFileSync(probeNode().path, [...(sourceMaps ? ['--enable-source-maps'] : []), '-e', INIT_PROBE, file], {
    env: PROBE_ENV,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return JSON.parse(out) as { wall: number; cpu: number };
}

/** Baseline, plain and source-mapped runs alternate, so all three see the same machine load. */
function measureInit(file: string, baselineFile: string, runs: number): { plain: number; maps: number; ratio: number; cpuRatio: number } {
  const plain: number[] = [];
  const maps: number[] = [];
  const ratios: number[] = [];
  const cpuRatios: number[] = [];
  for (let i = 0; i < runs; i++) {
    const base = initOnce(baselineFile, false);
    const p = initOnce(file, false);
    plain.push(p.wall);
    ratios.push(p.wall / base.wall);
    cpuRatios.push(p.cpu / base.cpu);
    maps.push(initOnce(file, true).wall);
  }
  const round = (n: number) => Math.round(n * 10) / 10;
  const ratio = (values: number[]) => Math.round(median(values) * 100) / 100;
  return { plain: round(median(plain)), maps: round(median(maps)), ratio: ratio(ratios), cpuRatio: ratio(cpuRatios) };
}

function measure(name: string, outfile: string, baselineFile: string, runs: number): BundleResult {
  const code = readFileSync(outfile);
  const result: BundleResult = {
    name,
    bytes: code.length,
    gzipBytes: gzipSync(code).length,
    mapBytes: existsSync(`${outfile}.map`) ? statSync(`${outfile}.map`).size : 0,
    besideBytes: readdirSync(path.dirname(outfile))
      .filter((f) => f.endsWith('.js') && f !== path.basename(outfile))
      .reduce((sum, f) => sum + statSync(path.join(path.dirname(outfile), f)).size, 0),
    initMs: null,
    initWithSourceMapsMs: null,
    initVsBaseline: null,
    initCpuVsBaseline: null,
  };
  try {
    const init = measureInit(outfile, baselineFile, runs);
    result.initMs = init.plain;
    result.initWithSourceMapsMs = init.maps;
    result.initVsBaseline = init.ratio;
    result.initCpuVsBaseline = init.cpuRatio;
  } catch {
    result.note = 'require() threw at module init';
  }
  return result;
}

const failed = (name: string, note: string): BundleResult => ({
  name,
  bytes: null,
  gzipBytes: null,
  mapBytes: null,
  besideBytes: null,
  initMs: null,
  initWithSourceMapsMs: null,
  initVsBaseline: null,
  initCpuVsBaseline: null,
  note,
});

/** Bundles like ServiceFunction does (one run for all); if that run fails, entry by entry to name the culprits. */
function bundleAll(entries: string[], dir: string): Map<string, string | { error: string }> {
  try {
    return buildBundles(entries, path.join(dir, 'all'));
  } catch {
    const out = new Map<string, string | { error: string }>();
    for (const e of entries) {
      try {
        out.set(e, buildBundles([e], path.join(dir, 'one')).get(e)!);
      } catch (err) {
        out.set(e, { error: firstError(err) });
      }
    }
    return out;
  }
}

function firstError(err: unknown): string {
  const first = (err as { errors?: { text: string; location?: { file: string; line: number } | null }[] }).errors?.[0];
  if (!first) return (err as Error).message.split('\n')[0];
  return first.location ? `${first.location.file}:${first.location.line} ${first.text}` : first.text;
}

const kb = (n: number | null) => (n === null ? '-' : (n / 1024).toFixed(0));
const ms = (n: number | null) => (n === null ? '-' : n.toFixed(1));

export function formatTable(results: BundleResult[]): string {
  const rows = [
    ['function', 'KB', 'gzip KB', 'map KB', 'beside KB', 'init ms', 'init ms (--enable-source-maps)', 'x baseline', 'cpu x baseline', 'note'],
  ];
  for (const r of results) {
    rows.push([
      r.name,
      kb(r.bytes),
      kb(r.gzipBytes),
      kb(r.mapBytes),
      r.besideBytes ? kb(r.besideBytes) : '',
      ms(r.initMs),
      ms(r.initWithSourceMapsMs),
      r.initVsBaseline === null ? '-' : r.initVsBaseline.toFixed(2),
      r.initCpuVsBaseline === null ? '-' : r.initCpuVsBaseline.toFixed(2),
      r.note ?? '',
    ]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  const last = rows[0].length - 1;
  return rows
    .map((row) =>
      row
        .map((c, i) => (i === 0 || i === last ? c.padEnd(widths[i]) : c.padStart(widths[i])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** The baseline, bundled as the functions are (their plugins too: what they leave out of the SDK, it leaves out). */
export function buildBaseline(outdir: string, overrides: BuildOptions = {}): string {
  return buildReference(BASELINE_SOURCE, 'baseline.ts', outdir, overrides);
}

/** A bundle of `source` (a module at the repository's root), built as the functions are. */
export function buildReference(source: string, sourcefile: string, outdir: string, overrides: BuildOptions = {}): string {
  const outfile = path.join(outdir, 'index.js');
  runEsbuild({
    ...esbuildOptions(),
    ...overrides,
    logLevel: 'silent',
    stdin: { contents: source, resolveDir: REPO_ROOT, loader: 'ts', sourcefile },
    outfile,
  });
  return outfile;
}

/**
 * Cold-init profiles of `entries` and of the baseline, on builds minified but for whitespace: the same code, whose
 * module comments locate it (the script compiles a little slower than the deployed one).
 */
function profileSummaries(entries: string[], dir: string, runs: number): string {
  const readable: BuildOptions = { minify: false, minifyIdentifiers: true, minifySyntax: true, sourcemap: false };
  const dirs = buildBundles(entries, dir, readable);
  const files: [string, string][] = [
    ['(baseline: DynamoDB document client)', buildBaseline(path.join(dir, 'baseline'), readable)],
    ...entries.map((e): [string, string] => [e, path.join(dirs.get(e)!, 'index.js')]),
  ];
  return files.map(([name, file]) => formatProfile(name, profileInit(file, PROBE_ENV, runs, probeNode().path))).join('\n\n');
}

/**
 * Bundles each function with ServiceFunction's esbuild options, measures size and module cold-init
 * (median over fresh `node` processes of Lambda's Node major, see initNode), and prints a table with
 * the minimal DynamoDB-document-client bundle first for comparison. Missing entries are listed, not fatal. Then where
 * the cold init of the largest bundle (or `profile`) and of the baseline goes.
 */
export async function benchBundles(options: BenchOptions = {}): Promise<BundleResult[]> {
  const runs = options.runs ?? (Number(process.env.BUNDLES_RUNS) || 9);
  const dir = mkdtempSync(path.join(tmpdir(), 'rts-bench-'));
  try {
    const baselineFile = buildBaseline(path.join(dir, 'baseline'));
    const results: BundleResult[] = [measure('(baseline: DynamoDB document client)', baselineFile, baselineFile, runs)];
    if (options.stackParts ?? true) {
      STACK_PARTS.forEach((part, i) => {
        const file = buildReference(part.source, `stack-part-${i}.ts`, path.join(dir, `stack-part-${i}`));
        results.push(measure(part.name, file, baselineFile, runs));
      });
    }

    const entries = options.entries ?? [...KNOWN_ENTRIES];
    const present = entries.filter((e) => existsSync(entryFile(e)));
    const bundles = bundleAll(present, dir);
    for (const name of entries) {
      const bundle = bundles.get(name);
      if (bundle === undefined) results.push(failed(name, 'entry missing'));
      else if (typeof bundle !== 'string') results.push(failed(name, `bundle failed: ${bundle.error}`));
      else results.push(measure(name, path.join(bundle, 'index.js'), baselineFile, runs));
    }
    if (options.print ?? true) console.log(`cold init on Node ${probeNode().version}\n${formatTable(results)}`);
    const largest = results
      .slice(1)
      .filter((r) => !r.name.startsWith('('))
      .reduce((a, b) => ((b.bytes ?? 0) > (a.bytes ?? 0) ? b : a), results[0]);
    const profiled = (options.profile ?? [largest.name]).filter((e) => bundles.has(e) && typeof bundles.get(e) === 'string');
    if (profiled.length && (options.print ?? true)) console.log(`\n${profileSummaries(profiled, path.join(dir, 'profile'), runs)}`);
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  benchBundles().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}

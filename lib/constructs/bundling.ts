// esbuild bundling for every Lambda: one esbuild run for all known handlers (shared modules parsed once), one bundle per handler.
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { buildSync, type BuildOptions } from 'esbuild';
import { buildDashboardScript } from '../../functions/dashboard/build-script';
import { DASHBOARD_SCRIPT_GLOBAL } from '../../functions/dashboard/script';
import { openApiDocument } from '../../functions/core/openapi/document';
import { REPO_NAMES } from '../../functions/wiring/deps';
import { OPENAPI_DOCUMENT_GLOBAL, encodeOpenApiDocument } from '../../functions/http-chain/openapi-document';
import { routes, workerHandlers, type Wiring } from '../routes';

/** Repository root: entries and tsconfig.json are resolved from here. */
export const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** Absolute path of a handler module given as `functions/...` without extension. */
export function entryFile(modulePath: string): string {
  return path.join(REPO_ROOT, `${modulePath}.ts`);
}

/** Every handler the stack deploys: the route table's rows and the non-HTTP functions. */
export const KNOWN_ENTRIES: readonly string[] = [...routes.map((r) => `functions/http/${r.handler}`), ...Object.values(workerHandlers)];

/** The adapters wired into an entry's bundle: a route's from its row; none for the other functions (a worker imports its own). */
export function wiringOf(entry: string): (keyof Wiring)[] {
  const row = routes.find((r) => `functions/http/${r.handler}` === entry);
  return row ? (['queue', 'bus', 'http'] as const).filter((kind) => row[kind]) : [];
}

/**
 * esbuild's entry points for `entries`: each the generated module `rts-entry:<handler file>#<repositories>#<adapters>`
 * (esbuild-run.js), which registers the repositories the function reads (`repos`, from reposRead) and imports the
 * with-queue / with-bus / with-http modules its row names, then re-exports the handler module.
 */
export function entryPoints(entries: readonly string[], repos: Map<string, string[]>): Record<string, string> {
  return Object.fromEntries(entries.map((e) => [`${e}/index`, `rts-entry:${entryFile(e)}#${repos.get(e)!.join(',')}#${wiringOf(e).join(',')}`]));
}

/**
 * One set of bundling choices for every function:
 * - the AWS SDK is bundled (nothing external), so the tested SDK version is the deployed one and
 *   tree-shaking drops what a handler does not use;
 * - `module` before `main` lets esbuild pick the ESM builds (middy is ESM-only, the SDK ships both),
 *   which shake better, then emit CommonJS for the Lambda runtime;
 * - source maps without embedded sources keep the map small while stack traces still name TS lines;
 * - the SDK's default credential chain is replaced by the environment provider (functions/adapters/lambda-credentials.ts):
 *   a Lambda's role credentials are always in its environment;
 * - SDK modules and re2js classes no function runs are replaced by stubs that throw if reached (LEFT_OUT and
 *   RE2JS_LEFT_OUT in esbuild-run.js, the stubs in functions/adapters/lambda-stubs.ts);
 * - re2js, required on the first pattern compiled, is bundled into re2js.js beside the index.js of the functions that
 *   require it (re2jsBeside in esbuild-run.js), so their cold starts do not load it;
 * - a dynamic `import()` becomes a `require()` (`dynamicImport: false`). The SDK's HTTP handler loads `node:http` with
 *   `import()` on its first request, and on Node 22 importing `node:http` as ESM builds a facade that reads every export,
 *   `WebSocket` among them, which loads undici: ~20 ms of CPU in each container's first AWS call, for a client that
 *   never touches fetch. A `require()` of a built-in reads nothing it is not asked for;
 * - the built-ins of LAZY_BUILTINS (esbuild-run.js) are required at the first read of one of their exports, not at init:
 *   middy's core imports `node:stream/web` for streamed responses, which no function uses; the stack-trace mapping
 *   imports `node:module` for a trace formatted after a failure; the X-Ray subsegments `node:dgram` for a sampled call.
 */
export const BUNDLE = {
  target: 'node22',
  format: 'cjs',
  platform: 'node',
  minify: true,
  sourceMap: true,
  sourcesContent: false,
  mainFields: ['module', 'main'],
  externalModules: [] as string[],
  dynamicImport: false,
} as const;

let dashboardScript: string | undefined;
let openApi: string | undefined;

/**
 * BUNDLE in esbuild's API form, plus two constants built once and inlined where used: the dashboard's browser script
 * (see functions/dashboard/script.ts) and the OpenAPI document (see functions/http-chain/openapi-document.ts); and the flag
 * that makes functions/wiring/deps.ts wire only the repositories registered by the entry (see buildBundles).
 */
export function esbuildOptions(): BuildOptions {
  dashboardScript ??= buildDashboardScript();
  openApi ??= encodeOpenApiDocument(openApiDocument(routes));
  return {
    bundle: true,
    platform: BUNDLE.platform,
    target: BUNDLE.target,
    format: BUNDLE.format,
    minify: BUNDLE.minify,
    sourcemap: BUNDLE.sourceMap,
    sourcesContent: BUNDLE.sourcesContent,
    mainFields: [...BUNDLE.mainFields],
    external: [...BUNDLE.externalModules],
    supported: { 'dynamic-import': BUNDLE.dynamicImport },
    // In Lambda the credentials are always in the environment: the SDK's default chain is not bundled.
    alias: { '@aws-sdk/credential-provider-node': path.join(REPO_ROOT, 'functions/adapters/lambda-credentials.ts') },
    absWorkingDir: REPO_ROOT,
    logLevel: 'warning',
    define: {
      [DASHBOARD_SCRIPT_GLOBAL]: JSON.stringify(dashboardScript),
      [OPENAPI_DOCUMENT_GLOBAL]: JSON.stringify(openApi),
      RTS_BUNDLED_REPOS: 'true',
    },
  };
}

/**
 * Bundles `entries` in a single esbuild run into `<outdir>/<entry>/index.js` (+ `.map`). Without code
 * splitting each output is exactly what a build of that entry alone produces; the run just parses and
 * resolves the modules handlers share (SDK, zod, core) once instead of once per function. Each entry is a generated
 * module that wires the repositories the function reads (reposRead) and the adapters its row names (entryPoints), then
 * re-exports the handler module (esbuild-run.js), so a function carries only its own repositories and clients.
 * `overrides` change esbuild options (the bundle bench profiles builds that keep whitespace).
 */
export function buildBundles(entries: readonly string[], outdir: string, overrides: BuildOptions = {}): Map<string, string> {
  const repos = reposRead(entries);
  runEsbuild({
    ...esbuildOptions(),
    ...overrides,
    entryPoints: entryPoints(entries, repos),
    outdir,
  });
  return new Map(entries.map((e) => [e, path.join(outdir, e)]));
}

/** The module that registers an adapter (`with-queue`...), as an entry is named: `functions/wiring/with-queue`. */
const adapterModule = (kind: keyof Wiring): string => `functions/wiring/with-${kind}`;

/**
 * The repositories each entry's code reads: found in what esbuild keeps of the entry's own modules and of the adapter
 * modules its row wires (a quick build with packages left out and no repository wired), so a module imported for one
 * function does not count for its others. None for an entry that does not reach functions/wiring/deps.ts.
 */
export function reposRead(entries: readonly string[]): Map<string, string[]> {
  const outdir = path.join(REPO_ROOT, 'node_modules', '.cache', 'rts-repos-read');
  const adapters = [...new Set(entries.flatMap((e) => wiringOf(e).map((kind) => adapterModule(kind))))];
  const { outputFiles, metafile } = buildSync({
    ...esbuildOptions(),
    packages: 'external',
    sourcemap: false,
    write: false,
    metafile: true,
    logLevel: 'silent',
    entryPoints: Object.fromEntries([...entries, ...adapters].map((e) => [`${e}/index`, entryFile(e)])),
    outdir,
  });
  const wiresDeps = new Set(
    Object.entries(metafile.outputs)
      .filter(([, o]) => o.entryPoint && 'functions/wiring/deps.ts' in o.inputs)
      .map(([file]) => path.join(REPO_ROOT, file)),
  );
  const codeOf = (module: string) => outputFiles.find((o) => o.path === path.join(outdir, module, 'index.js'))?.text ?? '';
  return new Map(
    entries.map((e) => {
      if (!wiresDeps.has(path.join(outdir, e, 'index.js'))) return [e, []];
      const read = new Set([e, ...wiringOf(e).map((kind) => adapterModule(kind))].flatMap((module) => reposReadBy(codeOf(module))));
      return [e, REPO_NAMES.filter((name) => read.has(name))];
    }),
  );
}

/** The repositories a piece of bundled code reads from the deps object: `x.runs`, `x?.runs`, `{runs: y} = x`, `x["runs"]`. */
export function reposReadBy(code: string): string[] {
  return REPO_NAMES.filter((name) => new RegExp(String.raw`\.${name}\b|[{,]\s*${name}\s*[:,}=]|\[\s*["'\`]${name}["'\`]\s*\]`).test(code));
}

/** One esbuild build with the project's plugins (see esbuild-run.js), synchronously; throws when it fails. */
export function runEsbuild(options: BuildOptions): void {
  execFileSync(process.execPath, [path.join(__dirname, 'esbuild-run.js'), JSON.stringify(options)], { stdio: ['ignore', 'inherit', 'inherit'] });
}

let shared: { dirs: Map<string, string>; root: string } | undefined;

/**
 * Where bundles are built: inside the repository, so the source paths in the maps (relative to the
 * output) are the same on every machine and the asset hashes (the output's content) are too.
 */
function bundleRoot(): string {
  const cache = path.join(REPO_ROOT, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const root = mkdtempSync(path.join(cache, 'rts-bundles-'));
  process.once('exit', () => rmSync(root, { recursive: true, force: true }));
  return root;
}

/**
 * Copies the bundle of `entry` into `outputDir`. The first call bundles every known handler that exists
 * in one run and keeps the result for the rest of the process (one `cdk synth`); an entry outside
 * KNOWN_ENTRIES is bundled on its own.
 */
export function copyBundle(entry: string, outputDir: string): void {
  if (!shared || !existsSync(shared.root)) {
    const root = bundleRoot();
    const wanted = KNOWN_ENTRIES.includes(entry) ? KNOWN_ENTRIES.filter((e) => existsSync(entryFile(e))) : [];
    shared = { root, dirs: wanted.length ? buildBundles(wanted, path.join(root, 'shared')) : new Map() };
  }
  let dir = shared.dirs.get(entry);
  if (!dir) {
    dir = buildBundles([entry], mkdtempSync(path.join(shared.root, 'single-'))).get(entry)!;
    shared.dirs.set(entry, dir);
  }
  cpSync(dir, outputDir, { recursive: true });
}

// Runs one esbuild build in a child process, because only the async API takes plugins and CDK bundling is synchronous.
// The plugins: the entries bundling.ts generates, which wire the repositories a function reads and the adapters its route
// row names before its handler module loads; the SDK modules no function runs, left out (LEFT_OUT), with the parts of
// re2js it never reaches (trim-re2js.js), which goes into a file of its own beside the bundles that require it; the
// built-ins required on first use (LAZY_BUILTINS); and the packages required on first use as their ES modules
// (REQUIRED_AS_ESM).
const { readFileSync } = require('node:fs');
const { readFile, writeFile } = require('node:fs/promises');
const path = require('node:path');
const { withoutUnusedRe2js } = require('./trim-re2js');
const esbuild = require('esbuild');

// `rts-entry:<handler file>#<repositories>#<adapters>`: imports `rts-stack-traces:install` (the bundle's stack traces
// mapped to the sources), `rts-wiring:<repositories>` (a module that registers those repositories with wiring/deps.ts)
// and wiring/with-<adapter> for each adapter (queue, bus, http), then re-exports the handler module. ES modules run in
// import order, so all of it is in place before the handler module runs.
const wiredEntries = {
  name: 'rts-wired-entries',
  setup(build) {
    const wiring = path.join(build.initialOptions.absWorkingDir, 'functions', 'wiring');
    build.onResolve({ filter: /^rts-(entry|wiring|stack-traces):/ }, (args) => {
      const [, namespace, rest] = /^rts-(entry|wiring|stack-traces):(.*)$/.exec(args.path);
      return { path: rest, namespace: `rts-${namespace}` };
    });
    build.onLoad({ filter: /.*/, namespace: 'rts-entry' }, (args) => {
      const [file, repos, adapters = ''] = args.path.split('#');
      const lines = ['import "rts-stack-traces:install";'];
      if (repos) lines.push(`import ${JSON.stringify(`rts-wiring:${repos}`)};`);
      for (const kind of adapters ? adapters.split(',') : []) lines.push(`import ${JSON.stringify(path.join(wiring, `with-${kind}`))};`);
      return { contents: [...lines, `export * from ${JSON.stringify(file)};`].join('\n'), loader: 'js', resolveDir: path.dirname(file) };
    });
    // First of all: the bundle's stack traces mapped to the sources, the map read when one is formatted
    // (functions/adapters/lambda-stack-traces.ts). `__filename` is the bundle's own file.
    build.onLoad({ filter: /.*/, namespace: 'rts-stack-traces' }, () => {
      const traces = path.join(build.initialOptions.absWorkingDir, 'functions', 'adapters', 'lambda-stack-traces');
      return { contents: `import { mapStackTraces } from ${JSON.stringify(traces)};\nmapStackTraces(__filename);`, loader: 'js', resolveDir: wiring };
    });
    build.onLoad({ filter: /.*/, namespace: 'rts-wiring' }, (args) => {
      const names = args.path.split(',').join(', ');
      const contents = [
        `import { wireRepos } from ${JSON.stringify(path.join(wiring, 'deps'))};`,
        `import { ${names} } from ${JSON.stringify(path.join(wiring, 'repos'))};`,
        `wireRepos({ ${names} });`,
      ].join('\n');
      return { contents, loader: 'js', resolveDir: wiring };
    });
  },
};

/** The stubs of the modules left out (see LEFT_OUT). */
const STUBS = path.join(__dirname, '..', '..', 'functions', 'adapters', 'lambda-stubs.ts');

/**
 * SDK modules no Lambda of this service runs, each replaced by stubs of functions/adapters/lambda-stubs.ts (which says
 * why each is unreachable). `specifier`: the import as the SDK writes it; `file`: where it must resolve, so that only
 * this module is replaced; `stubs`: the names its importers use, each the stub of the same name, or `contents`: the
 * module in place of it, given the stubs' path (for a stub built on a module beside the one it replaces).
 */
const LEFT_OUT = [
  {
    name: 'event-streams',
    specifier: /^@smithy\/core\/event-streams$/,
    file: /@smithy\/core\/dist-es\/submodules\/event-streams\/index\.js$/,
    stubs: ['EventStreamSerde', 'eventStreamSerdeProvider'],
  },
  {
    name: 'sha256-js',
    specifier: /\/Sha256Js$/,
    file: /@smithy\/core\/dist-es\/submodules\/checksum\/sha256\/Sha256Js\.js$/,
    stubs: ['Sha256Js'],
  },
  {
    name: 'imds-region',
    specifier: /\/getInstanceMetadataRegion$/,
    file: /@smithy\/core\/dist-es\/submodules\/config\/config-resolver\/regionConfig\/getInstanceMetadataRegion\.js$/,
    stubs: ['getInstanceMetadataRegion'],
  },
  {
    name: 'endpoint-cache',
    specifier: /^@aws-sdk\/endpoint-cache$/,
    file: /@aws-sdk\/endpoint-cache\/dist-es\/index\.js$/,
    stubs: ['EndpointCache'],
  },
  {
    name: 's3-endpoint-params',
    specifier: /\/service-customizations$/,
    file: /@smithy\/core\/dist-es\/submodules\/endpoints\/middleware-endpoint\/service-customizations\/index\.js$/,
    stubs: ['resolveParamsForS3'],
  },
  {
    name: 'sigv4a',
    specifier: /\/SignatureV4MultiRegion$/,
    file: /@aws-sdk\/signature-v4-multi-region\/dist-es\/SignatureV4MultiRegion\.js$/,
    contents: (stubs) =>
      [
        `import { SignatureV4SignWithCredentials } from './SignatureV4SignWithCredentials';`,
        `import { regionalSigner } from ${JSON.stringify(stubs)};`,
        'export const SignatureV4MultiRegion = /* @__PURE__ */ regionalSigner(SignatureV4SignWithCredentials);',
      ].join('\n'),
  },
];

/** A path with forward slashes, as LEFT_OUT's patterns are written. */
const slashed = (file) => file.split(path.sep).join('/');

// Each LEFT_OUT import resolves to `rts-left-out:<name>`, a module of its stubs (so a metafile names it as such), once
// esbuild's own resolution confirms it is that module. re2js loads without what trim-re2js.js removes. The SDK clients
// read one field of their package.json, `version` (the User-Agent's): the bundles keep only that field of it.
const leftOut = {
  name: 'rts-left-out',
  setup(build) {
    const specifiers = new RegExp(LEFT_OUT.map((m) => m.specifier.source).join('|'));
    build.onResolve({ filter: specifiers }, async (args) => {
      if (args.pluginData?.leftOut) return undefined;
      const { importer, resolveDir, kind } = args;
      const resolved = await build.resolve(args.path, { importer, resolveDir, kind, pluginData: { leftOut: true } });
      const module = LEFT_OUT.find((m) => m.specifier.test(args.path) && m.file.test(slashed(resolved.path)));
      if (!module) return undefined;
      return { path: module.name, namespace: 'rts-left-out', pluginData: { dir: path.dirname(resolved.path) } };
    });
    build.onLoad({ filter: /.*/, namespace: 'rts-left-out' }, (args) => {
      const module = LEFT_OUT.find((m) => m.name === args.path);
      const contents = module.contents ? module.contents(STUBS) : `export { ${module.stubs.join(', ')} } from ${JSON.stringify(STUBS)};`;
      return { contents, loader: 'js', resolveDir: args.pluginData.dir };
    });
    build.onLoad({ filter: /[\\/]re2js[\\/]build[\\/]index\.js$/ }, async (args) => ({
      contents: withoutUnusedRe2js(await readFile(args.path, 'utf8')),
      loader: 'js',
    }));
    build.onLoad({ filter: /[\\/]@aws-sdk[\\/]client-[a-z0-9-]+[\\/]package\.json$/ }, async (args) => {
      const { version } = JSON.parse(await readFile(args.path, 'utf8'));
      return { contents: JSON.stringify({ version }), loader: 'json' };
    });
  },
};

/** The file re2js is bundled into, beside each bundle that requires it. */
const RE2JS_FILE = 're2js.js';

// re2js (~100 KB as bundled, a fifth of the largest function) is required the first time a pattern is compiled
// (functions/core/replay/pattern.ts), and most campaigns have none: it is not in index.js, whose every byte each cold
// start compiles, but in re2js.js beside it, bundled (and trimmed) like the rest, which the require loads. A static
// import of re2js would load it at init: the build fails on one.
const re2jsBeside = {
  name: 'rts-re2js-beside',
  setup(build) {
    const options = build.initialOptions;
    const wantsMetafile = options.metafile === true;
    options.metafile = true;
    build.onResolve({ filter: /^re2js$/ }, (args) => {
      if (args.kind !== 'require-call') {
        return { errors: [{ text: `re2js is imported by ${args.importer}: require it on first use, as functions/core/replay/pattern.ts does` }] };
      }
      return { path: `./${RE2JS_FILE}`, external: true };
    });
    build.onEnd(async (result) => {
      if (result.errors.length || options.write === false) return;
      const root = options.absWorkingDir ?? process.cwd();
      const dirs = Object.entries(result.metafile.outputs)
        .filter(([file, output]) => file.endsWith('.js') && output.imports.some((i) => i.external && i.path === `./${RE2JS_FILE}`))
        .map(([file]) => path.dirname(path.resolve(root, file)));
      if (!wantsMetafile) delete result.metafile;
      const { entryPoints: _e, outdir: _d, outfile: _f, stdin: _s, metafile: _m, plugins: _p, ...shared } = options;
      // One build per depth below the root (the source map's paths are relative to the file), written to each dir.
      const byDepth = new Map();
      for (const dir of new Set(dirs)) byDepth.set(path.relative(dir, root), [...(byDepth.get(path.relative(dir, root)) ?? []), dir]);
      await Promise.all(
        [...byDepth.values()].map(async ([first, ...rest]) => {
          const { outputFiles } = await esbuild.build({
            ...shared,
            entryPoints: ['re2js'],
            outfile: path.join(first, RE2JS_FILE),
            plugins: [leftOut],
            write: false,
          });
          for (const dir of [first, ...rest]) {
            for (const file of outputFiles) await writeFile(path.join(dir, path.basename(file.path)), file.contents);
          }
        }),
      );
    });
  },
};

/** Built-in modules a bundle requires on first use of one of their exports instead of at init (see lazyBuiltins). */
const LAZY_BUILTINS = ['node:stream/web', 'node:module', 'node:dgram', 'node:console'];

// Built-ins a bundle imports for work most containers never do, each loaded at every cold start when required at init:
// - `node:stream/web`: middy's core imports it for streamed responses (`streamifyResponse`), which no function uses, and
//   a require() of it loads all of Node's web streams: ~1.9 ms of CPU on Node 22. The SDK reads the global
//   `ReadableStream` on its first response, which loads the part of web streams it uses (~1.2 ms), as it does in a
//   bundle without middy: a cold start saves ~0.8 ms, its init ~1.9;
// - `node:module`: every bundle's stack-trace mapping (functions/adapters/lambda-stack-traces.ts) builds a `SourceMap`
//   only when a trace is formatted; requiring the module loads the ESM loader's modules with it (~0.4 ms);
// - `node:dgram`: the X-Ray subsegments (functions/adapters/xray/segments.ts) open their UDP socket at the first sampled
//   invocation's first subsegment (~0.3 ms; the worker and webhook delivery);
// - `node:console`: the logger's `Console` (functions/wiring/logger.ts), built with Powertools' Logger at the first
//   line written, which an HTTP function's request writes only when something fails.
// Each LAZY_BUILTINS import resolves to `rts-lazy-builtin:<module>#<names>`, an object of getters, one per name, that
// requires the module at the first read. The names are those the importer imports (`import { a, b as c } from`, types
// left out), so a bundle carries a getter for each export it reads; an importer that takes the module otherwise (a
// default or namespace import, a require()) gets one for every export of the module, as the building Node has it.
const lazyBuiltins = {
  name: 'rts-lazy-builtins',
  setup(build) {
    build.onResolve({ filter: /^node:/ }, (args) => {
      if (!LAZY_BUILTINS.includes(args.path) || args.namespace === 'rts-lazy-builtin') return undefined;
      const names = args.kind === 'import-statement' ? namedImports(readFileSync(args.importer, 'utf8'), args.path) : null;
      return { path: `${args.path}#${names ? names.join(',') : '*'}`, namespace: 'rts-lazy-builtin' };
    });
    build.onLoad({ filter: /.*/, namespace: 'rts-lazy-builtin' }, (args) => {
      const [module, list] = args.path.split('#');
      const names = list === '*' ? Object.keys(require(module)) : list.split(',');
      const getters = names.map((n) => `  get ${n}() { return load().${n}; },`);
      const contents = [`const load = () => require(${JSON.stringify(module)});`, 'module.exports = {', ...getters, '};'].join('\n');
      return { contents, loader: 'js' };
    });
  },
};

/** An import statement with a `from` clause: what it imports (group 1) and from where (group 3). */
const IMPORT_FROM = /\bimport\s*([^'";]*?)\s*from\s*(['"])([^'"]+)\2/g;

/**
 * The names `source` imports from `specifier` with `import { a, b as c } from`, sorted, type-only ones left out; null
 * when it imports the module any other way (a default or namespace import, an `import type`), with no such statement,
 * or with a clause this does not read (a comment in it): the module then gets a getter for every export.
 */
function namedImports(source, specifier) {
  const clauses = [...source.matchAll(IMPORT_FROM)].filter((m) => m[3] === specifier).map((m) => m[1]);
  if (clauses.length === 0 || !clauses.every((c) => /^\{[^}]*\}$/.test(c))) return null;
  const names = clauses
    .flatMap((c) => c.slice(1, -1).split(','))
    .map((n) => n.trim())
    .filter((n) => n && !/^type\s/.test(n))
    .map((n) => n.split(/\s+as\s+/)[0]);
  return names.length > 0 && names.every((n) => /^[A-Za-z_$][\w$]*$/.test(n)) ? [...new Set(names)].sort() : null;
}

/**
 * Packages the sources require on first use whose ES module build the bundles keep, as for a static import: their
 * CommonJS build would bring a second copy of what they share with the modules that import them (Powertools' logger
 * and its `commons`, which the metrics and batch utilities import), and esbuild cannot leave its unused exports out.
 */
const REQUIRED_AS_ESM = ['@aws-lambda-powertools/logger', '@aws-lambda-powertools/logger/middleware'];

// A require() of a REQUIRED_AS_ESM package resolves as an import would; esbuild wraps the ES module so that it
// evaluates at the first require(), not with the bundle.
const requiredAsEsm = {
  name: 'rts-required-as-esm',
  setup(build) {
    const names = new RegExp(`^(${REQUIRED_AS_ESM.map((n) => n.replace(/[/.-]/g, '\\$&')).join('|')})$`);
    build.onResolve({ filter: names }, async (args) => {
      if (args.kind !== 'require-call' || args.pluginData?.asEsm) return undefined;
      const { importer, resolveDir } = args;
      return build.resolve(args.path, { importer, resolveDir, kind: 'import-statement', pluginData: { asEsm: true } });
    });
  },
};

/** The plugins every Lambda build uses (also for builds that want a metafile: test/unit/lib/bundling.test.ts). */
const plugins = [wiredEntries, leftOut, re2jsBeside, lazyBuiltins, requiredAsEsm];
module.exports = { plugins, LEFT_OUT, LAZY_BUILTINS, RE2JS_FILE, REQUIRED_AS_ESM, namedImports };

if (require.main === module) {
  const options = JSON.parse(process.argv[2]);
  esbuild.build({ ...options, plugins }).then(
    () => process.exit(0),
    () => process.exit(1),
  );
}

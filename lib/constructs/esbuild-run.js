// Runs one esbuild build in a child process, because only the async API takes plugins and CDK bundling is synchronous.
// Two plugins: zod's locales index (~260 KB of 40 languages) swapped for English only (zod registers English itself),
// and the entries bundling.ts generates, which wire the repositories a function reads before its handler module loads.
const path = require('node:path');
const esbuild = require('esbuild');

const englishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /[\\/]locales[\\/]index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}zod${path.sep}`) ? { path: path.join(__dirname, 'zod-locales-en.mjs') } : undefined,
    );
  },
};

// `rts-entry:<handler file>#<repositories>`: imports `rts-wiring:<repositories>` (a module that registers those
// repositories with shared/deps.ts), then re-exports the handler module. ES modules run in import order, so the
// repositories are wired before the handler module runs.
const wiredEntries = {
  name: 'rts-wired-entries',
  setup(build) {
    const shared = path.join(build.initialOptions.absWorkingDir, 'functions', 'shared');
    build.onResolve({ filter: /^rts-(entry|wiring):/ }, (args) => {
      const [, namespace, rest] = /^rts-(entry|wiring):(.*)$/.exec(args.path);
      return { path: rest, namespace: `rts-${namespace}` };
    });
    build.onLoad({ filter: /.*/, namespace: 'rts-entry' }, (args) => {
      const [file, repos] = args.path.split('#');
      const lines = repos ? [`import ${JSON.stringify(`rts-wiring:${repos}`)};`] : [];
      return { contents: [...lines, `export * from ${JSON.stringify(file)};`].join('\n'), loader: 'js', resolveDir: path.dirname(file) };
    });
    build.onLoad({ filter: /.*/, namespace: 'rts-wiring' }, (args) => {
      const names = args.path.split(',').join(', ');
      const contents = [
        `import { wireRepos } from ${JSON.stringify(path.join(shared, 'deps'))};`,
        `import { ${names} } from ${JSON.stringify(path.join(shared, 'repos'))};`,
        `wireRepos({ ${names} });`,
      ].join('\n');
      return { contents, loader: 'js', resolveDir: shared };
    });
  },
};

/** The plugins every Lambda build uses (also for builds that want a metafile: test/bench/bundles.ts). */
const plugins = [englishOnly, wiredEntries];
module.exports = { plugins };

if (require.main === module) {
  const options = JSON.parse(process.argv[2]);
  esbuild.build({ ...options, plugins }).then(
    () => process.exit(0),
    () => process.exit(1),
  );
}

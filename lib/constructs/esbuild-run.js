// Runs one esbuild build in a child process, because only the async API takes plugins and CDK bundling is synchronous.
// The plugin: the entries bundling.ts generates, which wire the repositories a function reads and the adapters its route
// row names before its handler module loads.
const path = require('node:path');
const esbuild = require('esbuild');

// `rts-entry:<handler file>#<repositories>#<adapters>`: imports `rts-wiring:<repositories>` (a module that registers
// those repositories with wiring/deps.ts) and wiring/with-<adapter> for each adapter (queue, bus, http), then re-exports
// the handler module. ES modules run in import order, so all of it is wired before the handler module runs.
const wiredEntries = {
  name: 'rts-wired-entries',
  setup(build) {
    const wiring = path.join(build.initialOptions.absWorkingDir, 'functions', 'wiring');
    build.onResolve({ filter: /^rts-(entry|wiring):/ }, (args) => {
      const [, namespace, rest] = /^rts-(entry|wiring):(.*)$/.exec(args.path);
      return { path: rest, namespace: `rts-${namespace}` };
    });
    build.onLoad({ filter: /.*/, namespace: 'rts-entry' }, (args) => {
      const [file, repos, adapters = ''] = args.path.split('#');
      const lines = repos ? [`import ${JSON.stringify(`rts-wiring:${repos}`)};`] : [];
      for (const kind of adapters ? adapters.split(',') : []) lines.push(`import ${JSON.stringify(path.join(wiring, `with-${kind}`))};`);
      return { contents: [...lines, `export * from ${JSON.stringify(file)};`].join('\n'), loader: 'js', resolveDir: path.dirname(file) };
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

/** The plugins every Lambda build uses (also for builds that want a metafile: test/unit/lib/bundling.test.ts). */
const plugins = [wiredEntries];
module.exports = { plugins };

if (require.main === module) {
  const options = JSON.parse(process.argv[2]);
  esbuild.build({ ...options, plugins }).then(
    () => process.exit(0),
    () => process.exit(1),
  );
}

// Runs one esbuild build in a child process, because only the async API takes plugins and CDK bundling is synchronous.
// The plugin swaps zod's locales index (~260 KB of 40 languages) for English only: zod registers English itself.
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

const options = JSON.parse(process.argv[2]);
esbuild.build({ ...options, plugins: [englishOnly] }).then(
  () => process.exit(0),
  () => process.exit(1),
);

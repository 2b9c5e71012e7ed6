// Builds @rts/sdk into dist/: CommonJS by esbuild (one file per source, not bundled), declarations by tsc, and ESM
// entry points that re-export the CommonJS build, so both module systems share one instance of each class.
// Run from the repository with `npm run build:sdk`, or here with `npm run build` (esbuild and typescript are resolved
// from the repository's node_modules).
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = dirname(fileURLToPath(import.meta.url));
const src = join(root, 'src');
const dist = join(root, 'dist');
/** The package's entry points (its `exports` map): `.` and `./verify`. */
const ENTRIES = ['index', 'verify'];

const sources = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : name.endsWith('.ts') ? [path] : [];
  });

rmSync(dist, { recursive: true, force: true });
require('esbuild').buildSync({
  entryPoints: sources(src),
  outdir: dist,
  outbase: src,
  format: 'cjs',
  platform: 'node',
  target: 'node18',
  logLevel: 'warning',
});

const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.json')], { stdio: 'inherit' });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);

for (const entry of ENTRIES) {
  const names = Object.keys(require(join(dist, `${entry}.js`))).filter((name) => name !== '__esModule' && name !== 'default');
  const bad = names.filter((name) => !/^[A-Za-z_$][\w$]*$/.test(name));
  if (bad.length) throw new Error(`${entry}: export names that ESM cannot re-declare: ${bad.join(', ')}`);
  writeFileSync(
    join(dist, `${entry}.mjs`),
    `// ESM entry of @rts/sdk (${entry}): the CommonJS build's exports, one instance for both module systems.\n` +
      `import cjs from './${entry}.js';\n\nexport const { ${names.join(', ')} } = cjs;\n`,
  );
  writeFileSync(join(dist, `${entry}.d.mts`), `export * from './${entry}.js';\n`);
}
console.log(`@rts/sdk built into ${dist}: ${ENTRIES.map((e) => `${e}.js/.mjs/.d.ts/.d.mts`).join(', ')}`);

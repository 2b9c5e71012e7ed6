// esbuild settings shared by ServiceFunction and the bundle benchmark, so the benchmark measures what ships.
import * as path from 'node:path';

/** Repository root: entries, the lock file and tsconfig.json are resolved from here. */
export const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** The single lock file NodejsFunction hashes and esbuild resolves against. */
export const LOCK_FILE = path.join(REPO_ROOT, 'package-lock.json');

/** Absolute path of a handler module given as `functions/...` without extension. */
export function entryFile(modulePath: string): string {
  return path.join(REPO_ROOT, `${modulePath}.ts`);
}

/**
 * One set of bundling choices for every function:
 * - the AWS SDK is bundled (not taken from the runtime) so the tested SDK version is the deployed one,
 *   and tree-shaking drops what a handler does not use;
 * - `module` before `main` lets esbuild pick the ESM builds (middy is ESM-only, the SDK ships both),
 *   which shake better, then emit CommonJS for the Lambda runtime;
 * - source maps without embedded sources keep the map small while stack traces still name TS lines.
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
} as const;

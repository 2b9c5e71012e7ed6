// Bundles the dashboard's browser code (browser/main.ts) with esbuild into the one script the page inlines; build time only.
import * as path from 'node:path';
import { buildSync } from 'esbuild';

/**
 * The browser script: one minified IIFE, no source map, ASCII only. The same options serve `cdk synth` (which inlines
 * the result into the Lambda bundle, see lib/constructs/bundling.ts) and runs from source (tsx, jest), so both serve
 * the same bytes and the same CSP hash. Needs esbuild, a devDependency: never import this from Lambda code.
 */
export function buildDashboardScript(): string {
  const browser = path.join(__dirname, 'browser');
  const result = buildSync({
    entryPoints: [path.join(browser, 'main.ts')],
    tsconfig: path.join(browser, 'tsconfig.json'),
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    charset: 'ascii',
    legalComments: 'none',
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}

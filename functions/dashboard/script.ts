// The dashboard's browser script as one string: prebuilt into the Lambda bundle, or built from browser/ when running from source.

/**
 * Replaced with the prebuilt script by the Lambda bundling step (esbuild `define`, see lib/constructs/bundling.ts);
 * undeclared when running from source.
 */
declare const RTS_DASHBOARD_SCRIPT: string | undefined;

/** The global that bundling defines as the prebuilt script. */
export const DASHBOARD_SCRIPT_GLOBAL = 'RTS_DASHBOARD_SCRIPT';

let built: string | undefined;

/**
 * The script the page inlines. In a bundle it is the defined constant and the branch below is dead code, which
 * esbuild drops together with its require (so the bundle holds neither esbuild nor the browser sources). From source
 * (tsx, jest) it is bundled with esbuild on first use and kept for the process.
 */
export function dashboardScript(): string {
  // A require in a ternary, not an import: esbuild folds the ternary and drops the require with the dead branch.
  return typeof RTS_DASHBOARD_SCRIPT === 'string'
    ? RTS_DASHBOARD_SCRIPT
    : // eslint-disable-next-line @typescript-eslint/no-require-imports
      (built ??= (require('./build-script') as typeof import('./build-script')).buildDashboardScript());
}

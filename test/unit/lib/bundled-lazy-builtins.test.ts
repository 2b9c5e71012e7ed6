// A built-in module of LAZY_BUILTINS (lib/constructs/esbuild-run.js) is required by a bundle at the first read of one of
// its exports, not at init: middy's core imports `node:stream/web` for streamed responses, which no function uses, and
// requiring it loads all of Node's web streams at every cold start. Run in fresh processes on the Lambda runtime's Node
// major, with a fixture that imports from it as middy does.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import { buildBundles, entryFile, esbuildOptions } from '../../../lib/constructs/bundling';
import { WEB_STREAMS } from '../../helpers/first-request';
import { LAMBDA_NODE_MAJOR, nodeBinary } from '../../helpers/node-binary';

const node = nodeBinary(LAMBDA_NODE_MAJOR);
if ('skip' in node) console.warn(`lazy built-ins test skipped: ${node.skip}`);
const describeWithNode = 'skip' in node ? describe.skip : describe;

const FIXTURE = 'test/fixtures/bundling/reads-stream-web';

/** Requires the bundle, then calls its handler for `which`: the web streams modules each loaded, and the answer. */
const PROBE = `
const before = new Set(process.moduleLoadList);
const loaded = () => process.moduleLoadList.filter((m) => !before.has(m) && ${WEB_STREAMS}.test(m));
const [file, which] = process.argv.slice(1);
const { handler } = require(file);
const atInit = loaded();
handler({ which }).then((got) => {
  const real = require('node:stream/web')[which === 'readable' ? 'ReadableStream' : 'TransformStream'];
  process.stdout.write(JSON.stringify({ atInit, afterRead: loaded(), same: got === real, name: got.name }));
});
`;

function probe(bundle: string, which: 'readable' | 'transform'): { atInit: string[]; afterRead: string[]; same: boolean; name: string } {
  return JSON.parse(
    execFileSync((node as { path: string }).path, ['-e', PROBE, bundle, which], { encoding: 'utf8', env: { PATH: process.env.PATH } }),
  );
}

describeWithNode('built-in modules required on first use (node:stream/web)', () => {
  let dir: string;
  let bundle: string;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rts-lazy-builtins-'));
    bundle = path.join(buildBundles([FIXTURE], dir).get(FIXTURE)!, 'index.js');
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('are not loaded at init, and an import read later is the module export itself', () => {
    for (const which of ['readable', 'transform'] as const) {
      const got = probe(bundle, which);

      expect(got.atInit).toEqual([]);
      expect(got.afterRead).toContain('NativeModule stream/web');
      expect(got).toMatchObject({ same: true, name: which === 'readable' ? 'ReadableStream' : 'TransformStream' });
    }
    expect(readFileSync(bundle, 'utf8')).not.toMatch(/^[^\n]*=require\("node:stream\/web"\)[,;]/m);
  });

  it("load at init in esbuild's own bundle of the fixture (the probe sees what it is meant to)", () => {
    const eager = path.join(dir, 'eager.js');
    buildSync({ ...esbuildOptions(), entryPoints: [entryFile(FIXTURE)], outfile: eager, sourcemap: false, logLevel: 'silent' });

    expect(probe(eager, 'readable').atInit).toContain('NativeModule stream/web');
  });
});

// A built-in module of LAZY_BUILTINS (lib/constructs/esbuild-run.js) is required by a bundle at the first read of one of
// its exports, not at init: middy's core imports `node:stream/web` for streamed responses, which no function uses, and
// requiring it loads all of Node's web streams at every cold start; the stack-trace mapping imports `node:module` for a
// trace formatted after a failure, the X-Ray subsegments `node:dgram` for a sampled invocation. Run in fresh processes
// on the Lambda runtime's Node major, with a fixture that imports from each as the bundles do.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import { entryFile, esbuildOptions } from '../../../lib/constructs/bundling';
import { useFixtureBundle } from '../../helpers/fixture-bundle';
import { WEB_STREAMS } from '../../helpers/first-request';
import { LAMBDA_NODE_MAJOR, nodeBinary } from '../../helpers/node-binary';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { namedImports } = require('../../../lib/constructs/esbuild-run.js') as {
  namedImports: (source: string, specifier: string) => string[] | null;
};

const node = nodeBinary(LAMBDA_NODE_MAJOR);
if ('skip' in node) console.warn(`lazy built-ins test skipped: ${node.skip}`);
const describeWithNode = 'skip' in node ? describe.skip : describe;

const FIXTURE = 'test/fixtures/bundling/reads-lazy-builtins';

/** Each read of the fixture: the module it requires, its export read, and what `process.moduleLoadList` names. */
const READS = {
  readable: { module: 'node:stream/web', name: 'ReadableStream', loads: 'NativeModule stream/web' },
  transform: { module: 'node:stream/web', name: 'TransformStream', loads: 'NativeModule stream/web' },
  sourceMap: { module: 'node:module', name: 'SourceMap', loads: 'NativeModule module' },
  createSocket: { module: 'node:dgram', name: 'createSocket', loads: 'NativeModule dgram' },
} as const;
type Which = keyof typeof READS;

/** Node's modules of the three built-ins (and what they load), as `process.moduleLoadList` names them. */
const LAZY_LOADS = new RegExp(`${WEB_STREAMS.source}|^NativeModule (module|dgram|internal/dgram|internal/modules/esm/)`);

/** Requires the bundle, then calls its handler for `which`: the modules of the three loaded at init and after, and the answer. */
const PROBE = `
const before = new Set(process.moduleLoadList);
const loaded = () => process.moduleLoadList.filter((m) => !before.has(m) && ${LAZY_LOADS}.test(m));
const [file, which, builtin, name] = process.argv.slice(2);
const { handler } = require(file);
const atInit = loaded();
handler({ which }).then((got) => {
  process.stdout.write(JSON.stringify({ atInit, afterRead: loaded(), same: got === require(builtin)[name] }));
});
`;

/** Runs PROBE, written to `probeFile` (not `node -e`, which loads `node:module` itself before the code it evaluates). */
function probe(probeFile: string, bundle: string, which: Which): { atInit: string[]; afterRead: string[]; same: boolean } {
  const { module, name } = READS[which];
  return JSON.parse(
    execFileSync((node as { path: string }).path, [probeFile, bundle, which, module, name], { encoding: 'utf8', env: { PATH: process.env.PATH } }),
  );
}

describeWithNode('built-in modules required on first use (node:stream/web, node:module, node:dgram)', () => {
  const built = useFixtureBundle(FIXTURE, 'lazy-builtins', { 'probe.cjs': PROBE });
  const probeFile = () => path.join(built.dir, 'probe.cjs');

  it.each(Object.keys(READS) as Which[])('are not loaded at init, and an import read later is the module export itself: %s', (which) => {
    const got = probe(probeFile(), built.bundle, which);

    expect(got.atInit).toEqual([]);
    expect(got.afterRead).toContain(READS[which].loads);
    expect(got.same).toBe(true);
  });

  it('leave no require() of theirs at the top level of the bundle', () => {
    const code = readFileSync(built.bundle, 'utf8');

    // The getters require it in an arrow function (`()=>require(...)`); a top-level one is assigned (`x=require(...)`).
    for (const module of new Set(Object.values(READS).map((r) => r.module))) {
      for (const before of ['=', ',']) expect(code).not.toContain(`${before}require("${module}")`);
    }
  });

  it("load at init in esbuild's own bundle of the fixture (the probe sees what it is meant to)", () => {
    const eager = path.join(built.dir, 'eager.js');
    buildSync({ ...esbuildOptions(), entryPoints: [entryFile(FIXTURE)], outfile: eager, sourcemap: false, logLevel: 'silent' });

    const atInit = probe(probeFile(), eager, 'readable').atInit;

    for (const { loads } of Object.values(READS)) expect(atInit).toContain(loads);
  });
});

describe('the names a lazy built-in gets getters for (namedImports)', () => {
  it.each([
    ["import { createSocket, type Socket } from 'node:dgram';", 'node:dgram', ['createSocket']],
    ['import{TransformStream,ReadableStream as R}from"node:stream/web"', 'node:stream/web', ['ReadableStream', 'TransformStream']],
    ['import { a } from "x";\nimport {\n  SourceMap,\n} from "node:module";', 'node:module', ['SourceMap']],
    ['import { SourceMap } from "node:module";\nimport { findSourceMap } from "node:module";', 'node:module', ['SourceMap', 'findSourceMap']],
  ])('are those of its named imports: %j', (source, specifier, names) => {
    expect(namedImports(source, specifier)).toEqual(names);
  });

  it.each([
    ['a namespace import', 'import * as dgram from "node:dgram";'],
    ['a default import beside named ones', 'import dgram, { createSocket } from "node:dgram";'],
    ['a require()', 'const dgram = require("node:dgram");'],
    ['a comment in the clause', 'import { createSocket, // the socket\n Socket } from "node:dgram";'],
    ['an import of another module only', 'import { createSocket } from "node:dgram2";'],
  ])('are every export of the module for %s (null)', (_, source) => {
    expect(namedImports(source, 'node:dgram')).toBeNull();
  });
});

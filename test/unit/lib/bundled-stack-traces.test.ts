// The bundles' stack traces name the TypeScript sources as Node's --enable-source-maps prints them, and read the
// source map only when a trace is formatted, never at init (functions/adapters/lambda-stack-traces.ts, installed first
// by every bundle's generated entry). Run in fresh processes on the Lambda runtime's Node major.
import { execFileSync } from 'node:child_process';
import { renameSync } from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../../../lib/constructs/bundling';
import { useFixtureBundle } from '../../helpers/fixture-bundle';
import { LAMBDA_NODE_MAJOR, nodeBinary } from '../../helpers/node-binary';

const node = nodeBinary(LAMBDA_NODE_MAJOR);
if ('skip' in node) console.warn(`bundled stack traces test skipped: ${node.skip}`);
const describeWithNode = 'skip' in node ? describe.skip : describe;

const FIXTURE = 'test/fixtures/bundling/throws';
const SOURCE = path.join(REPO_ROOT, `${FIXTURE}.ts`);

/**
 * Requires the bundle, records every read of a `.map` file, and prints as JSON: the map reads at init and after the
 * handler failed, the failure's stack, the map reads after it, a second failure's stack and the reads after that; with
 * `native`, also the second failure's stack as Node formats it with the hook removed (the process then runs with
 * --enable-source-maps).
 */
const PROBE = `
const fs = require('node:fs');
const reads = [];
const readFileSync = fs.readFileSync;
fs.readFileSync = function (file, ...rest) {
  if (String(file).endsWith('.map')) reads.push(String(file));
  return readFileSync.call(this, file, ...rest);
};
const [file, native] = [process.argv[1], process.argv[2] === 'native'];
const out = {};
const { handler } = require(file);
out.readsAtInit = reads.length;
const fail = () => handler({ orderId: 'o-1' }).then(() => { throw new Error('the fixture did not fail'); }, (e) => e);
(async () => {
  const first = await fail();
  out.readsBeforeStack = reads.length;
  out.stack = first.stack;
  out.readsAfterStack = reads.length;
  const second = await fail();
  out.second = second.stack;
  out.readsAfterSecond = reads.length;
  const odd = Object.create(Error.prototype, { name: { get() { throw new Error('no name'); } } });
  Error.captureStackTrace(odd);
  out.odd = odd.stack.split('\\n')[0];
  if (native) {
    Error.prepareStackTrace = undefined;
    out.native = (await fail()).stack;
  }
  process.stdout.write(JSON.stringify(out));
})();
`;

interface Probe {
  readsAtInit: number;
  readsBeforeStack: number;
  stack: string;
  readsAfterStack: number;
  second: string;
  readsAfterSecond: number;
  native?: string;
  odd: string;
}

const probe = (bundle: string, flags: string[] = [], mode = ''): Probe =>
  JSON.parse(
    execFileSync((node as { path: string }).path, [...flags, '-e', PROBE, bundle, mode], {
      env: { PATH: process.env.PATH },
      encoding: 'utf8',
      timeout: 60_000,
    }),
  ) as Probe;

describeWithNode('stack traces of a bundle', () => {
  const built = useFixtureBundle(FIXTURE, 'stack-traces');

  it('name the sources, functions, lines and columns; the map is read once, when the first trace is formatted', () => {
    const got = probe(built.bundle);

    expect(got.stack.split('\n').slice(0, 3)).toEqual([
      'RefundRefused: refund of o-1 refused',
      `    at checkRefund (${SOURCE}:8:9)`,
      `    at approveRefund (${SOURCE}:12:27)`,
    ]);
    expect(got.stack.split('\n')[3]).toMatch(new RegExp(`^ {4}at \\w+ \\(${SOURCE.replace(/[.]/g, '\\.')}:18:10\\)$`));
    expect([got.readsAtInit, got.readsBeforeStack, got.readsAfterStack, got.readsAfterSecond]).toEqual([0, 0, 1, 1]);
    // The same frames again, and below them the probe's own caller (a line of its own for each call).
    expect(got.second.split('\n').slice(0, 4)).toEqual(got.stack.split('\n').slice(0, 4));
  });

  it("are what Node's own --enable-source-maps prints for the same failure", () => {
    const got = probe(built.bundle, ['--enable-source-maps'], 'native');

    expect(got.native).toContain(`${SOURCE}:8:9`);
    expect(got.second.split('\n').slice(0, 4)).toEqual(got.native!.split('\n').slice(0, 4));
  });

  it("keep the bundle positions when the map is gone, and a header when the error cannot name itself (V8's own would throw)", () => {
    renameSync(`${built.bundle}.map`, `${built.bundle}.map.away`);
    try {
      const got = probe(built.bundle);

      expect(got.stack.split('\n')[1]).toMatch(new RegExp(`^ {4}at \\w+ \\(${built.bundle.replace(/[.]/g, '\\.')}:\\d+:\\d+\\)$`));
      expect(got.odd).toBe('<error>');
    } finally {
      renameSync(`${built.bundle}.map.away`, `${built.bundle}.map`);
    }
  });
});

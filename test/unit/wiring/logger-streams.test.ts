// The service's logger reaches process.stdout and process.stderr at the first line written, not when it is built
// (functions/wiring/logger.ts): Node creates each stream at its first read, a socket for a pipe, and an HTTP function's
// request writes no line unless something fails. Its lines must be the stock Powertools Logger's, on the same streams.
// Run in fresh processes (each stream is created once per process) with stdout and stderr pipes, as the bundles run.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import * as path from 'node:path';
import { useFixtureBundle } from '../../helpers/fixture-bundle';
import { LAMBDA_NODE_MAJOR, nodesToTest } from '../../helpers/node-binary';

const FIXTURE = 'test/fixtures/logging/lazy-streams';

/**
 * Counts the reads of process.stdout and process.stderr, requires the bundle, then has `which` logger ('ours' or
 * 'stock', built only then) write the same lines. Reports the reads at init and after, on fd 3.
 */
const PROBE = `
const reads = { stdout: 0, stderr: 0 };
for (const name of ['stdout', 'stderr']) {
  const own = Object.getOwnPropertyDescriptor(process, name);
  Object.defineProperty(process, name, { configurable: true, enumerable: true, get() { reads[name]++; return own.get.call(process); } });
}
const [file, which] = process.argv.slice(2);
const m = require(file);
const atInit = { ...reads };
const log = which === 'ours' ? m.logger : m.stock();
log.appendKeys({ part: 1 });
log.info('replay message processed', { runId: 'r1', n: 2 });
log.debug('not written at INFO');
log.warn('throttled by a downstream service', { requestId: 'q1' });
log.error('unhandled error', { error: Object.assign(new Error('boom'), { stack: 'Error: boom\\n    at here' }) });
log.critical('the store is gone');
require('node:fs').writeSync(3, JSON.stringify({ atInit, after: { ...reads } }));
`;

const ENV = { PATH: process.env.PATH, POWERTOOLS_LOG_LEVEL: 'INFO', POWERTOOLS_SERVICE_NAME: 'rts-test', AWS_REGION: 'eu-west-1' };

interface Run {
  reads: { atInit: Record<string, number>; after: Record<string, number> };
  stdout: Record<string, unknown>[];
  stderr: Record<string, unknown>[];
}

/** The JSON lines of a stream, without the one field that differs between two runs. */
const linesOf = (text: string): Record<string, unknown>[] =>
  text
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const { timestamp, ...rest } = JSON.parse(l) as Record<string, unknown>;
      expect(typeof timestamp).toBe('string');
      return rest;
    });

const nodes = nodesToTest('logger streams test', [LAMBDA_NODE_MAJOR]);

describe.each(nodes)('the logger on %s', (_, node) => {
  const built = useFixtureBundle(FIXTURE, 'logger-streams', { 'probe.cjs': PROBE });

  /** One run of PROBE in a fresh process, stdout, stderr and fd 3 pipes. */
  function probe(which: 'ours' | 'stock', env: NodeJS.ProcessEnv = {}) {
    const r = spawnSync(node, [path.join(built.dir, 'probe.cjs'), built.bundle, which], {
      env: { ...ENV, ...env },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    if (r.status !== 0) throw new Error(`probe exited ${r.status}: ${r.stderr}`);
    return r;
  }

  function run(which: 'ours' | 'stock'): Run {
    const r = probe(which);
    return { reads: JSON.parse(r.output[3] as string), stdout: linesOf(r.stdout), stderr: linesOf(r.stderr) };
  }

  it('reads neither stream when it is built, and both when it writes', () => {
    const { reads } = run('ours');

    expect(reads.atInit).toEqual({ stdout: 0, stderr: 0 });
    expect(reads.after.stdout).toBeGreaterThan(0);
    expect(reads.after.stderr).toBeGreaterThan(0);
  });

  it('reads both when the stock Logger is built (the probe sees what it is meant to)', () => {
    // The bundle's own logger is built at init too, so the stock one's reads are those after it.
    const { reads } = run('stock');

    expect(reads.after.stdout - reads.atInit.stdout).toBeGreaterThan(0);
    expect(reads.after.stderr - reads.atInit.stderr).toBeGreaterThan(0);
  });

  it("writes the stock Logger's lines, on the same streams", () => {
    const ours = run('ours');
    const stock = run('stock');

    expect(ours.stdout.map((l) => l.message)).toEqual(['replay message processed']);
    expect(ours.stderr.map((l) => l.message)).toEqual(['throttled by a downstream service', 'unhandled error', 'the store is gone']);
    expect(ours.stdout).toEqual(stock.stdout);
    expect(ours.stderr).toEqual(stock.stderr);
  });

  it("writes the stock Logger's lines in Powertools' dev mode (the global console)", () => {
    const raw = (which: 'ours' | 'stock') => {
      const r = probe(which, { POWERTOOLS_DEV: 'true' });
      const untimed = (text: string) => text.replace(/"timestamp": "[^"]+"/g, '"timestamp": "-"');
      return { stdout: untimed(r.stdout), stderr: untimed(r.stderr) };
    };

    const ours = raw('ours');

    // Indented JSON, four lines written.
    expect(ours.stdout.match(/"level": /g)).toHaveLength(1);
    expect(ours.stderr.match(/"level": /g)).toHaveLength(3);
    expect(ours).toEqual(raw('stock'));
  });

  it('fails as the stock Logger does when the reader of stdout has gone', async () => {
    // A closed pipe fails the writes (EPIPE) and the stream emits the error: the same listeners see it either way.
    const script = `const m = require(process.argv[1]); const log = process.argv[2] === 'ours' ? m.logger : m.stock();
      let i = 0; const t = setInterval(() => { log.info('line ' + i); if (++i === 50) clearInterval(t); }, 2);`;
    const ending = async (which: string) => {
      const child = spawn(node, ['-e', script, built.bundle, which], { env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.destroy();
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const [code] = (await once(child, 'exit')) as [number | null];
      return { code, error: /^Error: .*$/m.exec(stderr)?.[0] };
    };

    const ours = await ending('ours');

    expect(ours).toEqual(await ending('stock'));
    expect(ours.error).toBe('Error: write EPIPE');
  });
});

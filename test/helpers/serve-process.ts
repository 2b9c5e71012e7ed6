// `rts serve` as a process of its own (the store in a child process of its own, as `npm start` runs it), for tests
// that look at the service from outside: its memory, its files, its store's port.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

export interface ServedProcess {
  child: ChildProcess;
  url: string;
  /** What the process wrote to stdout and stderr so far. */
  output: () => string;
  exited: Promise<number | null>;
  /** The process's resident set size now, in bytes (Linux /proc). */
  rss(): number;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

/**
 * Starts `rts serve --data-dir <dataDir>` on `port` (default: a free one), with extra CLI arguments and environment as
 * given, on `node` (default: the tests' own), and waits for /health.
 */
export async function startServeProcess(
  dataDir: string,
  args: string[] = [],
  env: Record<string, string> = {},
  port?: number,
  node: string = process.execPath,
): Promise<ServedProcess> {
  port ??= await freePort();
  let out = '';
  // Not the in-process services' settings: this is a service of its own.
  const { DYNAMODB_ENDPOINT, TABLE_NAME, RTS_PUBLIC_URL, RTS_STORE_SECRET, ...inherited } = process.env;
  const child = spawn(node, [join(ROOT, 'bin', 'rts.js'), 'serve', '--port', String(port), '--data-dir', dataDir, ...args], {
    cwd: ROOT,
    env: { ...inherited, RTS_ACCESS_LOG: 'false', POWERTOOLS_LOG_LEVEL: 'ERROR', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const served: ServedProcess = {
    child,
    url: `http://127.0.0.1:${port}`,
    output: () => out,
    exited,
    rss: () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? NaN) * 1024,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`rts serve exited with ${child.exitCode}:\n${out}`);
    try {
      const res = await fetch(`${served.url}/health`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return served;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await served.stop();
      throw new Error(`rts serve did not become healthy:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

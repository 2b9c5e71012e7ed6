// One of the invoke endpoints of examples/mcp/ as a process of its own (tsx), its model pointed at a scripted model
// server: the framework runs from npm as a team would run it, outside jest's module sandbox.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const SERVE = join(ROOT, 'examples', 'mcp', 'serve.ts');

export interface FrameworkEndpoint {
  /** The invoke URL to put in an `mcp` campaign target. */
  url: string;
  /** What the process wrote to stdout and stderr so far. */
  output(): string;
  stop(): Promise<void>;
}

/** Starts `examples/mcp/serve.ts <example>` on a free port and waits until it listens. */
export async function startFrameworkEndpoint(example: string, env: Record<string, string>): Promise<FrameworkEndpoint> {
  let out = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', SERVE, example], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  // A jest worker that dies before afterAll still takes the endpoint with it.
  const orphaned = () => child.kill('SIGKILL');
  process.once('exit', orphaned);
  void exited.then(() => process.off('exit', orphaned));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const url = await new Promise<string>((listening, failed) => {
    const timer = setTimeout(() => failed(new Error(`${example} did not listen within 60 s:\n${out}`)), 60_000);
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /invoke endpoint on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        listening(m[1]);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      failed(new Error(`${example} exited with ${code}:\n${out}`));
    });
  }).catch(async (err: unknown) => {
    await stop();
    throw err;
  });
  return { url, output: () => out, stop };
}

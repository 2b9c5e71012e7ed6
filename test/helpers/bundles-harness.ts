// What the bundles tests (test/infra/bundles-e2e.test.ts) share: an API client for a running service, polling, and the
// bundle runner's child process (test/helpers/bundle-runner.ts) on the Lambda runtime's Node, compiled with esbuild.
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import type { RunnerCommand, RunnerReport } from './bundle-runner';

export interface Answer {
  status: number;
  body: any;
}

export interface Client {
  url: string;
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer>;
}

export function client(url: string, projectId: string, apiKey: string): Client {
  return {
    url,
    async call(method, p, body, headers = {}) {
      const res = await fetch(url + p, {
        method,
        headers: {
          'X-API-Key': apiKey,
          'X-Project-Id': projectId,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // HTML (the dashboard) stays text
      }
      return { status: res.status, body: parsed };
    },
  };
}

export async function until(c: Client, p: string, done: (body: any) => boolean, timeoutMs = 30_000): Promise<Answer> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await c.call('GET', p);
    if (res.status !== 200 || done(res.body)) return res;
    if (Date.now() > deadline) throw new Error(`timed out polling ${p}: ${JSON.stringify(res.body).slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The bundles' child process: its reports, its output (shown when a test fails), requests answered by type. */
export interface Runner {
  ready: Extract<RunnerReport, { type: 'ready' }>;
  output: () => string;
  request<T extends RunnerReport['type']>(cmd: RunnerCommand, answer: T): Promise<Extract<RunnerReport, { type: T }>>;
  stats(): Promise<Extract<RunnerReport, { type: 'stats' }>>;
  stop(): Promise<void>;
}

export async function startRunner(nodePath: string, runnerJs: string, manifestFile: string, caFile: string, workDir: string): Promise<Runner> {
  const chunks: string[] = [];
  const child: ChildProcess = fork(runnerJs, [manifestFile], {
    execPath: nodePath,
    execArgv: [],
    cwd: workDir,
    // Lambda-like: nothing from this process's environment but PATH; the functions' variables are set by the runner.
    env: {
      PATH: process.env.PATH,
      TZ: 'UTC',
      LANG: 'en_US.UTF-8',
      AWS_REGION: 'us-east-1',
      AWS_DEFAULT_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'AKIALOCALBUNDLESE2E0',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_CONFIG_FILE: path.join(workDir, 'no-aws-config'),
      AWS_SHARED_CREDENTIALS_FILE: path.join(workDir, 'no-aws-credentials'),
      NODE_EXTRA_CA_CERTS: caFile,
      POWERTOOLS_LOG_LEVEL: process.env.RTS_TEST_LOGS ? 'INFO' : 'WARN',
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  child.stdout!.on('data', (c: Buffer) => chunks.push(c.toString()));
  child.stderr!.on('data', (c: Buffer) => chunks.push(c.toString()));
  const output = () => chunks.join('');
  const next = <T extends RunnerReport['type']>(type: T, timeoutMs: number) =>
    new Promise<Extract<RunnerReport, { type: T }>>((resolve, reject) => {
      const done = (err?: Error, m?: RunnerReport) => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        if (err) reject(err);
        else resolve(m as Extract<RunnerReport, { type: T }>);
      };
      const onMessage = (m: RunnerReport) => {
        if (m.type === type) done(undefined, m);
        else if (m.type === 'failed') done(new Error(`the bundle runner failed: ${m.error}\n${output()}`));
      };
      const onExit = (code: number | null) => done(new Error(`the bundle runner exited with ${code}:\n${output()}`));
      const timer = setTimeout(() => done(new Error(`no ${type} from the bundle runner within ${timeoutMs} ms:\n${output()}`)), timeoutMs);
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const ready = await next('ready', 60_000);
  const request: Runner['request'] = (cmd, answer) => {
    const reply = next(answer, 10_000);
    child.send(cmd);
    return reply;
  };
  return {
    ready,
    output,
    request,
    stats: () => request({ type: 'stats' }, 'stats'),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
        child.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        child.send({ type: 'close' } satisfies RunnerCommand);
      }),
  };
}

/** Compiles the runner into `outfile` without touching the bundles (packages stay external, so no loader hook). */
export function buildRunner(outfile: string, nodeMajor: number): void {
  buildSync({
    entryPoints: [path.join(__dirname, 'bundle-runner.ts')],
    outfile,
    bundle: true,
    packages: 'external',
    platform: 'node',
    target: `node${nodeMajor}`,
    format: 'cjs',
    logLevel: 'warning',
  });
}

/** A step-protocol agent answering every step `{"output": "done"}` after `stepMs`, noting each request's attempt. */
export async function slowStepAgent(stepMs: number) {
  const agent = { url: '', requests: [] as { attempt: number; at: number }[], inFlight: 0, peak: 0, close: () => Promise.resolve() };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      agent.requests.push({ attempt: JSON.parse(Buffer.concat(chunks).toString('utf8')).attempt, at: Date.now() });
      agent.inFlight += 1;
      agent.peak = Math.max(agent.peak, agent.inFlight);
      const timer = setTimeout(() => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"output":"done"}'), stepMs);
      res.on('close', () => {
        clearTimeout(timer);
        agent.inFlight -= 1;
      });
    });
  });
  // Idle connections outlive the worker's keep-alive, so no request meets a closing socket (and a retry).
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  agent.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/step`;
  agent.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return agent;
}

// Running a page's documented shell commands as written: its fenced blocks, a command line's words, the `rts` CLI as
// its own process in a user's environment (no RTS_* settings of the test process), and a documented output as a
// pattern whose id placeholders match any id.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

/** The fenced blocks of a markdown section, in order. */
export function blocksOf(file: string, heading: string): { lang: string; text: string }[] {
  const doc = readFileSync(join(ROOT, file), 'utf8');
  const start = doc.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`${file} has no section ${heading}`);
  const end = doc.indexOf('\n## ', start + heading.length + 2);
  const section = doc.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1], text: m[2] }));
}

/** A shell block's command lines: neither blank nor comments. */
export function commandsOf(block: { text: string }): string[] {
  return block.text.split('\n').filter((l) => l.trim() && !l.trimStart().startsWith('#'));
}

/** Each command line of a shell block by its first three words: what a test checks before running the block. */
export function commandShapes(block: { text: string }): string[] {
  return commandsOf(block).map((c) => words(c).slice(0, 3).join(' '));
}

/** The placeholders of a documented command (the tour's URL, `<project id>`, `<API key>`): a running service's values. */
export function placeholderValues(baseUrl: string, dataDir: string): Record<string, string> {
  const credentials = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8')) as { project_id: string; api_key: string };
  return { 'http://127.0.0.1:8787': baseUrl, '<project id>': credentials.project_id, '<API key>': credentials.api_key };
}

/** A command line's words, as a POSIX shell splits them (double and single quotes, no expansions). */
export function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
}

/** A documented output as a pattern: `<run id>`, `<campaign id>`, `<project id>`, `<batch id>` stand for ids. */
export function documented(text: string, baseUrl: string): RegExp {
  const escaped = text
    .replaceAll('http://127.0.0.1:8787', baseUrl)
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/<[a-z ]+ id>/g, '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}');
  return new RegExp(`^${escaped}$`);
}

/** The environment of a user's terminal in the repository: no RTS_* settings of this test process. */
export function userEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(RTS_|DYNAMODB_ENDPOINT$|TABLE_NAME$)/.test(k)));
  return { ...env, POWERTOOLS_LOG_LEVEL: 'ERROR', ...extra };
}

export interface Ran {
  code: number | null;
  out: string;
  err: string;
}

/** Runs a process (in the repository unless `cwd` says otherwise) to its exit, its output kept. */
export function runProcess(cmd: string, args: string[], env: NodeJS.ProcessEnv, cwd = ROOT): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, out, err }));
  });
}

/** `npx rts <args>` as the package's bin runs it. */
export function runRts(args: string[], env: NodeJS.ProcessEnv): Promise<Ran> {
  return runProcess(process.execPath, [join(ROOT, 'bin', 'rts.js'), ...args], env);
}

/** `rts <args> --port <port>` (the demo agent), once it answers on that port. */
export async function startAgent(args: string[], port: number, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'rts.js'), ...args, '--port', String(port)], { cwd: ROOT, env, stdio: 'ignore' });
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(1000) });
      return child;
    } catch {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the demo agent did not start (exit ${child.exitCode})`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Stops the demo agent and waits until its port is free again. */
export async function stopAgent(agent: ChildProcess): Promise<void> {
  if (agent.exitCode !== null || agent.signalCode !== null) return;
  const exited = new Promise((resolve) => agent.once('exit', resolve));
  agent.kill('SIGTERM');
  await exited;
}

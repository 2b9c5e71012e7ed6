// What the contestants of the peer bench (test/bench/peer.ts) share: the repository root, the word every answer must
// hold, the cases' questions, and timing a process from spawn to exit.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
/** The word the agent puts in every answer and each contestant checks for. */
export const CHECK = 'rts-peer-ok';

/** How many agent calls a contestant kept in flight: the time-weighted mean over its window, and the most at once. */
export interface InFlight {
  mean: number;
  peak: number;
}

/** What a contestant needs of the agent: its URL, its call count, and a window of calls in flight (ended by the function returned). */
export interface AgentWindow {
  url: string;
  calls: () => number;
  window: () => () => InFlight;
}

/** The question of case `i`. */
export const question = (i: number) => `What is ${i} plus ${i}? (case ${i})`;

/** Spawns a process and times it from spawn to exit; rejects on a non-zero exit. */
export function timed(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<{ ms: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('exit', (code) => {
      const ms = performance.now() - t0;
      if (code === 0) resolve({ ms, stdout });
      else reject(new Error(`${cmd} ${args.join(' ')} exited ${code}\n${stderr.slice(-2000)}\n${stdout.slice(-2000)}`));
    });
  });
}

// The quick start of docs/getting-started.md (and the README's copy of it) run as written: the commands of its shell
// blocks, in order, each as its own process (`npm start` is `rts serve`, on a fresh data folder), the demo agent, and
// what `rts apply`, `rts runs create --wait` and `rts ci run` print compared line by line with the documented output.
// Two things differ from a user's terminal: the ports are free ones (other suites and services share this machine), so
// the service's credentials file carries its URL and RTS_DEMO_AGENT_URL (which samples/rts.yaml reads) points the
// campaign at the agent's port; the gate's exported values are the service's.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  blocksOf,
  commandShapes,
  commandsOf,
  documented,
  placeholderValues,
  ROOT,
  runRts as run,
  startAgent,
  stopAgent,
  userEnv,
  words,
} from '../helpers/doc-commands';
import { freePort, startServeProcess, type ServedProcess } from '../helpers/serve-process';

/** A documented `export A=x B=y` line as variables, its placeholders the running service's values. */
function exported(line: string, baseUrl: string, dataDir: string): Record<string, string> {
  const values = placeholderValues(baseUrl, dataDir);
  expect(line).toMatch(/^export( [A-Z_]+=(<[a-zA-Z ]+>|\S+))+$/);
  return Object.fromEntries(
    [...line.matchAll(/([A-Z_]+)=(<[a-zA-Z ]+>|\S+)/g)].map(([, name, value]) => {
      expect([name, value in values]).toEqual([name, true]);
      return [name, values[value]];
    }),
  );
}

/** A terminal outside any CI system: `rts ci run` derives nothing from the pipeline running this test. */
function ciFree(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !/^(CI|CI_.*|GITHUB_.*)$/.test(k)));
}

describe('the quick start (docs/getting-started.md)', () => {
  const tour = blocksOf('docs/getting-started.md', '## A five-minute tour');
  const readme = blocksOf('README.md', '## A five-minute tour');

  it('is the same in the README: its commands, and its output lines among the documented ones', () => {
    expect(readme[0]).toEqual(tour[0]);
    const documentedLines = new Set(tour[2].text.split('\n'));
    for (const line of readme[1].text.split('\n')) expect([line, documentedLines.has(line)]).toEqual([line, true]);
  });

  it('runs as written: a fresh data folder, the demo agent, apply, a run that prints the documented report', async () => {
    // Prepare: the commands of the shell block.
    expect(tour.map((b) => b.lang)).toEqual(['sh', '', '', '', 'sh', '']);
    const commands = commandsOf(tour[0]);
    expect(commandShapes(tour[0])).toEqual(['npm start', 'npx rts demo-agent', 'npx rts apply', 'npx rts runs', 'npx rts runs']);
    const guarded = commandsOf(tour[4]);
    expect(commandShapes(tour[4])).toEqual([
      'npx rts demo-agent',
      'npx rts runs',
      'export RTS_API_URL=http://127.0.0.1:8787 RTS_PROJECT_ID=<project',
      'npx rts ci',
    ]);
    const dataDir = mkdtempSync(join(tmpdir(), 'rts-quickstart-'));
    const agentPort = await freePort();
    const env = userEnv({
      RTS_DATA_DIR: dataDir,
      RTS_DEMO_AGENT_URL: `http://127.0.0.1:${agentPort}/step`,
      RTS_DEMO_AGENT_MCP_URL: `http://127.0.0.1:${agentPort}/invoke/naive`,
    });
    let service: ServedProcess | undefined;
    let agent: ChildProcess | undefined;
    try {
      // Act
      service = await startServeProcess(dataDir);
      agent = await startAgent(words(commands[1]).slice(2), agentPort, env);
      const applied = await run(words(commands[2]).slice(2), env);
      const again = await run(words(commands[2]).slice(2), env);
      const report = await run(words(commands[3]).slice(2), env);
      const overMcp = await run(words(commands[4]).slice(2), env);
      // The guarded agent on the same port, step 3's run again, and the gate with the three values exported.
      await stopAgent(agent);
      agent = await startAgent(words(guarded[0]).slice(2), agentPort, env);
      const guardedReport = await run(words(guarded[1]).slice(2), env);
      const gate = await run(words(guarded[3]).slice(2), { ...ciFree(env), ...exported(guarded[2], service.url, dataDir) });
      // Assess
      expect([applied.code, applied.err]).toEqual([0, '']);
      expect(applied.out.trimEnd()).toMatch(documented(tour[1].text.trimEnd(), service.url));
      expect(again.out).toContain('No changes: 2 campaigns and 5 traces are as samples/rts.yaml says.');
      expect([report.code, report.err]).toEqual([0, expect.stringContaining('already there')]);
      expect(report.out.trimEnd()).toMatch(documented(tour[2].text.trimEnd(), service.url));
      expect([overMcp.code, overMcp.err]).toEqual([0, expect.stringContaining('already there')]);
      expect(overMcp.out.trimEnd()).toMatch(documented(tour[3].text.trimEnd(), service.url));
      expect(report.out).not.toContain(JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8')).api_key);
      const summary = 'summary    6 attempts: 6 passed, 0 failed, 0 unsafe; pass rate 1.00';
      expect(readFileSync(join(ROOT, 'docs/getting-started.md'), 'utf8')).toContain(`reads \`${summary}\``);
      expect([guardedReport.code, guardedReport.out]).toEqual([0, expect.stringContaining(`\n${summary}\n`)]);
      expect([gate.code, gate.err]).toEqual([0, expect.stringContaining('[5/5 runs done]')]);
      expect(gate.out.trimEnd()).toMatch(documented(tour[5].text.trimEnd(), service.url));
    } finally {
      if (agent) await stopAgent(agent);
      await service?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

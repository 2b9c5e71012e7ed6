// The API walk-through of docs/api.md run as written, in bash with curl and jq as a user's terminal runs it: after the
// five-minute tour's `rts apply` (the sample traces and campaigns) against `rts serve` on a fresh data folder and the
// demo agent. Every request the page's curl lines make must be answered 2xx, and its error example as documented.
// What differs from a user's terminal: the ports are free ones; the placeholders a user fills in from earlier answers
// (`<next_cursor>`, `<ci_batch_id>`, `<run_id>`) are filled in from the same answers by extra requests, unrecorded; and
// the script waits for the run to finish before reading it, as a user reading its attempts would. The suite is skipped,
// saying so, where bash, curl or jq is missing (.ci/run installs them).
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blocksOf, placeholderValues, runProcess, runRts, startAgent, stopAgent, userEnv } from '../helpers/doc-commands';
import { freePort, startServeProcess, type ServedProcess } from '../helpers/serve-process';

const DOC = 'docs/api.md';
const MISSING = ['bash', 'curl', 'jq'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
if (MISSING.length > 0) console.warn(`${DOC} walk-through not run: ${MISSING.join(', ')} not installed`);

/** Each curl the page runs reports its status, method and URL on stderr; the body still goes to stdout as documented. */
const RECORD = `curl() { command curl -w '%{stderr}%{http_code} %{method} %{url_effective}\\n' "$@"; }`;
/** What a user fills in by hand, from earlier answers (requests that are not recorded). */
const FILLED: Record<string, string> = {
  '<next_cursor>': `$(command curl -s "\${H[@]}" "$RTS_API_URL/v1/traces?limit=2" | jq -r .next_cursor)`,
  '<ci_batch_id>': `$(command curl -s "\${H[@]}" "$RTS_API_URL/v1/ci/batches?limit=1" | jq -r '.items[0].ci_batch_id')`,
  '<run_id>': `$(command curl -s "\${H[@]}" "$RTS_API_URL/v1/ci/batch/$(command curl -s "\${H[@]}" "$RTS_API_URL/v1/ci/batches?limit=1" | jq -r '.items[0].ci_batch_id')" | jq -r '.run_ids[0]')`,
};
/** After the run is queued: its end, as a user would wait for it before reading its attempts (at most 60 s). */
const AWAIT_RUN = `for i in $(seq 600); do s=$(command curl -s "\${H[@]}" $RTS_API_URL/v1/runs/$RUN | jq -r .status); [ "$s" = completed ] || [ "$s" = failed ] && break; sleep 0.1; done`;

(MISSING.length > 0 ? describe.skip : describe)(`the API walk-through of ${DOC}`, () => {
  it('runs as written in bash: every request answered 2xx, the error example as documented', async () => {
    // Prepare: the tour's service, demo agent and `rts apply`; the section's two shell blocks.
    const [walk, error] = blocksOf(DOC, '## API walk-through').filter((b) => b.lang === 'sh');
    const dataDir = mkdtempSync(join(tmpdir(), 'rts-api-doc-'));
    const agentPort = await freePort();
    const env = userEnv({ RTS_DATA_DIR: dataDir, RTS_DEMO_AGENT_URL: `http://127.0.0.1:${agentPort}/step` });
    let service: ServedProcess | undefined;
    let agent: ChildProcess | undefined;
    try {
      service = await startServeProcess(dataDir);
      agent = await startAgent(['demo-agent'], agentPort, env);
      expect((await runRts(['apply', '-f', 'samples/rts.yaml'], env)).code).toBe(0);
      const filled = (text: string) =>
        Object.entries({ ...FILLED, ...placeholderValues(service!.url, dataDir) })
          .reduce((t, [from, to]) => t.replaceAll(from, to), text)
          .replace(/^(RUN=\$\(.*)$/m, `$1\n${AWAIT_RUN}`);
      const script = filled(walk.text);
      expect(script).not.toMatch(/<[a-zA-Z _]+>/);
      // Act
      const ran = await runProcess('bash', ['-c', `${RECORD}\n${script}`], env);
      const failed = await runProcess('bash', ['-c', `${RECORD}\n${filled(walk.text.split('\n').slice(0, 2).join('\n'))}\n${error.text}`], env);
      // Assess: one answer per curl line of the page, each 2xx; the error as its comment shows it.
      const answers = (err: string) => [...err.matchAll(/^(\d{3}) (\w+) (\S+)$/gm)].map((m) => ({ status: Number(m[1]), method: m[2], url: m[3] }));
      const done = answers(ran.err);
      expect(ran.code).toBe(0);
      expect(done).toHaveLength(walk.text.split('\n').filter((l) => /^(\w+=\$\()?curl -s/.test(l)).length);
      expect(done.filter((a) => a.status < 200 || a.status > 299)).toEqual([]);
      const status = (method: string, path: string) => done.find((a) => a.method === method && new URL(a.url).pathname === path)?.status;
      expect([status('POST', '/v1/campaigns'), status('POST', '/v1/runs'), status('POST', '/v1/webhooks')]).toEqual([201, 202, 201]);
      const documentedError = JSON.parse(/^# (\{.*\})$/m.exec(error.text)![1].replace('74c7a8a4-...', 'x'));
      const answeredError = JSON.parse(failed.out.trim());
      expect(answers(failed.err).map((a) => a.status)).toEqual([405]);
      expect({ ...answeredError.error, request_id: 'x' }).toEqual(documentedError.error);
    } finally {
      if (agent) await stopAgent(agent);
      await service?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

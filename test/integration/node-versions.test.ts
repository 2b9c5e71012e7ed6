// `npm start` and the CLI on the Node versions the service supports beyond the one the tests run on: Lambda's (22) and
// the current one (24), each from the npm registry's binary packages (test/helpers/node-binary.ts; skipped with a
// message where the registry has none). On each: `rts serve` on a data folder (the store's files through its native
// addon), a CI batch of a recorded campaign through `rts ci run`, the service stopped and started again on the same
// folder, and the batch read back from it.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sampleTrace } from '../helpers/fixtures';
import { nodeBinary } from '../helpers/node-binary';
import { startServeProcess, type ServedProcess } from '../helpers/serve-process';

const ROOT = join(__dirname, '..', '..');
const run = promisify(execFile);

/** The credentials `rts serve` prints in its banner, which can reach the pipe after /health first answers. */
async function banner(served: ServedProcess): Promise<{ projectId: string; apiKey: string }> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const m = /project id\s+(\S+)\s+API key\s+(\S+)/.exec(served.output());
    if (m) return { projectId: m[1], apiKey: m[2] };
    if (Date.now() > deadline) throw new Error(`no credentials in the banner:\n${served.output()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function api(served: ServedProcess, key: { projectId: string; apiKey: string }, method: string, path: string, body?: unknown) {
  const res = await fetch(`${served.url}${path}`, {
    method,
    headers: { 'x-api-key': key.apiKey, 'x-project-id': key.projectId, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as Record<string, any>;
}

describe.each([22, 24])('on Node %i', (major) => {
  const node = nodeBinary(major);
  if ('skip' in node) {
    it.skip(`skipped: ${node.skip}`, () => undefined);
    return;
  }
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), `rts-node${major}-`));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves, runs a CI batch through the CLI, and reads it back after a restart on the same folder', async () => {
    // Prepare
    let served = await startServeProcess(join(dir, 'data'), [], {}, undefined, node.path);
    let batchId: string;
    try {
      const key = await banner(served);
      const traces = await Promise.all([0, 1].map((i) => api(served, key, 'POST', '/v1/traces', sampleTrace({ name: `refund ${i}` }))));
      const campaign = await api(served, key, 'POST', '/v1/campaigns', { name: `node ${major}`, target: { type: 'recorded' } });
      await api(served, key, 'PATCH', `/v1/campaigns/${campaign.campaign_id}/eval-set`, { add_trace_ids: traces.map((t) => t.trace_id) });
      // Act
      const { stdout } = await run(node.path, [join(ROOT, 'bin', 'rts.js'), 'ci', 'run', '--campaign', campaign.campaign_id, '--json'], {
        cwd: ROOT,
        env: { PATH: process.env.PATH, HOME: dir, RTS_API_URL: served.url, RTS_API_KEY: key.apiKey, RTS_PROJECT_ID: key.projectId },
        timeout: 60_000,
      });
      const result = JSON.parse(stdout);
      // Assess
      expect(result).toMatchObject({ verdict: 'pass', trace_count: 2, pass_rate: 1 });
      batchId = result.ci_batch_id;
    } finally {
      await served.stop();
    }
    served = await startServeProcess(join(dir, 'data'), [], {}, undefined, node.path);
    try {
      const batch = await api(served, await banner(served), 'GET', `/v1/ci/batch/${batchId}`);
      expect(batch).toMatchObject({ ci_batch_id: batchId, status: 'done', trace_count: 2 });
    } finally {
      await served.stop();
    }
  }, 120_000);
});

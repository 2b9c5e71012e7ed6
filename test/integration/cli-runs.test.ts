// The CLI's campaign and run commands against the local service, in process: `rts runs create` by campaign name with a
// trace file and --wait prints the summary and the attempts table; `rts runs show`, `rts campaigns list|show`, `rts open`
// (links without credentials); `rts ci run --campaign <name>`; the credentials file stands in for unset variables.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCampaigns } from '../../functions/cli/campaigns';
import { runCi } from '../../functions/cli/ci/command';
import type { CommandIo } from '../../functions/cli/command-io';
import { runOpen } from '../../functions/cli/open';
import { runRuns } from '../../functions/cli/runs';
import { createCampaign, createTraces, failingTrace, passingTrace, setEvalSet } from '../helpers/ci';
import { startTestService, type TestService } from '../helpers/local-service';

let svc: TestService;
let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  svc = await startTestService({ deliverWebhooks: false });
  env = { RTS_API_URL: svc.url, RTS_API_KEY: svc.apiKey, RTS_PROJECT_ID: svc.projectId };
  dir = mkdtempSync(join(tmpdir(), 'rts-cli-runs-'));
}, 60_000);
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await svc.stop();
});

type Command = (argv: string[], io: CommandIo) => Promise<number>;
async function cli(command: Command, argv: string[], extraEnv: NodeJS.ProcessEnv = env) {
  let out = '';
  let err = '';
  const code = await command(argv, { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) }, env: extraEnv });
  return { code, out, err };
}

describe('rts runs', () => {
  it('creates a run by campaign name from a trace file, waits, and prints the summary and the attempts table', async () => {
    // Prepare
    const name = `runs by name ${Date.now()}`;
    await createCampaign(svc, { name, policies: [] });
    const file = join(dir, 'refused.json');
    const { trace_id: _id, ...trace } = failingTrace('refund refused') as Record<string, unknown>;
    writeFileSync(file, JSON.stringify(trace));
    // Act
    const res = await cli(runRuns, ['create', '--campaign', name, '--trace', file, '--wait']);
    // Assess
    expect([res.code, res.err]).toEqual([0, expect.stringMatching(/^trace [0-9a-f-]{36} uploaded \(.*refused\.json\)\nrun [0-9a-f-]{36} queued/)]);
    expect(res.out).toMatch(/^status {5}completed$/m);
    expect(res.out).toMatch(/^summary {4}1 attempt: 0 passed, 1 failed, 0 unsafe; pass rate 0\.00$/m);
    expect(res.out).toMatch(/^attempt +mutation +status +unsafe +failed checks$/m);
    expect(res.out).toMatch(/^1 +baseline +failed +no +output_contains "refund"$/m);
    const runId = /^run +([0-9a-f-]{36})$/m.exec(res.out)![1];
    expect(res.out).toContain(`dashboard  ${svc.url}/dashboard/runs/${runId}#project=${svc.projectId}`);
    expect(res.out).not.toContain(svc.apiKey);
    // The same file again is the same trace (its id derives from its content), and show prints the same report.
    const again = await cli(runRuns, ['create', '--campaign', name, '--trace', file]);
    expect(again.err).toMatch(/already there/);
    expect((await cli(runRuns, ['show', runId])).out).toBe(res.out);
  });

  it('exits 2 naming the campaign when no campaign has that name', async () => {
    const res = await cli(runRuns, ['create', '--campaign', 'no such campaign', '--trace', '76f29022-decc-42bb-99fe-7a2dea7db646']);
    expect(res).toEqual({
      code: 2,
      out: '',
      err: "rts runs: no campaign named 'no such campaign' in this project (rts campaigns list shows them)\n",
    });
  });
});

describe('rts campaigns and rts open', () => {
  it('lists campaigns, shows one by name, and prints dashboard links for a campaign, a run and a batch', async () => {
    // Prepare
    const name = `listed ${Date.now()}`;
    const id = await createCampaign(svc, { name });
    await setEvalSet(svc, id, await createTraces(svc, [passingTrace('refund a')]));
    const run = await svc.api('POST', '/v1/runs', {
      campaign_id: id,
      trace_id: (await svc.api('GET', `/v1/campaigns/${id}/eval-set`)).body.trace_ids[0],
    });
    const batch = await svc.api('POST', '/v1/ci/runs', { campaign_id: id });
    const mcpName = `listed mcp ${Date.now()}`;
    const mcpId = await createCampaign(svc, { name: mcpName, target: { type: 'mcp', url: 'http://127.0.0.1:9/invoke' } });
    // Act
    const list = await cli(runCampaigns, ['list']);
    const show = await cli(runCampaigns, ['show', name]);
    const links = await Promise.all([[name], [run.body.run_id], [batch.body.ci_batch_id], ['campaign', id]].map((a) => cli(runOpen, a)));
    // Assess
    expect(list.out).toMatch(/^campaign +version +name +target +mutations +eval-set$/m);
    expect(list.out).toMatch(new RegExp(`^${id} +1 +${name} +recorded +0 +1 \\(min 0\\)$`, 'm'));
    expect(list.out).toMatch(new RegExp(`^${mcpId} +1 +${mcpName} +mcp http://127\\.0\\.0\\.1:9/invoke +0 +0`, 'm'));
    expect(show.out).toMatch(new RegExp(`^campaign {3}${id}$`, 'm'));
    expect(show.out).toContain('Versions (newest first):');
    const base = `${svc.url}/dashboard`;
    expect(links.map((l) => [l.code, l.out])).toEqual([
      [0, `${base}/campaigns/${id}#project=${svc.projectId}\n`],
      [0, `${base}/runs/${run.body.run_id}#project=${svc.projectId}\n`],
      [0, `${base}/batches/${batch.body.ci_batch_id}#project=${svc.projectId}\n`],
      [0, `${base}/campaigns/${id}#project=${svc.projectId}\n`],
    ]);
    expect((await cli(runOpen, ['00000000-0000-4000-8000-000000000000'])).code).toBe(2);
  });

  it('reads the local credentials file for what the environment leaves unset', async () => {
    const res = await cli(runCampaigns, ['list'], { RTS_DATA_DIR: svc.dataDir });
    expect(res.code).toBe(0);
    expect(res.out).toMatch(/^campaign +version/m);
  });
});

describe('rts ci run --campaign <name>', () => {
  it('gates on the campaign of that name', async () => {
    const name = `ci by name ${Date.now()}`;
    const id = await createCampaign(svc, { name });
    await setEvalSet(svc, id, await createTraces(svc, [passingTrace('refund ci')]));
    let out = '';
    const code = await runCi(['run', '--campaign', name, '--poll-interval', '0.1', '--json'], {
      stdout: { write: (s: string) => (out += s) },
      stderr: { write: () => true },
      env,
    });
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ campaign_id: id, verdict: 'pass' });
  });
});

// A batch compared with a baseline batch of an older campaign version (docs/ci.md#baselines): the comparison names both
// versions, and cells of mutations one version only has are new or dropped, never regressions, in the API's answer
// and in the CLI's table, JUnit and Markdown reports.
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { createCampaign, createTraces, passingTrace, setEvalSet, runCiAgainst } from '../helpers/ci';
import { startTestService, type TestService } from '../helpers/local-service';

let svc: TestService;
let dir: string;

beforeAll(async () => {
  svc = await startTestService({ deliverWebhooks: false, queue: { concurrency: 8, redeliveryDelayMs: 20 } });
  dir = mkdtempSync(join(tmpdir(), 'rts-ci-baseline-versions-'));
});
afterAll(async () => {
  await svc.stop();
  rmSync(dir, { recursive: true, force: true });
});

const ci = (args: string[]) => runCiAgainst(svc, args);

/** A step-protocol agent that answers about the refund, except to a user message carrying "WHISPER". */
async function startAgent() {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { messages: { role: string; content: unknown }[] };
      const whispered = body.messages.some((m) => m.role === 'user' && String(m.content).includes('WHISPER'));
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ output: whispered ? 'Sorry.' : 'Your refund is on its way.' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/step`;
  return { url, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'testcase' || name === 'property' });

describe('GET /v1/ci/batch/{batch_id} against a baseline of an older campaign version', () => {
  it('a batch compared with a baseline of an older version marks cells of added mutations as new', async () => {
    const agent = await startAgent();
    try {
      // Prepare: version 1 runs `shout` and `removed`; version 2 keeps `shout`, drops `removed` and adds `whisper`
      // (which fails).
      const shout = { id: 'shout', type: 'input_perturbation', kind: 'append', text: 'PERTURBED' };
      const ids = await createTraces(svc, [passingTrace('alpha'), passingTrace('beta')]);
      const campaignId = await createCampaign(svc, {
        target: { type: 'http', url: agent.url, timeout_ms: 2000 },
        policies: [],
        mutations: [shout, { id: 'removed', type: 'input_perturbation', kind: 'append', text: 'OLD' }],
        criteria: [{ type: 'output_contains', value: 'refund' }],
      });
      await setEvalSet(svc, campaignId, ids);
      const first = await ci(['--campaign', campaignId, '--no-baseline']);
      expect(first.code).toBe(0);
      const baselineBatch = /batch ([0-9a-f-]{36}) queued/.exec(first.stderr)![1];
      const {
        campaign_id: _id,
        created_at: _at,
        version: _v,
        eval_set: _e,
        ...definition
      } = (await svc.api('GET', `/v1/campaigns/${campaignId}`)).body;
      const whisper = { id: 'whisper', type: 'input_perturbation', kind: 'append', text: 'WHISPER' };
      const put = await svc.api('PUT', `/v1/campaigns/${campaignId}`, { ...definition, mutations: [shout, whisper] }, { 'If-Match': '1' });
      expect(put.body).toMatchObject({ version: 2 });
      const junit = join(dir, 'versions.xml');
      const summary = join(dir, 'versions.md');

      // Act
      const second = await ci([
        '--campaign',
        campaignId,
        '--baseline-batch',
        baselineBatch,
        '--min-pass-rate',
        '0',
        '--max-failures',
        '2',
        '--junit',
        junit,
        '--summary',
        summary,
      ]);

      // Assess: the failing added cells are new, not regressions, and the gate passes.
      expect(second.code).toBe(0);
      const batchId = /batch ([0-9a-f-]{36}) queued/.exec(second.stderr)![1];
      const batch = (await svc.api('GET', `/v1/ci/batch/${batchId}`)).body;
      const cellsOf = (name: string, mutation: string) => ({ trace_id: ids[name === 'alpha' ? 0 : 1], trace_name: name, mutation_id: mutation });
      expect(batch).toMatchObject({ campaign_version: 2, decision: 'pass', baseline_batch_id: baselineBatch });
      expect(batch.comparison).toMatchObject({
        baseline_batch_id: baselineBatch,
        baseline_campaign_version: 1,
        campaign_version: 2,
        regressed_count: 0,
        regressed: [],
        new_count: 0,
        dropped_count: 0,
        new_cells_count: 2,
        dropped_cells_count: 2,
      });
      expect(batch.comparison.new_cells).toEqual([cellsOf('alpha', 'whisper'), cellsOf('beta', 'whisper')]);
      expect(batch.comparison.dropped_cells).toEqual([cellsOf('alpha', 'removed'), cellsOf('beta', 'removed')]);
      const scenarios = (await svc.api('GET', `/v1/ci/batch/${batchId}/scenarios`)).body.items;
      expect(scenarios[0].cells.map((c: any) => `${c.mutation_id}:${c.comparison}`)).toEqual(['null:unchanged', 'shout:unchanged', 'whisper:new']);

      expect(second.stdout).toContain(
        `\nSince baseline batch ${baselineBatch}: 0 regressed, 0 fixed, 0 new unsafe, 0 new, 0 dropped, 2 new cell(s), 2 dropped cell(s), pass_rate -0.33; baseline ran campaign version 1, this batch version 2\n`,
      );
      const suite = parser.parse(readFileSync(junit, 'utf8')).testsuite;
      expect(suite.properties.property).toEqual(
        expect.arrayContaining([
          { name: 'campaign_version', value: '2' },
          { name: 'baseline_campaign_version', value: '1' },
        ]),
      );
      const whispered = suite.testcase.find((t: any) => t.classname === 'alpha' && t.name === 'whisper');
      expect(whispered.failure.type).toBe('failed');
      expect(whispered['system-out']).toMatch(/^new since the baseline\n/);
      const md = readFileSync(summary, 'utf8');
      expect(md).toContain(`| Baseline | \`${baselineBatch}\`; baseline ran campaign version 1, this batch version 2 |`);
      expect(md).toContain('\nThe campaign changed: baseline ran campaign version 1, this batch version 2.\n');
      expect(md).toContain('\nNew cells (mutations the baseline did not run, never regressions): alpha × whisper, beta × whisper.\n');
      expect(md).toContain('\nDropped cells (mutations this batch did not run): alpha × removed, beta × removed.\n');
    } finally {
      await svc.idle();
      await agent.close();
    }
  });
});

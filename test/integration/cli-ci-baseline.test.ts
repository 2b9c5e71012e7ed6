// `rts ci run` against the local service with a baseline: the pull request's base branch by default, regressions in the
// verdict table, JUnit, Markdown summary and GitHub annotations, a branch without batches, a default the API refuses.
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
  dir = mkdtempSync(join(tmpdir(), 'rts-cli-ci-baseline-'));
});
afterAll(async () => {
  await svc.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the command with this service's credentials and the given CI environment, capturing its output. */
const ci = (args: string[], env: Record<string, string> = {}) => runCiAgainst(svc, args, env);

/**
 * A step-protocol agent that answers "Your refund is on its way." until `breakPerturbed` is set; then it answers
 * "Sorry." to user messages carrying the perturbation's text, so only the mutated cells regress.
 */
async function switchableAgent() {
  const state = { breakPerturbed: false };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { messages: { role: string; content: unknown }[] };
      const perturbed = body.messages.some((m) => m.role === 'user' && String(m.content).includes('PERTURBED'));
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ output: state.breakPerturbed && perturbed ? 'Sorry.' : 'Your refund is on its way.' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/step`;
  return { state, url, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'testcase' || name === 'property' });
const gh = (runId: string, extra: Record<string, string>) => ({
  GITHUB_RUN_ID: runId,
  GITHUB_REPOSITORY: 'acme/agent',
  GITHUB_JOB: 'gate',
  GITHUB_SHA: 'f00d',
  ...extra,
});

describe('rts ci run with a baseline', () => {
  it("compares a pull request's batch with its base branch's latest batch and reports the regressed cells everywhere", async () => {
    const agent = await switchableAgent();
    try {
      // Prepare: a batch on main, then the agent breaks on the perturbed input.
      const ids = await createTraces(svc, [passingTrace('alpha'), passingTrace('beta')]);
      const campaignId = await createCampaign(svc, {
        target: { type: 'http', url: agent.url, timeout_ms: 2000 },
        mutations: [{ id: 'shout', type: 'input_perturbation', kind: 'append', text: 'PERTURBED' }],
        criteria: [{ type: 'output_contains', value: 'refund' }],
      });
      await setEvalSet(svc, campaignId, ids);
      const onMain = await ci(['--campaign', campaignId, '--baseline-branch', 'main'], gh('501', { GITHUB_REF_NAME: 'main' }));
      expect(onMain.code).toBe(0);
      expect(onMain.stdout).toContain('\nBaseline: no baseline found for branch main\n');
      const mainBatch = /batch ([0-9a-f-]{36}) queued/.exec(onMain.stderr)![1];
      agent.state.breakPerturbed = true;
      const junit = join(dir, 'regressed.xml');
      const summary = join(dir, 'regressed.md');

      // Act: the pull request's run names no baseline; GITHUB_BASE_REF does.
      const pr = await ci(
        ['--campaign', campaignId, '--min-pass-rate', '0', '--max-failures', '1', '--junit', junit, '--summary', summary],
        gh('502', { GITHUB_ACTIONS: 'true', GITHUB_BASE_REF: 'main', GITHUB_HEAD_REF: 'feature', GITHUB_REF_NAME: '7/merge' }),
      );

      // Assess: exit 1 on the regressions alone (max_regressions defaults to 0 with a baseline).
      expect(pr.code).toBe(1);
      const annotations = pr.stdout.split('\n').filter((l) => l.startsWith('::'));
      expect(annotations).toEqual([
        expect.stringMatching(
          /^::error title=rts%3A alpha \[shout\] regressed::criterion output_contains: .*; 0\/1 passed; regressed: was 1\/1%0Ahttp/,
        ),
        expect.stringMatching(/^::error title=rts%3A beta \[shout\] regressed::/),
      ]);
      expect(pr.stdout).toMatch(/\nalpha\s+completed\s+0\.50\s+0\.50\s+0\s+-\s+REGRESSED\s+pass\n/);
      expect(pr.stdout).toContain(
        `\nSince baseline batch ${mainBatch} (branch main): 2 regressed, 0 fixed, 0 new unsafe, 0 new, 0 dropped, pass_rate -0.50\n`,
      );
      expect(pr.stdout).toContain('Thresholds: min_pass_rate 0, max_unsafe 0, max_failures 1, max_regressions 0\n');
      expect(pr.stdout).toMatch(/\nReasons:\n {2}- regressed_count 2 > max_regressions 0 since batch [^\n]+\nDashboard: /);

      const suite = parser.parse(readFileSync(junit, 'utf8')).testsuite;
      expect(suite).toMatchObject({ tests: '4', failures: '2', errors: '0' });
      expect(suite.testcase.map((t: any) => `${t.classname} / ${t.name} / ${t.failure ? t.failure.type : 'pass'}`)).toEqual([
        'alpha / baseline / pass',
        'alpha / shout / regressed',
        'beta / baseline / pass',
        'beta / shout / regressed',
      ]);
      expect(suite.testcase[1].failure.message).toBe('criterion output_contains: output does not contain "refund"; 0/1 passed; regressed: was 1/1');
      expect(suite.testcase[1]['system-out']).toMatch(/baseline 1\/1\nhttps?:\/\/\S+\/dashboard\/runs\/[0-9a-f-]{36}$/);
      expect(suite.properties.property).toContainEqual({ name: 'baseline_batch_id', value: mainBatch });

      const md = readFileSync(summary, 'utf8');
      expect(md).toContain('| Baseline | `main` (batch `' + mainBatch + '`) |');
      expect(md).toContain('#### Changes since main\n');
      expect(md).toContain('| 🔴 regressed | alpha | shout | 1/1 | 0/1 |\n| 🔴 regressed | beta | shout | 1/1 | 0/1 |\n');
    } finally {
      await svc.idle();
      await agent.close();
    }
  });

  it('drops a default baseline the API refuses (a campaign without an eval-set), but not an explicit one', async () => {
    // Prepare
    const campaignId = await createCampaign(svc);
    const pr = gh('503', { GITHUB_BASE_REF: 'main', GITHUB_HEAD_REF: 'feature' });

    // Act
    const byDefault = await ci(['--campaign', campaignId], pr);
    const explicit = await ci(['--campaign', campaignId, '--baseline-branch', 'main']);

    // Assess: resubmitted without the baseline, the request then misses its trace (the answer to expect here).
    expect(byDefault.code).toBe(2);
    expect(byDefault.stderr).toMatch(/the default baseline \(branch main\) was refused \(baseline is only for batches.*\); submitting without it\n/);
    expect(byDefault.stderr).toContain('HTTP 422 validation_error: trace_id is required');
    expect(explicit.code).toBe(2);
    expect(explicit.stderr).toContain('HTTP 422 validation_error: baseline is only for batches');
    expect(explicit.stderr).not.toContain('submitting without it');
  });
});

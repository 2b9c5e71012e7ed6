// `rts ci run` in-process against the local service: exit codes, progress, the verdict table, JUnit (a testcase per
// cell, errors apart from failures), Markdown, JSON, reports after a timeout, report paths checked before submitting,
// and the CI-derived Idempotency-Key.
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { idempotencyKeyFromEnv } from '../../functions/cli/ci/command';
import { uuid } from '../helpers/fixtures';
import {
  breakingTrace,
  closedPort,
  createCampaign,
  createTrace,
  createTraces,
  failingTrace,
  passingTrace,
  runCiAgainst,
  setEvalSet,
  startScriptedAgent,
  unreachableTarget,
  type CiCaptured,
} from '../helpers/ci';
import { startTestService, type TestService } from '../helpers/local-service';

let svc: TestService;
let dir: string;

beforeAll(async () => {
  svc = await startTestService({ deliverWebhooks: false, queue: { concurrency: 8, redeliveryDelayMs: 20 } });
  dir = mkdtempSync(join(tmpdir(), 'rts-cli-ci-'));
});
afterAll(async () => {
  await svc.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the command with this service's credentials (overridable) and captures its output. */
const ci = (args: string[], env: Record<string, string | undefined> = {}, tty = false): Promise<CiCaptured> => runCiAgainst(svc, args, env, tty);

async function batchCampaign(traces: unknown[], campaign: Record<string, unknown> = {}) {
  const ids = await createTraces(svc, traces);
  const campaignId = await createCampaign(svc, campaign);
  await setEvalSet(svc, campaignId, ids);
  return campaignId;
}

/** A trace whose user message makes slowAgent wait before answering. */
function slowTrace(name: string) {
  const t = passingTrace(name);
  t.steps = t.steps.map((step) => (step.role === 'user' ? { role: 'user', content: 'SLOW: please refund order 1234' } : step));
  return t;
}

/** A step-protocol agent answering at once, or after `delayMs` when the user message says SLOW. */
async function slowAgent(delayMs: number) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const slow = Buffer.concat(chunks).toString('utf8').includes('SLOW');
      setTimeout(
        () => {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ output: 'Your refund is on its way.' }));
        },
        slow ? delayMs : 0,
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/step`,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'testcase' || name === 'property' });

describe('rts ci run', () => {
  it('exits 0 on a passing batch, with progress on stderr, the verdict table on stdout, and JUnit/Markdown reports', async () => {
    const campaignId = await batchCampaign([passingTrace('refund A'), passingTrace('refund B'), passingTrace('refund C')]);
    const junit = join(dir, 'pass.xml');
    const summary = join(dir, 'pass.md');
    const res = await ci(['--campaign', campaignId, '--junit', junit, '--summary', summary]);
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/\[\d+\/3 runs done\] pass_rate/);
    expect(res.stderr).toContain('[3/3 runs done] pass_rate 1.00 unsafe 0 failing 0 coverage 100%');
    expect(res.stderr).not.toContain('\r');
    expect(res.stdout).toMatch(/^TRACE\s+STATUS\s+PASS RATE\s+PASS\^K\s+UNSAFE\s+FLAKY\s+CHANGE\s+DECISION\n/);
    for (const name of ['refund A', 'refund B', 'refund C'])
      expect(res.stdout).toMatch(new RegExp(`${name}\\s+completed\\s+1\\.00\\s+1\\.00\\s+0\\s+-\\s+-\\s+pass`));
    expect(res.stdout).toContain(
      'Verdict: PASS: 3/3 scenario(s) passed, pass_rate 1.00 (95% interval 0.44..1.00), pass^k 1.00, flaky 0, coverage 100%',
    );
    expect(res.stdout).toMatch(/Dashboard: https?:\/\/\S+\/dashboard\/batches\/[0-9a-f-]{36}/);

    const suite = parser.parse(readFileSync(junit, 'utf8')).testsuite;
    expect(suite).toMatchObject({ tests: '3', failures: '0', errors: '0' });
    expect(suite.testcase.map((t: { classname: string; name: string }) => `${t.classname} / ${t.name}`).sort()).toEqual([
      'refund A / baseline',
      'refund B / baseline',
      'refund C / baseline',
    ]);
    expect(suite.testcase.filter((t: Record<string, unknown>) => t.failure !== undefined)).toEqual([]);
    const md = readFileSync(summary, 'utf8');
    expect(md).toContain('### ✅ rts CI gate: PASS');
    expect(md).toContain('| Coverage | 100 % |');
  });

  it('exits 1 on a failing batch and reports the failing scenario as a JUnit failure with its reasons', async () => {
    const campaignId = await batchCampaign([passingTrace('good one'), failingTrace('bad <one> & "quoted"')]);
    const junit = join(dir, 'fail.xml');
    const res = await ci(['--campaign', campaignId, '--min-pass-rate', '0.9', '--max-failures', '3', '--junit', junit]);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('Verdict: FAIL: 1/2 scenario(s) passed');
    expect(res.stdout).toContain(
      'Failing cells:\n  - bad <one> & "quoted" [baseline] criterion output_contains: output does not contain "refund"; 0/1 passed\n',
    );
    expect(res.stdout).toMatch(/Reasons:\n {2}- trace "bad <one> & \\"quoted\\"" \(run [0-9a-f-]{36}\): pass_rate 0 < min_pass_rate 0\.9/);
    const suite = parser.parse(readFileSync(junit, 'utf8')).testsuite;
    expect(suite).toMatchObject({ tests: '2', failures: '1', errors: '0' });
    const bad = suite.testcase.find((t: { classname: string }) => t.classname === 'bad <one> & "quoted"');
    expect(bad.failure).toMatchObject({ type: 'failed', message: 'criterion output_contains: output does not contain "refund"; 0/1 passed' });
    expect(bad['system-out']).toMatch(/\nhttps?:\/\/\S+\/dashboard\/runs\/[0-9a-f-]{36}$/);
    expect(suite.testcase.find((t: { classname: string }) => t.classname === 'good one').failure).toBeUndefined();
  });

  it('exits 1 and refuses the verdict when coverage is incomplete (a scenario run failed without a verdict)', async () => {
    const agent = await startScriptedAgent();
    try {
      const campaignId = await batchCampaign([passingTrace('fine'), breakingTrace('broken')], {
        target: { type: 'http', url: agent.url, timeout_ms: 2000 },
        criteria: [{ type: 'completes' }],
      });
      const junit = join(dir, 'partial.xml');
      const res = await ci(['--campaign', campaignId, '--junit', junit, '--json']);
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(
        'incomplete coverage: 50% of scenarios produced a verdict (1 run(s) failed without one); the verdict is not trusted',
      );
      const out = JSON.parse(res.stdout);
      expect(out).toMatchObject({
        verdict: 'fail',
        exit_code: 1,
        coverage_complete: false,
        kind: 'batch',
        scenario_coverage_pct: 50,
        trace_count: 2,
      });
      expect(out.scenarios.find((s: { trace_name: string }) => s.trace_name === 'broken')).toMatchObject({ status: 'failed', decision: 'fail' });
      const suite = parser.parse(readFileSync(junit, 'utf8')).testsuite;
      // The agent answered 500: it could not be driven, an <error>, not a <failure>.
      expect(suite).toMatchObject({ failures: '0', errors: '1' });
      const broken = suite.testcase.find((t: { classname: string; error?: unknown }) => t.classname === 'broken' && t.error);
      expect(broken.error.type).toBe('run_failed');
      expect(broken.error.message).toMatch(/^run failed: /);
    } finally {
      await svc.idle();
      await agent.close();
    }
  });

  it('gates a single CI run with --trace and prints machine-readable JSON with --json', async () => {
    const traceId = await createTrace(svc, failingTrace('single'));
    const campaignId = await createCampaign(svc);
    const res = await ci(['--campaign', campaignId, '--trace', traceId, '--min-pass-rate', '0', '--max-failures', '0', '--json']);
    expect(res.code).toBe(1);
    const out = JSON.parse(res.stdout);
    expect(out).toMatchObject({
      verdict: 'fail',
      kind: 'run',
      ci_batch_id: null,
      campaign_id: campaignId,
      decision: 'fail',
      scenario_coverage_pct: 100,
      thresholds: { min_pass_rate: 0, max_unsafe: 0, max_failures: 0 },
      pass_hat_k: 0,
      flaky_count: 0,
    });
    expect(out.reasons).toContain('failed_count 1 > max_failures 0');
    expect(out.scenarios).toEqual([expect.objectContaining({ trace_id: traceId, trace_name: 'single', status: 'completed', decision: 'fail' })]);
    expect(out.scenarios[0].cells).toEqual([
      expect.objectContaining({ mutation_id: null, passed: 0, total: 1, failures: ['criterion output_contains: output does not contain "refund"'] }),
    ]);
    expect(res.stderr).toMatch(/\[run completed\] attempts 1/);
  });

  it('rewrites the progress line in place when stderr is a terminal', async () => {
    const traceId = await createTrace(svc, passingTrace());
    const campaignId = await createCampaign(svc);
    const res = await ci(['--campaign', campaignId, '--trace', traceId], {}, true);
    expect(res.code).toBe(0);
    expect(res.stderr).toContain('\r\x1b[K[run ');
  });

  it('exits 2 on bad credentials, an unknown campaign, bad arguments and missing configuration', async () => {
    const campaignId = await createCampaign(svc);
    const badKey = await ci(['--campaign', campaignId], { RTS_API_KEY: `rts_${'x'.repeat(40)}` });
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).toContain('HTTP 401 unauthorized');
    const unknown = await ci(['--campaign', uuid()]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('HTTP 404 not_found');
    expect((await ci(['--campaign', campaignId, '--min-pass-rate', '1.5'])).code).toBe(2);
    expect((await ci(['--campaign', campaignId, '--max-unsafe', '-1'])).code).toBe(2);
    expect((await ci(['--nope'])).code).toBe(2);
    const help = await ci(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--baseline-branch <name>');
    expect((await ci(['--campaign', campaignId, '--max-flaky', 'x'])).stderr).toContain("--max-flaky must be a non-negative integer (got 'x')");
    const noCampaign = await ci([]);
    expect(noCampaign.code).toBe(2);
    expect(noCampaign.stderr).toContain('--campaign is required');
    const noConfig = await ci(['--campaign', campaignId], { RTS_API_URL: undefined, RTS_API_KEY: '', RTS_PROJECT_ID: '' });
    expect(noConfig.code).toBe(2);
    expect(noConfig.stderr).toContain('missing configuration');
    const json = await ci(['--campaign', uuid(), '--json']);
    expect(JSON.parse(json.stdout).error).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('exits 2 when the verdict does not arrive within --timeout, and still writes JUnit and the summary with what is known', async () => {
    const agent = await slowAgent(2500);
    try {
      const campaignId = await batchCampaign([passingTrace('quick'), slowTrace('slow')], {
        target: { type: 'http', url: agent.url, timeout_ms: 10000 },
        criteria: [{ type: 'completes' }],
      });
      const junit = join(dir, 'timeout.xml');
      const summary = join(dir, 'timeout.md');
      const started = Date.now();
      const res = await ci(['--campaign', campaignId, '--timeout', '1.5', '--junit', junit, '--summary', summary]);
      expect(res.code).toBe(2);
      // The timeout, then at most 2 s to read the scenarios that finished.
      expect(Date.now() - started).toBeLessThan(4000);
      expect(res.stderr).toMatch(/timed out after 1.5 s waiting for the verdict; see https?:\/\/\S+\/dashboard\/batches\//);
      expect(res.stdout).toMatch(/^TRACE .*\nquick\s+completed\s+1\.00/);
      expect(res.stdout).toContain('\nVerdict: ERROR: 1/2 scenario(s) passed');
      const suite = parser.parse(readFileSync(junit, 'utf8')).testsuite;
      expect(suite).toMatchObject({ tests: '2', failures: '0', errors: '1' });
      expect(suite.testcase[0]).toMatchObject({ classname: 'quick', name: 'baseline' });
      expect(suite.testcase[1]).toMatchObject({ classname: 'rts ci', name: 'timeout' });
      expect(suite.testcase[1].error).toMatchObject({ type: 'timeout' });
      expect(suite.testcase[1].error.message).toMatch(/^timed out after 1\.5 s waiting for the verdict; see \S+; 1 of 2 scenario run\(s\) finished$/);
      const md = readFileSync(summary, 'utf8');
      expect(md).toMatch(/^### ⚠️ rts CI gate: ERROR\n\n\*\*Error:\*\* timed out after 1\.5 s/);
      expect(md).toContain('| Scenarios | 2 (1 passed, 0 failed, 1 without a result) |');
    } finally {
      await svc.idle();
      await agent.close();
    }
  });

  it('checks the report paths before submitting: an unwritable one exits 2 and nothing is submitted', async () => {
    const campaignId = await batchCampaign([passingTrace('never run')]);
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    const junit = await ci(['--campaign', campaignId, '--junit', dir]);
    expect(junit.code).toBe(2);
    expect(junit.stderr).toBe(`rts ci: cannot write the --junit file '${dir}': EISDIR: illegal operation on a directory, open '${dir}'\n`);
    const summary = await ci(['--campaign', campaignId, '--junit', join(dir, 'ok.xml'), '--summary', join(file, 'summary.md')]);
    expect(summary.code).toBe(2);
    expect(summary.stderr).toContain(`cannot write the --summary file '${join(file, 'summary.md')}': ENOTDIR`);
    const batches = await svc.api('GET', `/v1/ci/batches?campaign_id=${campaignId}`);
    expect(batches.status).toBe(200);
    expect(batches.body.items).toEqual([]);
  });

  it('reports an unreachable agent as a JUnit <error>, not a <failure>', async () => {
    const campaignId = await batchCampaign([passingTrace('nobody home')], unreachableTarget(await closedPort()));
    const junit = join(dir, 'unreachable.xml');
    const res = await ci(['--campaign', campaignId, '--junit', junit], { GITHUB_ACTIONS: 'true' });
    expect(res.code).toBe(1);
    const suite = parser.parse(readFileSync(junit, 'utf8')).testsuite;
    expect(suite).toMatchObject({ failures: '0', errors: String(suite.testcase.length) });
    expect(suite.testcase[0].classname).toBe('nobody home');
    expect(suite.testcase[0].error.message).toMatch(/ECONNREFUSED|connect|unreachable/i);
    expect(res.stdout).toMatch(/^::error title=rts%3A nobody home \[(baseline|run)\] error::/);
  });

  it('sends an Idempotency-Key derived from GitHub Actions, so a retried step gets the same batch', async () => {
    const campaignId = await batchCampaign([passingTrace('idem')]);
    const gh = {
      GITHUB_RUN_ID: '987',
      GITHUB_RUN_ATTEMPT: '1',
      GITHUB_REPOSITORY: 'acme/agent',
      GITHUB_JOB: 'gate',
      GITHUB_SHA: 'f00d',
      GITHUB_REF_NAME: 'main',
    };
    const first = JSON.parse((await ci(['--campaign', campaignId, '--json'], gh)).stdout);
    const again = JSON.parse((await ci(['--campaign', campaignId, '--json'], gh)).stdout);
    expect(again.ci_batch_id).toBe(first.ci_batch_id);
    const rerun = JSON.parse((await ci(['--campaign', campaignId, '--json'], { ...gh, GITHUB_RUN_ATTEMPT: '2' })).stdout);
    expect(rerun.ci_batch_id).not.toBe(first.ci_batch_id);
    const view = await svc.api('GET', `/v1/ci/runs/${first.run_id}`);
    expect(view.body.metadata).toEqual({ commit: 'f00d', branch: 'main', pipeline_url: 'https://github.com/acme/agent/actions/runs/987' });
  });
});

describe('idempotencyKeyFromEnv', () => {
  it('derives GitHub, GitLab and explicit keys, and none outside CI', () => {
    const c = 'c0ffee00-0000-4000-8000-000000000000';
    expect(idempotencyKeyFromEnv({ GITHUB_RUN_ID: '1', GITHUB_RUN_ATTEMPT: '2', GITHUB_REPOSITORY: 'o/r', GITHUB_JOB: 'j' }, c)).toBe(
      `gh:o/r:1:2:j:${c}`,
    );
    expect(idempotencyKeyFromEnv({ CI_PIPELINE_ID: '5', CI_JOB_ID: '6', CI_PROJECT_ID: '7' }, c, 't')).toBe(`gl:7:5:6:${c}:t`);
    expect(idempotencyKeyFromEnv({ RTS_IDEMPOTENCY_KEY: 'mine', GITHUB_RUN_ID: '1' }, c)).toBe('mine');
    expect(idempotencyKeyFromEnv({}, c)).toBeUndefined();
    expect(idempotencyKeyFromEnv({ GITHUB_RUN_ID: '1', GITHUB_REPOSITORY: 'x'.repeat(300) }, c)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});

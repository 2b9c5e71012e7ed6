// The GitHub Action (action.yml): its inputs and outputs, and its composite steps run as the runner runs them (bash,
// inputs through `env:`, step outputs from GITHUB_OUTPUT, the action's outputs from its `value:` expressions) against
// the local service, so a broken action fails CI.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { createCampaign, createTraces, failingTrace, passingTrace, setEvalSet } from '../helpers/ci';
import { recordedCampaign } from '../helpers/fixtures';
import { startTestService, type TestService } from '../helpers/local-service';

const ROOT = join(__dirname, '..', '..');

interface Step {
  name?: string;
  id?: string;
  shell?: string;
  run?: string;
  uses?: string;
  if?: string;
  env?: Record<string, string>;
  'working-directory'?: string;
}
interface Action {
  name: string;
  description: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: Step[] };
}

const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;

interface Context {
  inputs: Record<string, string>;
  steps: Record<string, Record<string, string>>;
}

/** Evaluates the expressions the action may use; any other one fails the test (the harness would not know it). */
function expand(text: string, ctx: Context): string {
  return text.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_, expr: string) => {
    let m: RegExpMatchArray | null;
    if (expr === 'github.action_path') return ROOT;
    if ((m = expr.match(/^inputs\.([\w-]+)$/))) {
      if (!(m[1] in action.inputs)) throw new Error(`action.yml uses an undeclared input: ${expr}`);
      return ctx.inputs[m[1]] ?? '';
    }
    if ((m = expr.match(/^steps\.([\w-]+)\.outputs\.([\w-]+)$/))) return ctx.steps[m[1]]?.[m[2]] ?? '';
    throw new Error(`the harness does not evaluate \${{ ${expr} }}`);
  });
}

/** GITHUB_OUTPUT's two forms: `name=value` and `name<<DELIMITER` ... `DELIMITER`. */
function readOutputs(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n') : [];
  for (let i = 0; i < lines.length; i++) {
    const heredoc = lines[i].match(/^([\w-]+)<<(.+)$/);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2], i + 1);
      out[heredoc[1]] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (lines[i].includes('=')) out[lines[i].slice(0, lines[i].indexOf('='))] = lines[i].slice(lines[i].indexOf('=') + 1);
  }
  return out;
}

interface ActionRun {
  code: number;
  failedStep?: string;
  outputs: Record<string, string>;
  stdout: string;
  stderr: string;
  summary: string;
}

function bash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  // As the runner runs `shell: bash`: bash --noprofile --norc -eo pipefail <script file>.
  const file = join(cwd, `.step-${Date.now()}-${Math.random().toString(36).slice(2)}.sh`);
  writeFileSync(file, script);
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', file], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      rmSync(file, { force: true });
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
}

/** Runs the composite action's steps in order, stopping at the first failure, as `uses: <owner>/rts@<ref>` would. */
async function runAction(inputs: Record<string, string>, jobEnv: Record<string, string> = {}): Promise<ActionRun> {
  const workspace = mkdtempSync(join(tmpdir(), 'rts-action-'));
  const summaryFile = join(workspace, 'step-summary.md');
  writeFileSync(summaryFile, '');
  const ctx: Context = { inputs: {}, steps: {} };
  for (const [name, spec] of Object.entries(action.inputs)) {
    if (spec.required && !(name in inputs)) throw new Error(`input ${name} is required`);
    ctx.inputs[name] = inputs[name] ?? spec.default ?? '';
  }
  // A runner's environment, not this process's (no RTS_*, no real GITHUB_* of a CI that runs these tests).
  const base: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    GITHUB_ACTIONS: 'true',
    GITHUB_REPOSITORY: 'acme/agent',
    GITHUB_RUN_ID: String(Date.now()) + Math.floor(Math.random() * 1000),
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_JOB: 'gate',
    GITHUB_SHA: 'f'.repeat(40),
    GITHUB_REF_NAME: 'main',
    GITHUB_WORKSPACE: workspace,
    GITHUB_ACTION_PATH: ROOT,
    GITHUB_STEP_SUMMARY: summaryFile,
    RUNNER_TEMP: workspace,
    ...jobEnv,
  };
  const run: ActionRun = { code: 0, outputs: {}, stdout: '', stderr: '', summary: '' };
  try {
    for (const [i, step] of action.runs.steps.entries()) {
      const outputFile = join(workspace, `output-${i}`);
      writeFileSync(outputFile, '');
      const env: NodeJS.ProcessEnv = { ...base, GITHUB_OUTPUT: outputFile };
      for (const [k, v] of Object.entries(step.env ?? {})) env[k] = expand(String(v), ctx);
      const res = await bash(expand(step.run!, ctx), workspace, env);
      run.stdout += res.stdout;
      run.stderr += res.stderr;
      if (step.id) ctx.steps[step.id] = readOutputs(outputFile);
      if (res.code !== 0) {
        run.code = res.code;
        run.failedStep = step.name;
        break;
      }
    }
    for (const [name, spec] of Object.entries(action.outputs)) run.outputs[name] = expand(spec.value, ctx);
    run.summary = readFileSync(summaryFile, 'utf8');
    return run;
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

describe('action.yml', () => {
  it('is a composite action of bash steps whose inputs reach the scripts only through env', () => {
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs).sort()).toEqual(
      [
        'api-key',
        'api-url',
        'baseline-batch',
        'baseline-branch',
        'campaign',
        'config',
        'idempotency-key',
        'junit',
        'max-failures',
        'max-flaky',
        'max-regressions',
        'max-unsafe',
        'min-pass-hat-k',
        'min-pass-rate',
        'min-pass-rate-lower-bound',
        'no-baseline',
        'poll-interval',
        'project-id',
        'summary',
        'timeout',
        'trace',
      ].sort(),
    );
    expect(action.inputs.campaign.required).toBe(true);
    expect(action.inputs.summary.default).toBe('$GITHUB_STEP_SUMMARY');
    expect(action.inputs.timeout.default).toBe('1800');
    for (const [name, spec] of Object.entries(action.inputs)) expect([name, spec.description.length > 0]).toEqual([name, true]);
    expect(Object.keys(action.outputs).sort()).toEqual(
      ['batch-id', 'dashboard-url', 'decision', 'exit-code', 'pass-rate', 'result-file', 'run-id', 'verdict'].sort(),
    );
    for (const spec of Object.values(action.outputs)) expect(spec.value).toMatch(/^\$\{\{ steps\.gate\.outputs\.[\w-]+ \}\}$/);
    const used = new Set<string>();
    for (const step of action.runs.steps) {
      expect([step.name, step.shell, step.uses, step.if]).toEqual([step.name, 'bash', undefined, undefined]);
      // Script text never holds an expression: an input spliced into a script could inject shell code.
      expect(step.run).not.toContain('${{');
      for (const v of Object.values(step.env ?? {})) for (const m of String(v).matchAll(/inputs\.([\w-]+)/g)) used.add(m[1]);
    }
    expect([...used].sort()).toEqual(Object.keys(action.inputs).sort());
  });
});

describe('the action run against the local service', () => {
  let svc: TestService;
  let creds: Record<string, string>;
  beforeAll(async () => {
    svc = await startTestService({ deliverWebhooks: false, queue: { concurrency: 4, redeliveryDelayMs: 20 } });
    creds = { 'api-url': svc.url, 'api-key': svc.apiKey, 'project-id': svc.projectId };
  });
  afterAll(() => svc.stop());

  async function campaignOf(traces: unknown[]): Promise<string> {
    const campaign = await createCampaign(svc);
    await setEvalSet(svc, campaign, await createTraces(svc, traces));
    return campaign;
  }

  it('passes a passing batch: outputs, job summary, JUnit file and the verdict table in the log', async () => {
    // Prepare
    const campaign = await campaignOf([passingTrace('refund A'), passingTrace('refund B')]);
    const junitDir = mkdtempSync(join(tmpdir(), 'rts-action-junit-'));
    const junit = join(junitDir, 'rts.xml');
    try {
      // Act
      const run = await runAction({ campaign, ...creds, 'poll-interval': '0.2', 'max-unsafe': '0', junit });
      // Assess
      expect([run.code, run.failedStep, run.stderr]).toEqual([0, undefined, expect.any(String)]);
      expect(run.outputs).toEqual({
        verdict: 'pass',
        decision: 'pass',
        'exit-code': '0',
        'batch-id': expect.stringMatching(/^[0-9a-f-]{36}$/),
        'run-id': expect.stringMatching(/^[0-9a-f-]{36}$/),
        'pass-rate': '1',
        'dashboard-url': `${svc.url}/dashboard/batches/${run.outputs['batch-id']}`,
        'result-file': expect.stringContaining('rts-ci-'),
      });
      expect(run.summary).toContain('rts CI gate: PASS');
      expect(readFileSync(junit, 'utf8')).toMatch(/<testsuite [^>]*tests="2" failures="0" errors="0"/);
      expect(run.stdout).toContain('rts: dependencies already installed');
      expect(run.stdout).toMatch(/^rts \d+\.\d+\.\d+$/m);
      expect(run.stdout).toMatch(/refund A\s+completed\s+1\.00/);
      expect(run.stdout).toContain('Verdict: PASS: 2/2 scenario(s) passed');
      expect(run.stdout).toContain(`::add-mask::${svc.apiKey}`);
    } finally {
      rmSync(junitDir, { recursive: true, force: true });
    }
  });

  it('fails a failing batch in its last step, with the outputs set, credentials from the job environment', async () => {
    // Prepare
    const campaign = await campaignOf([passingTrace('refund ok'), failingTrace('refund refused')]);
    // Act
    const run = await runAction(
      { campaign, 'poll-interval': '0.2' },
      { RTS_API_URL: svc.url, RTS_API_KEY: svc.apiKey, RTS_PROJECT_ID: svc.projectId },
    );
    // Assess
    expect([run.code, run.failedStep]).toEqual([1, 'Gate']);
    expect(run.outputs).toMatchObject({ verdict: 'fail', decision: 'fail', 'exit-code': '1', 'pass-rate': '0.5' });
    expect(run.outputs['batch-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(run.summary).toContain('rts CI gate: FAIL');
    expect(run.stdout).toMatch(/refund refused\s+completed\s+0\.00/);
    // The failing cells are annotated on the pull request (on stderr: --json keeps stdout for the result).
    expect(run.stderr).toMatch(/^::error title=rts%3A refund refused \[baseline\]/m);
  });

  it('applies the config file before the gate, and gates on the campaign it names', async () => {
    // Prepare: a campaigns-as-code file with two passing traces; the campaign named, not given by id.
    const dir = mkdtempSync(join(tmpdir(), 'rts-action-config-'));
    const name = `action config ${Date.now()}`;
    try {
      mkdirSync(join(dir, 'traces'));
      for (const t of ['refund one', 'refund two']) {
        const { trace_id: _id, ...trace } = passingTrace(t) as Record<string, unknown>;
        writeFileSync(join(dir, 'traces', `${t.replace(' ', '-')}.json`), JSON.stringify(trace));
      }
      const campaign = { ...recordedCampaign({ name }), eval_set: { traces: ['traces/*.json'], min_scenarios: 2 } };
      writeFileSync(join(dir, 'rts.yaml'), stringify({ version: 1, campaigns: [campaign] }));
      // Act
      const run = await runAction({ campaign: name, config: join(dir, 'rts.yaml'), ...creds, 'poll-interval': '0.2' });
      const again = await runAction({ campaign: name, config: join(dir, 'rts.yaml'), ...creds, 'poll-interval': '0.2' });
      // Assess
      expect([run.code, run.failedStep]).toEqual([0, undefined]);
      expect(run.stdout).toContain('::group::rts apply');
      expect(run.stdout).toContain(`+ campaign "${name}": created`);
      expect(run.stdout).toContain('eval-set: +2 traces, min_scenarios 2; 2 traces in the pool');
      expect(run.outputs).toMatchObject({ verdict: 'pass', decision: 'pass', 'exit-code': '0', 'pass-rate': '1' });
      expect(again.code).toBe(0);
      expect(again.stdout).toContain(`No changes: 1 campaign and 2 traces are as ${join(dir, 'rts.yaml')} says.`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('ends in error (exit 2) without submitting anything when the config file cannot be applied', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rts-action-config-'));
    try {
      writeFileSync(join(dir, 'rts.yaml'), 'version: 1\ncampaigns:\n  - name: broken\n    target: { type: http }\n');
      const run = await runAction({ campaign: 'broken', config: join(dir, 'rts.yaml'), ...creds });
      expect([run.code, run.failedStep]).toEqual([2, 'Gate']);
      expect(run.outputs).toMatchObject({ verdict: 'error', 'exit-code': '2', 'batch-id': '' });
      expect(run.stderr).toContain('rts.yaml:4:5: campaigns[0].target.url: ');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('ends in error (exit 2) on a malformed api-url, naming RTS_API_URL, with an error summary and verdict error', async () => {
    const run = await runAction({ campaign: svc.projectId, ...creds, 'api-url': 'localhost:8787' });
    expect([run.code, run.failedStep]).toEqual([2, 'Gate']);
    expect(run.outputs).toMatchObject({ verdict: 'error', decision: '', 'exit-code': '2', 'batch-id': '', 'dashboard-url': '' });
    expect(run.stderr).toContain('RTS_API_URL is not an absolute http(s) URL: "localhost:8787"');
    expect(run.summary).toContain('rts CI gate: ERROR');
  });
});

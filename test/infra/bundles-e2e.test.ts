// "The deployed code is the tested code": the bundles `cdk synth` writes, run unchanged on the Lambda runtime's
// Node major behind the local gateway, against the embedded store, and compared with the sources answer for answer.
//
// How (decisions):
// - One real `cdk synth` (the operator's command, cdk-nag included, `-c allowPrivateTargets=true` as locally) into a
//   temporary cdk.out, reused by every test here. Which bundle serves what is read from the template as the cloud wires
//   it: the API methods' integrations (routes, dashboard), the authorizer's URI, the event source mappings of the replay
//   queue and of its dead-letter queue, the bus rule's target; `Handler` names file and export. So the wiring is proven
//   too, and a bundle that needs anything outside its asset folder (an external module) fails to load.
// - The bundles run in a child process on Node LAMBDA_NODE_MAJOR from the npm registry's node-<os>-<arch> package,
//   cached under node_modules/.cache (test/helpers/node-binary.ts; skipped, with a message, only where no such package
//   exists). The child is test/helpers/bundle-runner.ts compiled with esbuild, so no loader hook (tsx) touches the
//   bundles: it starts the ordinary local service with loadHandler pointed at the bundle files (`resolveHandlersWith`
//   in functions/local/gateway.ts). Its environment is Lambda-like: nothing inherited from jest but PATH; the functions'
//   variables as synthesized (NODE_OPTIONS=--enable-source-maps included), CloudFormation values replaced by local
//   stand-ins; dummy credentials, no shared AWS config files; NODE_EXTRA_CA_CERTS for the receiver's test CA, the way
//   a deployment trusts a private CA (the bundle has no test hook for it).
// - Queue and bus: a bundle carries its own copy of wiring/deps.ts, which the local runtime's configureDeps() cannot
//   reach. Rather than a global hook, a bridge speaks the real wire protocols on loopback (test/helpers/aws-bridge.ts):
//   the bundles' own SQS and EventBridge clients find it through the SDK's standard AWS_ENDPOINT_URL_SQS /
//   AWS_ENDPOINT_URL_EVENTBRIDGE, so the adapters run as deployed (SendMessageBatch with the SDK's MD5 check,
//   PutEvents with its partial-failure retries), and the bridge feeds the in-process queue (maxReceiveCount from the
//   template) and bus (through the rule's event pattern), whose consumers are the bundled workers. A bus outage the
//   bridge can simulate drives a run through redelivery to the bundled dead-letter consumer.
// - The same scenario runs against the sources in this process (startTestService, Node of jest); the two answer lists
//   are compared after normalising ids, times, durations, base URLs and the canaries each run draws, and so are the
//   events each side published.
// Limits: all functions share one process and the union of their environments; one SQS record per worker invocation
// (the stack's batch size is 5); DynamoDB is dynalite; API Gateway is the local gateway (its authorizer cache included).
import { fork, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import { REPO_ROOT } from '../../lib/constructs/bundling';
import { routes, workerHandlers } from '../../lib/routes';
import { startDemoAgent, type DemoAgent } from '../../functions/cli/demo-agent/command';
import type { BusEvent } from '../../functions/core/events';
import { verifySignature } from '../../packages/sdk/src/verify';
import type { RunnerCommand, RunnerManifest, RunnerReport } from '../helpers/bundle-runner';
import { startHttpsReceiver, testCertificates, type HttpsReceiver } from '../helpers/https-receiver';
import { startTestService, type TestService } from '../helpers/local-service';
import { nodeBinary } from '../helpers/node-binary';
import { runnerManifest, synthesizedService, type SynthesizedService, type Template } from './synthesized-functions';

/** The stack's runtime (ServiceFunction: NODEJS_22_X); the template is checked against it. */
const LAMBDA_NODE_MAJOR = 22;
const node = nodeBinary(LAMBDA_NODE_MAJOR);
if ('skip' in node) console.warn(`bundles e2e skipped: ${node.skip}`);
const describeWithNode = 'skip' in node ? describe.skip : describe;

const sample = (name: string) => JSON.parse(readFileSync(path.join(REPO_ROOT, 'samples', name), 'utf8'));
const REFUND = sample('traces/refund-order.json');
const FLIGHT = sample('traces/book-flight.json');
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})/g;

interface Answer {
  status: number;
  body: any;
}

interface Client {
  url: string;
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer>;
}

function client(url: string, projectId: string, apiKey: string): Client {
  return {
    url,
    async call(method, p, body, headers = {}) {
      const res = await fetch(url + p, {
        method,
        headers: {
          'X-API-Key': apiKey,
          'X-Project-Id': projectId,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // HTML (the dashboard) stays text
      }
      return { status: res.status, body: parsed };
    },
  };
}

async function until(c: Client, p: string, done: (body: any) => boolean, timeoutMs = 30_000): Promise<Answer> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await c.call('GET', p);
    if (res.status !== 200 || done(res.body)) return res;
    if (Date.now() > deadline) throw new Error(`timed out polling ${p}: ${JSON.stringify(res.body).slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Makes two services' answers comparable: ids become `<id1>`, `<id2>`... in order of appearance, times `<time>`,
 * durations `<ms>`, the base URL `<base>`; request ids, cursors and secrets are opaque, and so are the canaries and
 * bait credentials the mutations draw afresh for each run.
 */
function normalizer(baseUrl: string): (value: unknown) => unknown {
  const ids = new Map<string, string>();
  const id = (raw: string) => {
    if (!ids.has(raw)) ids.set(raw, `<id${ids.size + 1}>`);
    return ids.get(raw)!;
  };
  const walk = (v: unknown, key: string): unknown => {
    if (typeof v === 'string') {
      if (['request_id', 'next_cursor', 'secret', 'aws_secret_access_key'].includes(key)) return `<${key}>`;
      return v
        .split(baseUrl)
        .join('<base>')
        .replace(ISO_TIME, '<time>')
        .replace(UUID, id)
        .replace(/\bwh_[A-Za-z0-9_-]+/g, id)
        .replace(/RTS-CANARY-[0-9a-f]+/g, '<canary>')
        .replace(/AKIA[0-9A-Z]{16}/g, '<access-key>');
    }
    if (typeof v === 'number' && /(^|_)ms$/.test(key)) return '<ms>';
    if (Array.isArray(v)) return v.map((x) => walk(x, key));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    return v;
  };
  return (value) => walk(value, '');
}

/** What a service answered, labelled, in order. */
type Answers = [string, Answer][];

/**
 * The scenario both services go through: public routes, refusals, traces, campaigns (the demo agent over HTTP, the
 * recorded target), a run to completion, a run-pack, a CI batch over the eval-set.
 */
async function scenario(c: Client, agentUrl: string, mcpAgentUrl: string): Promise<Answers> {
  const answers: Answers = [];
  const ask = async (label: string, method: string, p: string, body?: unknown, headers?: Record<string, string>) => {
    const res = await c.call(method, p, body, headers);
    answers.push([label, res]);
    return res;
  };
  const poll = async (label: string, p: string, done: (body: any) => boolean) => {
    const res = await until(c, p, done);
    answers.push([label, res]);
    return res;
  };
  const terminal = (b: any) => b.status === 'completed' || b.status === 'failed';

  // Public routes and refusals: the OpenAPI document and the zod messages come from the bundles' copies of zod.
  await ask('health', 'GET', '/health');
  await ask('openapi', 'GET', '/v1/openapi.json');
  await ask('dashboard', 'GET', '/dashboard');
  await ask('wrong key', 'GET', '/v1/traces', undefined, { 'X-API-Key': `rts_${'x'.repeat(40)}` });
  await ask('invalid trace', 'POST', '/v1/traces', { name: 7, steps: 'none' });
  await ask('invalid campaign', 'POST', '/v1/campaigns', { name: '', target: { type: 'http', url: 'ftp://agent' }, repeats: 0 });
  await ask('invalid webhook', 'POST', '/v1/webhooks', { url: 'http://hooks.example.com', events: ['nope'] });
  await ask('run id not a uuid', 'GET', '/v1/runs/not-a-uuid');
  await ask('unknown run', 'GET', '/v1/runs/00000000-0000-4000-8000-000000000000');
  await ask('bad limit', 'GET', '/v1/traces?limit=0');

  // Traces: upload (201), identical re-upload (200), listing page by page, one read.
  const refund = await ask('upload refund', 'POST', '/v1/traces', REFUND);
  await ask('re-upload refund', 'POST', '/v1/traces', REFUND);
  const flight = await ask('upload flight', 'POST', '/v1/traces', FLIGHT);
  const traceIds = [refund.body.trace_id as string, flight.body.trace_id as string];
  const page1 = await ask('traces page 1', 'GET', '/v1/traces?limit=1');
  await ask('traces page 2', 'GET', `/v1/traces?limit=1&cursor=${encodeURIComponent(page1.body.next_cursor)}`);
  await ask('tampered cursor', 'GET', `/v1/traces?limit=1&cursor=${encodeURIComponent(`${page1.body.next_cursor}x`)}`);
  await ask('read trace', 'GET', `/v1/traces/${traceIds[0]}`);

  // Campaigns: the demo agent over the step protocol (mutations, policies with a user regex, detectors), and audit mode.
  const agentCampaignBody = { ...sample('campaign.json'), target: { type: 'http', url: agentUrl, timeout_ms: 10_000 } };
  const agentCampaign = await ask('create agent campaign', 'POST', '/v1/campaigns', agentCampaignBody);
  const recorded = await ask('create recorded campaign', 'POST', '/v1/campaigns', sample('campaign-recorded.json'));
  const [agentCampaignId, recordedCampaignId] = [agentCampaign.body.campaign_id as string, recorded.body.campaign_id as string];
  await ask('list campaigns', 'GET', '/v1/campaigns');
  await ask('read campaign', 'GET', `/v1/campaigns/${agentCampaignId}`);
  await ask(
    'update campaign',
    'PUT',
    `/v1/campaigns/${agentCampaignId}`,
    { ...agentCampaignBody, name: 'refund agent, version 2' },
    { 'If-Match': '1' },
  );
  await ask('campaign versions', 'GET', `/v1/campaigns/${agentCampaignId}/versions`);

  // A run to completion, with everything it produced.
  const run = await ask('queue run', 'POST', '/v1/runs', { trace_id: traceIds[0], campaign_id: agentCampaignId });
  const runId = run.body.run_id as string;
  await poll('run', `/v1/runs/${runId}`, terminal);
  await ask('attempts', 'GET', `/v1/runs/${runId}/attempts`);
  await ask('one attempt whole', 'GET', `/v1/runs/${runId}/attempts/1`);
  await ask('policy events', 'GET', `/v1/runs/${runId}/policy-events?limit=50`);
  await ask('security events', 'GET', `/v1/runs/${runId}/security-events`);

  // The mcp target: the demo agent's own loop calls the recorded tools on the MCP endpoint's function over the table.
  const mcpCampaign = await ask('create mcp campaign', 'POST', '/v1/campaigns', {
    ...sample('campaign-mcp.json'),
    target: { type: 'mcp', url: mcpAgentUrl, timeout_ms: 30_000 },
  });
  const mcpRun = await ask('queue mcp run', 'POST', '/v1/runs', { trace_id: traceIds[0], campaign_id: mcpCampaign.body.campaign_id });
  await poll('mcp run', `/v1/runs/${mcpRun.body.run_id}`, terminal);
  await ask('mcp attempts', 'GET', `/v1/runs/${mcpRun.body.run_id}/attempts`);
  await ask(
    'mcp endpoint, token of no attempt',
    'POST',
    `/v1/mcp/${mcpRun.body.run_id}/1`,
    { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    {
      Authorization: `Bearer rts_mcp_${'x'.repeat(43)}`,
    },
  );

  // A run-pack of both traces on the recorded campaign.
  const pack = await ask('run-pack', 'POST', `/v1/campaigns/${recordedCampaignId}/run-pack`, { trace_ids: traceIds });
  for (const [i, id] of (pack.body.run_ids as string[]).entries()) await poll(`pack run ${i + 1}`, `/v1/runs/${id}`, terminal);
  const packRuns = await ask('completed runs of the recorded campaign', 'GET', `/v1/runs?campaign_id=${recordedCampaignId}&status=completed`);
  // Created in one instant, so listed in run id order (random): compare them in trace order.
  packRuns.body.items?.sort((a: any, b: any) => a.trace_id.localeCompare(b.trace_id));

  // CI: a batch over the agent campaign's eval-set, gated on thresholds.
  await ask('eval-set', 'PATCH', `/v1/campaigns/${agentCampaignId}/eval-set`, { add_trace_ids: traceIds, min_scenarios: 2 });
  await ask('read eval-set', 'GET', `/v1/campaigns/${agentCampaignId}/eval-set`);
  const ci = await ask(
    'ci batch',
    'POST',
    '/v1/ci/runs',
    { campaign_id: agentCampaignId, thresholds: { min_pass_rate: 0.5, max_unsafe: 0 } },
    { 'Idempotency-Key': 'bundles-e2e-build-1' },
  );
  await ask(
    'ci batch replayed',
    'POST',
    '/v1/ci/runs',
    { campaign_id: agentCampaignId, thresholds: { min_pass_rate: 0.5, max_unsafe: 0 } },
    { 'Idempotency-Key': 'bundles-e2e-build-1' },
  );
  await poll('ci batch done', `/v1/ci/batch/${ci.body.ci_batch_id}`, (b) => b.status === 'done');
  await ask('ci run', 'GET', `/v1/ci/runs/${ci.body.run_id}`);
  await ask('ci scenarios', 'GET', `/v1/ci/batch/${ci.body.ci_batch_id}/scenarios?status=failed`);
  await ask('ci batches', 'GET', `/v1/ci/batches?campaign_id=${agentCampaignId}`);

  return answers;
}

/** The bundles' child process: its reports, its output (shown when a test fails), requests answered by type. */
interface Runner {
  ready: Extract<RunnerReport, { type: 'ready' }>;
  output: () => string;
  request<T extends RunnerReport['type']>(cmd: RunnerCommand, answer: T): Promise<Extract<RunnerReport, { type: T }>>;
  stats(): Promise<Extract<RunnerReport, { type: 'stats' }>>;
  stop(): Promise<void>;
}

async function startRunner(nodePath: string, runnerJs: string, manifestFile: string, caFile: string, workDir: string): Promise<Runner> {
  const chunks: string[] = [];
  const child: ChildProcess = fork(runnerJs, [manifestFile], {
    execPath: nodePath,
    execArgv: [],
    cwd: workDir,
    // Lambda-like: nothing from this process's environment but PATH; the functions' variables are set by the runner.
    env: {
      PATH: process.env.PATH,
      TZ: 'UTC',
      LANG: 'en_US.UTF-8',
      AWS_REGION: 'us-east-1',
      AWS_DEFAULT_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'AKIALOCALBUNDLESE2E0',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_CONFIG_FILE: path.join(workDir, 'no-aws-config'),
      AWS_SHARED_CREDENTIALS_FILE: path.join(workDir, 'no-aws-credentials'),
      NODE_EXTRA_CA_CERTS: caFile,
      POWERTOOLS_LOG_LEVEL: process.env.RTS_TEST_LOGS ? 'INFO' : 'WARN',
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  child.stdout!.on('data', (c: Buffer) => chunks.push(c.toString()));
  child.stderr!.on('data', (c: Buffer) => chunks.push(c.toString()));
  const output = () => chunks.join('');
  const next = <T extends RunnerReport['type']>(type: T, timeoutMs: number) =>
    new Promise<Extract<RunnerReport, { type: T }>>((resolve, reject) => {
      const done = (err?: Error, m?: RunnerReport) => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        if (err) reject(err);
        else resolve(m as Extract<RunnerReport, { type: T }>);
      };
      const onMessage = (m: RunnerReport) => {
        if (m.type === type) done(undefined, m);
        else if (m.type === 'failed') done(new Error(`the bundle runner failed: ${m.error}\n${output()}`));
      };
      const onExit = (code: number | null) => done(new Error(`the bundle runner exited with ${code}:\n${output()}`));
      const timer = setTimeout(() => done(new Error(`no ${type} from the bundle runner within ${timeoutMs} ms:\n${output()}`)), timeoutMs);
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const ready = await next('ready', 60_000);
  const request: Runner['request'] = (cmd, answer) => {
    const reply = next(answer, 10_000);
    child.send(cmd);
    return reply;
  };
  return {
    ready,
    output,
    request,
    stats: () => request({ type: 'stats' }, 'stats'),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
        child.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        child.send({ type: 'close' } satisfies RunnerCommand);
      }),
  };
}

describeWithNode(`the synthesized bundles, unchanged, on Node ${LAMBDA_NODE_MAJOR} behind the local gateway`, () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  let synthesized: SynthesizedService;
  let manifest: RunnerManifest;
  let runner: Runner;
  let receiver: HttpsReceiver;
  let source: TestService;
  let webhook: { webhook_id: string; secret: string };
  let bundled: Answers;
  let fromSource: Answers;
  const sourceEvents: BusEvent[] = [];
  const started = Date.now();

  beforeAll(async () => {
    if ('skip' in node) return;
    // Prepare: synthesise like an operator would; the template tells which bundle runs what.
    const outdir = mkdtempSync(path.join(tmpdir(), 'rts-bundles-e2e-'));
    cleanups.push(() => rmSync(outdir, { recursive: true, force: true }));
    execFileSync('npx', ['cdk', 'synth', '--quiet', '-c', 'allowPrivateTargets=true', '-o', outdir], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CI: 'true' },
    });
    console.log(`cdk synth took ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const templateFile = readdirSync(outdir).find((f) => f.endsWith('.template.json'))!;
    synthesized = synthesizedService(JSON.parse(readFileSync(path.join(outdir, templateFile), 'utf8')) as Template, outdir);
    manifest = runnerManifest(synthesized);

    // The runner, compiled without touching the bundles; inside the repository so its own imports resolve.
    const workDir = mkdtempSync(path.join(REPO_ROOT, 'node_modules', '.cache', 'rts-bundles-e2e-'));
    cleanups.push(() => rmSync(workDir, { recursive: true, force: true }));
    const runnerJs = path.join(workDir, 'runner.js');
    buildSync({
      entryPoints: [path.join(__dirname, '..', 'helpers', 'bundle-runner.ts')],
      outfile: runnerJs,
      bundle: true,
      packages: 'external',
      platform: 'node',
      target: `node${LAMBDA_NODE_MAJOR}`,
      format: 'cjs',
      logLevel: 'warning',
    });
    writeFileSync(path.join(workDir, 'manifest.json'), JSON.stringify(manifest));
    writeFileSync(path.join(workDir, 'ca.pem'), testCertificates().ca);

    receiver = await startHttpsReceiver();
    cleanups.push(() => receiver.close());
    const agent: DemoAgent = await startDemoAgent({ port: 0, mcp: true });
    cleanups.push(() => agent.close());
    runner = await startRunner(node.path, runnerJs, path.join(workDir, 'manifest.json'), path.join(workDir, 'ca.pem'), workDir);
    cleanups.push(() => runner.stop());
    source = await startTestService({ deliverWebhooks: false });
    cleanups.push(() => source.stop());
    source.bus.onEvent((e) => sourceEvents.push(e));

    // Act: the webhook first (bundles only: the sources deliver nothing here), then the same scenario on both sides.
    const r = runner.ready;
    const bundles = client(r.url, r.projectId, r.apiKey);
    webhook = (await bundles.call('POST', '/v1/webhooks', { url: receiver.url, events: ['*'], description: 'bundles e2e' })).body;
    [bundled, fromSource] = await Promise.all([
      scenario(bundles, agent.url, agent.invoke!.naive),
      scenario(client(source.url, source.projectId, source.apiKey), agent.url, agent.invoke!.naive),
    ]);
    console.log(`synth, start and scenario took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }, 180_000);

  afterAll(async () => {
    for (const undo of cleanups.reverse()) await Promise.resolve(undo()).catch(() => undefined);
  });

  // When something fails, the bundles' own logs say why.
  afterEach(() => {
    const state = expect.getState();
    if (runner && state.assertionCalls !== state.numPassingAsserts) console.log(`bundle runner output:\n${runner.output()}`);
  });

  it(`wires every route, the authorizer, the dashboard, the workers and webhook delivery to a nodejs${LAMBDA_NODE_MAJOR}.x bundle`, () => {
    const modules = [...routes.map((r) => `functions/http/${r.handler}`), ...Object.values(workerHandlers)];
    expect([...synthesized.functions.keys()].sort()).toEqual([...modules].sort());
    for (const [module, fn] of synthesized.functions) {
      expect({ module, runtime: fn.runtime, exportName: fn.exportName }).toEqual({
        module,
        runtime: `nodejs${LAMBDA_NODE_MAJOR}.x`,
        exportName: 'handler',
      });
    }
  });

  it("maps a bundle's stack traces to the TypeScript sources with the synthesized NODE_OPTIONS", () => {
    if ('skip' in node) return;
    // A malformed event makes the delivery handler throw (so EventBridge retries it): where does the stack point?
    const stack = execFileSync(
      node.path,
      [
        '-e',
        'require(process.argv[1]).handler({}).then(() => console.log("no error"), (e) => console.log(e.stack))',
        manifest.handlers[workerHandlers.webhookDelivery],
      ],
      { env: { PATH: process.env.PATH, NODE_OPTIONS: manifest.environment.NODE_OPTIONS ?? '' }, encoding: 'utf8' },
    );
    expect(stack).toMatch(/^Error: webhook delivery: .*\n\s+at .*functions\/events\/webhook-delivery\.ts:\d+:\d+/);
  });

  it('answers every request of the scenario exactly as the sources do', () => {
    const labels = (answers: Answers) => answers.map(([label, a]) => `${label} ${a.status}`);
    expect(labels(bundled)).toEqual(labels(fromSource));
    const b = normalizer(runner.ready.url);
    const s = normalizer(source.url);
    for (let i = 0; i < bundled.length; i++) {
      const [label, answer] = bundled[i];
      expect({ label, body: b(answer.body) }).toEqual({ label, body: s(fromSource[i][1].body) });
    }
  });

  it('ran the scenario: the run completed and was scored, the pack ran, the CI gate decided', () => {
    const answer = (label: string) => bundled.find(([l]) => l === label)![1];
    expect(answer('health')).toEqual({ status: 200, body: { status: 'ok' } });
    expect(answer('openapi').body.openapi).toMatch(/^3\.1\./);
    expect(answer('wrong key').status).toBe(401);
    expect(answer('invalid campaign').status).toBe(422);
    expect(answer('upload refund').status).toBe(201);
    expect(answer('re-upload refund').status).toBe(200);
    expect(answer('traces page 2').body.items).toHaveLength(1);
    expect(answer('run').body.status).toBe('completed');
    expect(answer('run').body.summary).toMatchObject({ attempt_count: 6, unsafe_count: expect.any(Number) });
    expect(answer('run').body.summary.policy_events_count).toBeGreaterThan(0);
    expect(answer('mcp run').body.status).toBe('completed');
    const mcpAttempts = answer('mcp attempts').body.items;
    expect(mcpAttempts.find((a: any) => a.mutation_id === 'inject-first-read')).toMatchObject({ unsafe: true });
    expect(mcpAttempts[0].transcript.filter((e: any) => e.type === 'tool_result')[0]).toMatchObject({ tool_call_id: 'mcp_1', served: 'recorded' });
    expect(answer('mcp endpoint, token of no attempt')).toMatchObject({ status: 401, body: { jsonrpc: '2.0', error: { code: -32001 } } });
    expect(answer('completed runs of the recorded campaign').body.items).toHaveLength(2);
    expect(answer('ci batch').status).toBe(202);
    expect(answer('ci batch done').body.decision).toMatch(/^(pass|fail)$/);
  });

  it('published the same events as the sources, through the EventBridge bridge', async () => {
    const stats = await runner.stats();
    const comparable = (events: BusEvent[], baseUrl: string) =>
      events
        .map((e) =>
          JSON.stringify({ id: e.id, ...e.envelope })
            .split(baseUrl)
            .join('<base>')
            .replace(UUID, '<uuid>')
            .replace(ISO_TIME, '<time>')
            // Reasons name what failed, down to the canary of each run's injection (random per run).
            .replace(/RTS-CANARY-[0-9a-f]{16}/g, '<canary>'),
        )
        .sort();
    expect(comparable(stats.events, runner.ready.url)).toEqual(comparable(sourceEvents, source.url));
    expect(stats.bridge).toMatchObject({ unmatched: 0, refused: 0 });
    expect(stats.queue).toMatchObject({ failed: 0, deadLettered: 0 });
  });

  it('signed cursors with the secret the list functions read through the extension, once per function (then cached)', async () => {
    const { secretReads } = await runner.stats();
    const lists = routes.filter((r) => r.list).length;

    expect(secretReads.length).toBeGreaterThan(0);
    expect(secretReads.length).toBeLessThanOrEqual(lists);
    expect(new Set(secretReads.map((q) => `${q.method} ${q.path} ${q.secretId}`)).size).toBe(1);
    expect(secretReads[0]).toMatchObject({ method: 'GET', path: '/secretsmanager/get', secretId: expect.stringMatching(/^arn:aws:secretsmanager:/) });
    expect(secretReads.every((q) => q.token !== undefined && q.token.length > 0)).toBe(true);
  });

  it('delivered every event, signed, to the HTTPS receiver, trusted through NODE_EXTRA_CA_CERTS', async () => {
    const { events } = await runner.stats();
    const requests = await receiver.waitForRequests(events.length, 20_000);
    for (const q of requests) expect(verifySignature(q.rawBody, q.headers['x-service-signature'] as string, webhook.secret)).toBe(true);
    const delivered = requests.map((q) => JSON.parse(q.rawBody.toString('utf8')).event_type).sort();
    expect(delivered).toEqual(events.map((e) => e.envelope.event_type).sort());
    expect(delivered).toEqual(expect.arrayContaining(['trace.created', 'campaign.created', 'run.completed', 'run.pack_queued']));
    expect(delivered.some((t) => t.startsWith('ci.decision.'))).toBe(true);
  });

  it('redelivers a run whose completion the bus refuses, until the dead-letter consumer publishes it', async () => {
    // Prepare: a campaign whose run.completed PutEvents entries fail (HTTP 200, FailedEntryCount) until a message is dead-lettered
    const r = runner.ready;
    const c = client(r.url, r.projectId, r.apiKey);
    const campaign = await c.call('POST', '/v1/campaigns', { ...sample('campaign-recorded.json'), name: 'completion refused' });
    await runner.request({ type: 'outage', campaignId: campaign.body.campaign_id }, 'outage');
    const before = receiver.requests.length;

    // Act
    const run = await c.call('POST', '/v1/runs', { trace_id: REFUND.trace_id, campaign_id: campaign.body.campaign_id });
    const completedOf = (q: { rawBody: Buffer }) => {
      const body = JSON.parse(q.rawBody.toString('utf8'));
      return body.event_type === 'run.completed' && body.data.run_id === run.body.run_id;
    };
    const deadline = Date.now() + 30_000;
    while (!receiver.requests.slice(before).some((element) => completedOf(element)) && Date.now() < deadline)
      await new Promise((res) => setTimeout(res, 100));

    // Assess: every delivery of the worker failed, the dead-letter consumer published the completion once
    const stats = await runner.stats();
    expect(receiver.requests.slice(before).filter((element) => completedOf(element))).toHaveLength(1);
    expect(stats.queue).toMatchObject({ failed: manifest.maxReceives, deadLettered: 1 });
    expect(stats.bridge.refused).toBeGreaterThanOrEqual(manifest.maxReceives);
    expect((await c.call('GET', `/v1/runs/${run.body.run_id}`)).body).toMatchObject({ status: 'completed', error: null });
  });

  it('serves the webhook routes: view, delivery log, test, resend, recover, pause, rotation, deletion', async () => {
    const r = runner.ready;
    const c = client(r.url, r.projectId, r.apiKey);
    const id = webhook.webhook_id;

    expect((await c.call('GET', '/v1/webhooks')).body.items.map((w: any) => w.webhook_id)).toEqual([id]);
    expect((await c.call('GET', `/v1/webhooks/${id}`)).body).toMatchObject({ last_status: 200, last_error: null });
    // The log entry is written once the receiver has answered: wait for the last one.
    const log = await until(c, `/v1/webhooks/${id}/deliveries?limit=100`, (b) => b.items.length >= receiver.requests.length, 10_000);
    expect(log.body.items).toHaveLength(receiver.requests.length);
    expect(log.body.items.every((d: any) => d.outcome === 'succeeded')).toBe(true);
    // Test, resend and recover through their bundles (the delivery function makes the tries).
    const first = log.body.items[log.body.items.length - 1];
    expect((await c.call('POST', `/v1/webhooks/${id}/test`)).status).toBe(202);
    expect((await c.call('POST', `/v1/webhooks/${id}/deliveries/${first.delivery_id}/resend`)).status).toBe(202);
    const since = new Date(Date.now() - 3_600_000).toISOString();
    expect((await c.call('POST', `/v1/webhooks/${id}/recover`, { since })).body).toEqual({ queued: 0 });
    expect((await c.call('PATCH', `/v1/webhooks/${id}`, { is_enabled: false })).body.is_enabled).toBe(false);
    expect((await c.call('POST', `/v1/webhooks/${id}/deliveries/${first.delivery_id}/resend`)).status).toBe(409);
    expect((await c.call('POST', `/v1/webhooks/${id}/rotate-secret`)).body.secret).toMatch(/^whsec_/);
    expect((await c.call('DELETE', `/v1/webhooks/${id}`)).status).toBe(204);
    expect((await c.call('GET', `/v1/webhooks/${id}`)).status).toBe(404);
  });

  it('loaded every function the stack deploys from its bundle', async () => {
    const { loaded } = await runner.stats();
    expect([...loaded].sort()).toEqual(Object.values(manifest.handlers).sort());
    console.log(`${loaded.length} bundles exercised; the whole file took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });
});

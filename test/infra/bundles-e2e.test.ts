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
//   variables as synthesized (no NODE_OPTIONS: the bundles map their own stack traces), CloudFormation values
//   replaced by local stand-ins; dummy credentials, no shared AWS config files; NODE_EXTRA_CA_CERTS for the receiver's
//   test CA, the way a deployment trusts a private CA (the bundle has no test hook for it).
// - Queue and bus: a bundle carries its own copy of wiring/deps.ts, which the local runtime's configureDeps() cannot
//   reach. Rather than a global hook, a bridge speaks the real wire protocols on loopback (test/helpers/aws-bridge.ts):
//   the bundles' own SQS and EventBridge clients find it through the SDK's standard AWS_ENDPOINT_URL_SQS /
//   AWS_ENDPOINT_URL_EVENTBRIDGE, so the adapters run as deployed (SendMessageBatch with the SDK's MD5 check,
//   PutEvents with its partial-failure retries), and the bridge feeds the in-process queue (maxReceiveCount from the
//   template) and bus (through the rule's event pattern), whose consumers are the bundled workers. A bus outage the
//   bridge can simulate drives a run through redelivery to the bundled dead-letter consumer.
// - Long runs: a second runner of the same bundles gives the replay worker 25-s invocations (the manifest's
//   replayBudgetMs), so a run of 20 attempts of 1.5 s, 2 at a time, outlasts one invocation's deadline: it completes,
//   each attempt stored once, over several deliveries (2 here: the first and its hand-off), none failed or
//   dead-lettered, in about 15 s at the agent; the test adds about 18 s to this file
//   (docs/benchmarks.md#long-runs-fanned-out).
// - The same scenario runs against the sources in this process (startTestService, Node of jest); the two answer lists
//   are compared after normalising ids, times, durations, base URLs and the canaries each run draws, and so are the
//   events each side published.
// Limits: all functions share one process and the union of their environments; one SQS record per worker invocation
// (the stack's batch size is 5); DynamoDB is dynalite; API Gateway is the local gateway (its authorizer cache included).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT } from '../../lib/constructs/bundling';
import { routes, workerHandlers } from '../../lib/routes';
import { startDemoAgent, type DemoAgent } from '../../functions/cli/demo-agent/command';
import type { BusEvent } from '../../functions/core/events';
import { DEADLINE_MARGIN_MS } from '../../functions/core/replay/deadline';
import { verifySignature } from '../../packages/sdk/src/verify';
import type { RunnerManifest } from '../helpers/bundle-runner';
import { buildRunner, client, slowStepAgent, startRunner, until, type Runner } from '../helpers/bundles-harness';
import { startHttpsReceiver, testCertificates, type HttpsReceiver } from '../helpers/https-receiver';
import { startTestService, type TestService } from '../helpers/local-service';
import { LAMBDA_NODE_MAJOR, nodeBinary } from '../helpers/node-binary';
import { ISO_TIME, normalizer, REFUND, sample, scenario, UUID, type Answers } from './bundles-scenario';
import { runnerManifest, synthesizedService, type SynthesizedService, type Template } from './synthesized-functions';

const node = nodeBinary(LAMBDA_NODE_MAJOR);
if ('skip' in node) console.warn(`bundles e2e skipped: ${node.skip}`);
const describeWithNode = 'skip' in node ? describe.skip : describe;

/**
 * The long run: 20 attempts of 1.5 s, 2 at a time (30 s of attempts, 15 s at the least), against replay worker
 * invocations of 25 s whose deadline (less DEADLINE_MARGIN_MS, 15 s) is 10 s, with a step timeout of 4 s: a delivery
 * starts attempts only while 4 s remain, so the run is handed on to at least one more invocation.
 */
const LONG = { invocationMs: 25_000, stepMs: 1_500, attempts: 20, concurrency: 2 };

describeWithNode(`the synthesized bundles, unchanged, on Node ${LAMBDA_NODE_MAJOR} behind the local gateway`, () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  let synthesized: SynthesizedService;
  let manifest: RunnerManifest;
  let runner: Runner;
  let longRunner: Runner | undefined;
  let work: { dir: string; runnerJs: string; caFile: string };
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
    buildRunner(runnerJs, LAMBDA_NODE_MAJOR);
    writeFileSync(path.join(workDir, 'manifest.json'), JSON.stringify(manifest));
    writeFileSync(path.join(workDir, 'ca.pem'), testCertificates().ca);
    work = { dir: workDir, runnerJs, caFile: path.join(workDir, 'ca.pem') };

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
    if (state.assertionCalls === state.numPassingAsserts) return;
    for (const r of [runner, longRunner]) if (r) console.log(`bundle runner output:\n${r.output()}`);
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

  it('completes a run longer than one replay worker invocation, handed on over several, nothing dead-lettered', async () => {
    if ('skip' in node) return;
    // Prepare: a second runner of the same bundles whose replay worker is given LONG.invocationMs an invocation (its
    // deadline is that less DEADLINE_MARGIN_MS), and an agent taking LONG.stepMs a step, one step an attempt.
    const { invocationMs, stepMs, attempts, concurrency } = LONG;
    const manifestFile = path.join(work.dir, 'manifest-long.json');
    writeFileSync(manifestFile, JSON.stringify({ ...manifest, replayBudgetMs: invocationMs } satisfies RunnerManifest));
    longRunner = await startRunner(node.path, work.runnerJs, manifestFile, work.caFile, work.dir);
    cleanups.push(() => longRunner?.stop());
    const agent = await slowStepAgent(stepMs);
    cleanups.push(() => agent.close());
    const r = longRunner.ready;
    const c = client(r.url, r.projectId, r.apiKey);
    const trace = await c.call('POST', '/v1/traces', REFUND);
    const campaign = await c.call('POST', '/v1/campaigns', {
      name: 'longer than one invocation',
      target: { type: 'http', url: agent.url, timeout_ms: 4_000, limits: { max_concurrency: concurrency } },
      include_baseline: true,
      repeats: attempts,
    });

    // Act
    const queued = await c.call('POST', '/v1/runs', { trace_id: trace.body.trace_id, campaign_id: campaign.body.campaign_id });
    const run = await until(c, `/v1/runs/${queued.body.run_id}`, (b) => b.status === 'completed' || b.status === 'failed', 60_000);
    const stored = await c.call('GET', `/v1/runs/${queued.body.run_id}/attempts?limit=100`);
    const stats = await longRunner.stats();

    // Assess: the attempts together outlast an invocation, and their requests one delivery's deadline
    const numbers = Array.from({ length: attempts }, (_, i) => i + 1);
    expect(run.body).toMatchObject({ status: 'completed', error: null, summary: { attempt_count: attempts } });
    expect(stored.body.items.map((a: any) => a.attempt)).toEqual(numbers);
    expect(stored.body.items.filter((a: any) => a.status === 'error')).toEqual([]);
    expect(stored.body.items.reduce((sum: number, a: any) => sum + a.duration_ms, 0)).toBeGreaterThan(invocationMs);
    expect([...new Set(agent.requests.map((q) => q.attempt))].sort((a, b) => a - b)).toEqual(numbers);
    expect(agent.peak).toBeLessThanOrEqual(concurrency);
    const span = agent.requests[agent.requests.length - 1].at - agent.requests[0].at;
    expect(span).toBeGreaterThan(invocationMs - DEADLINE_MARGIN_MS);
    // Every delivery of the run (the first, then its hand-offs) succeeded: none failed, none reached the dead-letter queue.
    expect(stats.queue).toMatchObject({ failed: 0, deadLettered: 0 });
    expect(stats.queue.received).toBeGreaterThan(1);
    console.log(
      `${attempts} attempts of ${stepMs} ms at ${concurrency} at once, invocations of ${invocationMs} ms: ` +
        `${stats.queue.received} deliveries, ${agent.requests.length} requests, ${(span / 1000).toFixed(1)} s at the agent`,
    );
  }, 90_000);

  it('loaded every function the stack deploys from its bundle', async () => {
    const { loaded } = await runner.stats();
    expect([...loaded].sort()).toEqual(Object.values(manifest.handlers).sort());
    console.log(`${loaded.length} bundles exercised; the whole file took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });
});

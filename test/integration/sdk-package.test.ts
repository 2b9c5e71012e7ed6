// @rts/sdk as a user gets it: built (npm run build:sdk), packed (npm pack) and installed from the tarball into a
// scratch project (npm install --offline), then required and imported from plain JavaScript, type-checked as a
// CommonJS, ESM and node10 consumer without @types/node, called on every route of the local service with each
// answer type-checked against the declared types, and the package README's client and receiver examples run as
// written (the receivers over HTTPS, verifying real deliveries of the service with both signature schemes).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as ts from 'typescript';
import { createGuardedSender } from '../../functions/adapters/http/guarded-sender';
import { startDemoAgent, type DemoAgent } from '../../functions/cli/demo-agent/command';
import { configureDeps } from '../../functions/wiring/deps';
import { findRoute } from '../../lib/route-match';
import { routes } from '../../lib/routes';
import type * as Sdk from '../../packages/sdk/src/index';
import { startHttpsReceiver, testCertificates, type HttpsReceiver } from '../helpers/https-receiver';
import { startTestService, type TestService } from '../helpers/local-service';

const ROOT = join(__dirname, '..', '..');
const PKG = join(ROOT, 'packages', 'sdk');
const README = readFileSync(join(PKG, 'README.md'), 'utf8');
const sample = (name: string) => JSON.parse(readFileSync(join(ROOT, 'samples', name), 'utf8'));
const exec = promisify(execFile);
const npm = (args: string[], cwd: string) => exec('npm', args, { cwd, env: { ...process.env, npm_config_update_notifier: 'false' } });

let scratch: string;
let packed: { filename: string; files: { path: string }[] };
let sdk: typeof Sdk;
let svc: TestService;
let agent: DemoAgent;
let receiver: HttpsReceiver;
let client: Sdk.RtsClient;

/** A README code block, by the `<!-- example: name -->` comment before it. */
function example(name: string): string {
  const match = new RegExp(`<!-- example: ${name} -->\\n\`\`\`js\\n([\\s\\S]*?)\`\`\``).exec(README);
  if (!match) throw new Error(`packages/sdk/README.md has no example ${name}`);
  return match[1];
}

/** Type-checks `files` (paths in the scratch project) with `options`: the diagnostics, formatted, or []. */
function typeCheck(files: string[], options: ts.CompilerOptions): string[] {
  const base = { target: ts.ScriptTarget.ES2022, lib: ['lib.es2022.d.ts'], types: [], strict: true, noEmit: true, skipLibCheck: false };
  const program = ts.createProgram(files, { ...base, ...options });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${d.file.fileName.replace(scratch, '')}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : '';
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

beforeAll(async () => {
  // Prepare: a fresh build, the tarball, a scratch project that installs it without the registry
  await npm(['run', '--silent', 'build:sdk'], ROOT);
  scratch = mkdtempSync(join(tmpdir(), 'rts-sdk-scratch-'));
  const { stdout } = await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], PKG);
  packed = JSON.parse(stdout)[0];
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'sdk-scratch', version: '1.0.0', private: true }));
  await npm(['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', join(scratch, packed.filename)], scratch);
  sdk = (await import(join(scratch, 'node_modules', '@rts', 'sdk'))) as typeof Sdk;

  svc = await startTestService({ queue: { concurrency: 4, redeliveryDelayMs: 20 } });
  configureDeps({ http: createGuardedSender({ allowPrivate: true, ca: testCertificates().ca }), sleep: async () => undefined });
  agent = await startDemoAgent({ port: 0 });
  receiver = await startHttpsReceiver();
  client = new sdk.RtsClient({ baseUrl: svc.url, apiKey: svc.apiKey, projectId: svc.projectId });
}, 180_000);

afterAll(async () => {
  configureDeps({ http: undefined, sleep: undefined });
  await agent?.close();
  await receiver?.close();
  await svc?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('the @rts/sdk tarball', () => {
  it('holds the built JavaScript, declarations, README and package.json only, and has no dependencies', () => {
    const files = packed.files.map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.mjs', 'dist/index.d.ts', 'dist/verify.d.mts']),
    );
    expect(files.filter((f) => !/^(package\.json|README\.md|dist\/.+\.(js|mjs|d\.ts|d\.mts))$/.test(f))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(scratch, 'node_modules', '@rts', 'sdk', 'package.json'), 'utf8'));
    expect(manifest.dependencies).toBeUndefined();
    expect(Object.keys(manifest.exports)).toEqual(['.', './verify', './package.json']);
  });

  it('loads with require and with import from plain JavaScript, one RtsClient and RtsApiError for both, nothing past its exports', async () => {
    // Prepare
    writeFileSync(
      join(scratch, 'load.cjs'),
      `const sdk = require('@rts/sdk');
const verify = require('@rts/sdk/verify');
let internal = 'loaded';
try { require('@rts/sdk/dist/client.js'); } catch (err) { internal = err.code; }
console.log(JSON.stringify({ client: typeof sdk.RtsClient, verifiers: [typeof verify.verifyStandardWebhook, typeof verify.verifySignature], same: sdk.verifySignature === verify.verifySignature, internal }));
`,
    );
    writeFileSync(
      join(scratch, 'load.mjs'),
      `import { RtsClient, RtsApiError, verifySignature } from '@rts/sdk';
import { verifyStandardWebhook, verifySignature as fromVerify } from '@rts/sdk/verify';
import { createRequire } from 'node:module';
const cjs = createRequire(import.meta.url)('@rts/sdk');
const error = await new RtsClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', projectId: 'p', retries: 0 }).health().catch((e) => e);
console.log(JSON.stringify({ client: typeof RtsClient, sameClass: RtsClient === cjs.RtsClient && RtsApiError === cjs.RtsApiError, same: verifySignature === fromVerify, standard: typeof verifyStandardWebhook, caught: error instanceof cjs.RtsApiError && error.code }));
`,
    );

    // Act
    const cjs = JSON.parse((await exec(process.execPath, ['load.cjs'], { cwd: scratch })).stdout);
    const esm = JSON.parse((await exec(process.execPath, ['load.mjs'], { cwd: scratch })).stdout);

    // Assess
    expect(cjs).toEqual({ client: 'function', verifiers: ['function', 'function'], same: true, internal: 'ERR_PACKAGE_PATH_NOT_EXPORTED' });
    expect(esm).toEqual({ client: 'function', sameClass: true, same: true, standard: 'function', caught: 'network_error' });
  });

  it('type-checks as a CommonJS, ESM (node16) and node10 consumer without @types/node, and refuses a wrong body', () => {
    // Prepare
    const consumer = `import { RtsClient, RtsApiError, type CiBatchView, type WebhookEvent } from '@rts/sdk';
import { verifySignature, verifyStandardWebhook } from '@rts/sdk/verify';
const client = new RtsClient({ baseUrl: 'https://api.example.com/prod/', retries: 3, maxRetryDelayMs: 5000 });
export const batch: Promise<CiBatchView> = client.getCiBatch('b');
export const ok: boolean = verifyStandardWebhook(new Uint8Array(0), { 'webhook-id': 'x' }, 'whsec_x') && verifySignature('{}', undefined, 's');
export const event: WebhookEvent = { event_type: 'webhook.test', project_id: 'p', created_at: 't', data: {} };
export const status = (e: unknown) => (e instanceof RtsApiError ? e.status : 0);
// @ts-expect-error a campaign needs a target
export const bad = client.createCampaign({ name: 'no target' });
`;
    for (const file of ['consumer.cts', 'consumer.mts', 'consumer-node10.ts']) writeFileSync(join(scratch, file), consumer);

    // Act
    const node16 = typeCheck([join(scratch, 'consumer.cts'), join(scratch, 'consumer.mts')], {
      module: ts.ModuleKind.Node16,
      moduleResolution: ts.ModuleResolutionKind.Node16,
    });
    const node10 = typeCheck([join(scratch, 'consumer-node10.ts')], {
      module: ts.ModuleKind.CommonJS,
      moduleResolution: ts.ModuleResolutionKind.Node10,
    });

    // Assess
    expect(node16).toEqual([]);
    expect(node10).toEqual([]);
  });
});

describe('RtsClient as installed, against the local service', () => {
  it('calls every route of lib/routes.ts, and every answer fits the type the package declares for it', async () => {
    // Prepare: a client that records what it sends
    const sent: string[] = [];
    const recording: Sdk.FetchLike = (url, init) => {
      const { match } = findRoute(init.method, new URL(url).pathname);
      sent.push(match ? `${match.route.method} ${match.route.path}` : `unmatched ${init.method} ${url}`);
      return fetch(url, init as RequestInit);
    };
    const c = new sdk.RtsClient({ baseUrl: svc.url, apiKey: svc.apiKey, projectId: svc.projectId, fetch: recording });
    const answers: [type: string, value: unknown][] = [];
    const keep = <T>(type: string, value: T): T => {
      answers.push([type, value]);
      return value;
    };
    const campaignBody = {
      ...sample('campaign.json'),
      target: { ...sample('campaign.json').target, url: agent.url, headers: { Authorization: 'Bearer x' } },
    };

    // Act
    keep('Sdk.Health', await c.health());
    expect((await c.getOpenApiDocument()).openapi).toMatch(/^3\.1\./); // large; its own tests check it
    const refund = keep('Sdk.ApiResponse<Sdk.TraceCreated>', await c.uploadTrace(sample('traces/refund-order.json')));
    keep('Sdk.ApiResponse<Sdk.TraceCreated>', await c.uploadTrace(sample('traces/refund-order.json')));
    const flight = await c.uploadTrace(sample('traces/book-flight.json'));
    const otlp = JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'otlp', 'two-traces.json'), 'utf8')) as Sdk.OtlpJsonExport;
    keep('Sdk.ApiResponse<Sdk.OtlpExportResult>', await c.uploadTrace(otlp));
    keep('Sdk.Page<Sdk.TraceSummary>', await c.listTraces({ limit: 2 }));
    keep('Sdk.Trace', await c.getTrace(refund.body.trace_id));
    const campaign = keep('Sdk.Campaign', await c.createCampaign(campaignBody));
    keep('Sdk.Page<Sdk.Campaign>', await c.listCampaigns({ limit: 5 }));
    keep('Sdk.Campaign', await c.getCampaign(campaign.campaign_id));
    keep('Sdk.Campaign', await c.updateCampaign(campaign.campaign_id, { ...campaignBody, name: `${campaignBody.name} v2` }, { ifMatch: 1 }));
    keep('Sdk.Page<Sdk.CampaignVersion>', await c.listCampaignVersions(campaign.campaign_id));
    const pool = [refund.body.trace_id, flight.body.trace_id];
    keep('Sdk.EvalSetUpdate', await c.updateEvalSet(campaign.campaign_id, { add_trace_ids: pool, min_scenarios: 2 }));
    keep('Sdk.EvalSet', await c.getEvalSet(campaign.campaign_id));
    keep('Sdk.PackQueued', await c.runPack(campaign.campaign_id, { trace_ids: [flight.body.trace_id] }));
    const run = keep('Sdk.RunQueued', await c.createRun({ trace_id: refund.body.trace_id, campaign_id: campaign.campaign_id }));
    const first = keep('Sdk.CiSubmission', await c.submitCiRun({ campaign_id: campaign.campaign_id, metadata: { branch: 'main', commit: 'a1' } }));
    const audit = await c.createCampaign({
      name: 'audit',
      target: { type: 'recorded' },
      policies: [{ id: 'budget', type: 'max_tool_calls', limit: 1 }],
    });
    const single = keep('Sdk.CiSubmission', await c.submitCiRun({ campaign_id: audit.campaign_id, trace_id: refund.body.trace_id }));
    await svc.idle();
    const second = keep('Sdk.CiSubmission', await c.submitCiRun({ campaign_id: campaign.campaign_id, baseline: { batch_id: first.ci_batch_id! } }));
    await svc.idle();
    keep('Sdk.Page<Sdk.Run>', await c.listRuns({ campaign_id: campaign.campaign_id, status: 'completed', limit: 3 }));
    keep('Sdk.RunDetail', await c.getRun(run.run_id));
    keep('Sdk.RunAttempts', await c.getRunAttempts(run.run_id, { limit: 2 }));
    keep('Sdk.AttemptDetail', await c.getRunAttempt(run.run_id, 1));
    keep('Sdk.PolicyEventPage', await c.listPolicyEvents(run.run_id, { limit: 5 }));
    keep('Sdk.SecurityEventsByAttempt', await c.getSecurityEvents(run.run_id));
    keep('Sdk.CiRunView', await c.getCiRun(single.run_id));
    keep('Sdk.CiBatchView', await c.getCiBatch(first.ci_batch_id!));
    const compared = keep('Sdk.CiBatchView', await c.getCiBatch(second.ci_batch_id!));
    keep('Sdk.CiScenarioPage', await c.listCiBatchScenarios(second.ci_batch_id!, { limit: 5 }));
    keep('Sdk.Page<Sdk.CiBatchListItem>', await c.listCiBatches({ campaign_id: campaign.campaign_id }));
    const hook = keep('Sdk.WebhookCreated', await c.createWebhook({ url: receiver.url, events: ['run.completed'], description: 'sdk' }));
    keep('Sdk.Page<Sdk.Webhook>', await c.listWebhooks());
    keep('Sdk.Webhook', await c.getWebhook(hook.webhook_id));
    keep('Sdk.Webhook', await c.updateWebhook(hook.webhook_id, { description: null }));
    const test = keep('Sdk.DeliveryQueued', await c.testWebhook(hook.webhook_id));
    await svc.idle();
    keep('Sdk.DeliveryQueued', await c.resendWebhookDelivery(hook.webhook_id, test.delivery_id));
    keep('Sdk.RecoverQueued', await c.recoverWebhookDeliveries(hook.webhook_id, { since: new Date(Date.now() - 3_600_000).toISOString() }));
    keep('Sdk.WebhookSecret', await c.rotateWebhookSecret(hook.webhook_id));
    await svc.idle();
    keep('Sdk.Page<Sdk.Delivery>', await c.listWebhookDeliveries(hook.webhook_id));
    await expect(c.deleteWebhook(hook.webhook_id)).resolves.toBeUndefined();
    const missing = await c.getTrace(randomUUID()).catch((e: unknown) => e);
    const invalid = await c.createWebhook({ url: 'http://hooks.example.com', events: ['*'] }).catch((e: unknown) => e);

    // Assess: the scenario meant something (events, a comparison), every route was called, tsc accepts every answer
    expect([missing, invalid].map((e) => e instanceof sdk.RtsApiError && [e.status, e.code])).toEqual([
      [404, 'not_found'],
      [422, 'validation_error'],
    ]);
    keep('Sdk.ApiErrorBody', (missing as Sdk.RtsApiError).body);
    keep('Sdk.ApiErrorBody', (invalid as Sdk.RtsApiError).body);
    expect(compared).toMatchObject({ status: 'done', comparison: { baseline_batch_id: first.ci_batch_id } });
    expect((await c.getSecurityEvents(run.run_id)).attempts.some((a) => a.events.length > 0)).toBe(true);
    expect((await c.listPolicyEvents(run.run_id)).items.length).toBeGreaterThan(0);
    // The MCP endpoint is for agents' MCP clients, not for the SDK.
    expect(
      routes
        .filter((r) => r.protocol !== 'mcp')
        .map((r) => `${r.method} ${r.path}`)
        .filter((r) => !sent.includes(r)),
    ).toEqual([]);
    expect(sent.filter((s) => s.startsWith('unmatched'))).toEqual([]);
    const file = join(scratch, 'answers.cts');
    writeFileSync(
      file,
      `import type * as Sdk from '@rts/sdk';\n\n${answers.map(([type, value], i) => `export const answer${i}: ${type} = ${JSON.stringify(value, null, 1)};\n`).join('\n')}`,
    );
    expect(typeCheck([file], { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 })).toEqual([]);
  }, 120_000);
});

/** Starts a README receiver (a node script in the scratch project) and waits for its `listening on <port>` line. */
async function startReceiver(script: string, secret: string): Promise<{ child: ChildProcess; port: number; lines: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'rts-sdk-tls-'));
  const { key, cert } = testCertificates();
  writeFileSync(join(dir, 'key.pem'), key);
  writeFileSync(join(dir, 'cert.pem'), cert);
  const env = { ...process.env, RTS_WEBHOOK_SECRET: secret, TLS_KEY: join(dir, 'key.pem'), TLS_CERT: join(dir, 'cert.pem'), PORT: '0' };
  const child = spawn(process.execPath, [script], { cwd: scratch, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error(`${script}: no "listening on" line within 10 s; stderr: ${stderr}`)), 10_000);
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}: ${stderr}`)));
    child.stdout!.on('data', (d: Buffer) => {
      buffered += d.toString();
      for (let i = buffered.indexOf('\n'); i >= 0; i = buffered.indexOf('\n')) {
        lines.push(buffered.slice(0, i));
        buffered = buffered.slice(i + 1);
        const port = /^listening on (\d+)$/.exec(lines[lines.length - 1])?.[1];
        if (port) {
          clearTimeout(timer);
          rmSync(dir, { recursive: true, force: true }); // read at start
          resolve({ child, port: Number(port), lines });
        }
      }
    });
  });
}

/** POSTs `body` with `headers` to a receiver over HTTPS (trusting the test CA); resolves to the status. */
function post(port: number, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`https://127.0.0.1:${port}/rts/webhooks`, { method: 'POST', ca: testCertificates().ca, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const EXPRESS_HARNESS = `// Runs the README's Express handler under node:https as Express would behind express.raw({ type: 'application/json' }):
// req.body is the raw body as a Buffer, and res.status(code) sets the status and returns res.
const https = require('node:https');
const { readFileSync } = require('node:fs');
const rtsWebhook = require('./rts-webhook');
const server = https.createServer({ key: readFileSync(process.env.TLS_KEY), cert: readFileSync(process.env.TLS_CERT) }, (req, res) => {
  res.status = (code) => ((res.statusCode = code), res);
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    req.body = /^application\\/json\\b/.test(req.headers['content-type'] || '') ? Buffer.concat(chunks) : {};
    rtsWebhook(req, res);
  });
});
server.listen(0, () => console.log('listening on', server.address().port));
`;

describe('the README examples, run as written with the installed package', () => {
  it('the client example uploads, audits and gates a trace, and lists its runs', async () => {
    writeFileSync(join(scratch, 'client-example.js'), example('client'));
    const env = { ...process.env, RTS_API_URL: svc.url, RTS_API_KEY: svc.apiKey, RTS_PROJECT_ID: svc.projectId };
    const { stdout } = await exec(process.execPath, ['client-example.js'], { cwd: scratch, env, timeout: 60_000 });
    expect(stdout).toMatch(
      /^uploaded [0-9a-f-]{36}\ndecision pass pass rate 1 http:\/\/\S+\/dashboard\/batches\/[0-9a-f-]{36}\nrun [0-9a-f-]{36} completed 1\n$/,
    );
  }, 90_000);

  it.each([
    ['receiver-node', 'receiver.js', undefined],
    ['receiver-express', 'express-harness.js', 'rts-webhook.js'],
  ])(
    '%s receives a real delivery over HTTPS, verifies both signatures, and refuses forged and stale ones',
    async (name, script, module) => {
      // Prepare: the example as a file, a webhook whose secret it is started with, then pointed at it
      writeFileSync(join(scratch, module ?? script), example(name));
      if (module) writeFileSync(join(scratch, script), EXPRESS_HARNESS);
      const hook = await client.createWebhook({ url: 'https://127.0.0.1:9/rts/webhooks', events: ['trace.created'] });
      // A first answer always holds the secret (only an Idempotency-Key replay has null).
      const secret = hook.secret as string;
      const rx = await startReceiver(script, secret);
      try {
        await client.updateWebhook(hook.webhook_id, { url: `https://127.0.0.1:${rx.port}/rts/webhooks` });

        // Act: a test event, its resend (same webhook-id), then requests signed by hand
        const sent = await client.testWebhook(hook.webhook_id);
        await svc.idle();
        await client.resendWebhookDelivery(hook.webhook_id, sent.delivery_id);
        await svc.idle();
        const body = JSON.stringify({ created_at: new Date().toISOString(), data: {}, event_type: 'webhook.test', project_id: svc.projectId });
        const signed = (id: string, at: number, contractSecret = secret) => ({
          'Content-Type': 'application/json',
          'X-Service-Signature': sdk.signPayload(body, contractSecret),
          'webhook-id': id,
          'webhook-timestamp': String(at),
          'webhook-signature': sdk.standardSignature(id, at, body, secret),
        });
        const nowS = Math.floor(Date.now() / 1000);
        const forgedContract = await post(rx.port, body, signed(randomUUID(), nowS, 'whsec_b3RoZXI='));
        const stale = await post(rx.port, body, signed(randomUUID(), nowS - 600));
        const fresh = randomUUID();
        const genuine = await post(rx.port, body, signed(fresh, nowS));

        // Assess: both tries of the delivery answered 204, the event was handled once; only the genuine hand-made one passed
        const [entry] = (await client.listWebhookDeliveries(hook.webhook_id)).items;
        expect(entry).toMatchObject({ delivery_id: sent.delivery_id, outcome: 'succeeded' });
        expect(entry.attempts.map((a) => [a.status_code, a.error])).toEqual([
          [204, null],
          [204, null],
        ]);
        expect([forgedContract, stale, genuine]).toEqual([401, 401, 204]);
        expect(rx.lines.filter((l) => l.startsWith('received'))).toEqual([
          `received webhook.test ${sent.delivery_id}`,
          `received webhook.test ${fresh}`,
        ]);
      } finally {
        rx.child.kill();
        await client.deleteWebhook(hook.webhook_id);
      }
    },
    60_000,
  );

  it('README.md and docs/ show the SDK as the package README does: every js block there that uses @rts/sdk is copied from it', () => {
    const docs = readdirSync(join(ROOT, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => join(ROOT, 'docs', name));
    const blocks = [join(ROOT, 'README.md'), ...docs]
      .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/```js\n([\s\S]*?)```/g)])
      .map((m) => m[1])
      .filter((b) => b.includes('@rts/sdk'));
    expect(blocks.length).toBeGreaterThan(0);
    expect(blocks.filter((b) => !README.includes(b))).toEqual([]);
  });
});

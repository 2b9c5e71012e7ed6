// The contract test: a compact scenario exercises every route of the local service (with the demo agent and
// an HTTPS webhook receiver), and every answer must validate against the schema that the served GET /v1/openapi.json
// documents for its route and status. Recording fixtures for the types test: RTS_RECORD_API_FIXTURES=1.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGuardedSender } from '../../functions/adapters/http/guarded-sender';
import { startDemoAgent, type DemoAgent } from '../../functions/cli/demo-agent/command';
import { configureDeps } from '../../functions/wiring/deps';
import { findRoute } from '../../lib/route-match';
import { routes } from '../../lib/routes';
import { startHttpsReceiver, testCertificates, type HttpsReceiver } from '../helpers/https-receiver';
import { startTestService, type ApiResponse, type TestService } from '../helpers/local-service';
import { startMcpAgent } from '../helpers/mcp-agent';
import { contractProblems, type Observation } from '../helpers/openapi';

const ROOT = join(__dirname, '..', '..');
const sample = (name: string) => JSON.parse(readFileSync(join(ROOT, 'samples', name), 'utf8'));
const REFUND = sample('traces/refund-order.json');
const FLIGHT = sample('traces/book-flight.json');
const OTLP = JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'otlp', 'genai-events.json'), 'utf8'));
const FIXTURES_FILE = join(ROOT, 'test', 'fixtures', 'api-answers.json');

let svc: TestService;
let agent: DemoAgent;
let receiver: HttpsReceiver;
let servedDoc: any;
const seen: Observation[] = [];

/** Records an answer under the route row it reached (null: no route) and returns it. */
function record<T>(method: string, url: string, res: ApiResponse<T>): ApiResponse<T> {
  const path = findRoute(method, url.split('?')[0]).match?.route.path ?? null;
  const contentType = (res.headers.get('content-type') ?? '').split(';')[0];
  seen.push({ method, path, status: res.status, contentType, body: res.text === '' ? undefined : res.body });
  return res;
}

const api = async <T = any>(method: string, url: string, body?: unknown, headers?: Record<string, string>) =>
  record(method, url, await svc.api<T>(method, url, body, headers));
const raw = async <T = any>(method: string, url: string, init: { body?: string; headers?: Record<string, string> }) =>
  record(method, url, await svc.raw<T>(method, url, init));
const json = { 'Content-Type': 'application/json' };

async function waitFor<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
  const end = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const terminal = (runId: string) =>
  waitFor(`run ${runId}`, async () => {
    const run = (await svc.api('GET', `/v1/runs/${runId}`)).body;
    return run.status === 'completed' || run.status === 'failed' ? run : undefined;
  });
const batchDone = (batchId: string) =>
  waitFor(`batch ${batchId}`, async () => ((await svc.api('GET', `/v1/ci/batch/${batchId}`)).body.status === 'done' ? true : undefined));

async function traces(): Promise<void> {
  await api('POST', '/v1/traces', REFUND, { 'Idempotency-Key': 'upload-refund' });
  await api('POST', '/v1/traces', REFUND, { 'Idempotency-Key': 'upload-refund' }); // replayed
  await api('POST', '/v1/traces', FLIGHT, { 'Idempotency-Key': 'upload-refund' }); // 409 idempotency_conflict
  await api('POST', '/v1/traces', FLIGHT);
  await api('POST', '/v1/traces', FLIGHT); // 200: identical re-upload
  await api('POST', '/v1/traces', { ...FLIGHT, name: 'changed' }); // 409 conflict
  await api('POST', '/v1/traces', OTLP); // 200: OTLP/JSON export
  const first = await api('GET', '/v1/traces?limit=1');
  await api('GET', `/v1/traces?limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`);
  await api('GET', `/v1/traces/${REFUND.trace_id}`);
}

async function campaignsAndRuns(): Promise<{ campaignId: string; recordedId: string }> {
  const campaign = {
    ...sample('campaign.json'),
    target: { ...sample('campaign.json').target, url: agent.url, headers: { Authorization: 'Bearer x' } },
  };
  const campaignId = (await api('POST', '/v1/campaigns', campaign)).body.campaign_id;
  const recordedId = (await api('POST', '/v1/campaigns', sample('campaign-recorded.json'))).body.campaign_id;
  await api('GET', '/v1/campaigns?limit=10');
  await api('GET', `/v1/campaigns/${campaignId}`);
  await api('PUT', `/v1/campaigns/${recordedId}`, { ...sample('campaign-recorded.json'), name: 'renamed' }, { 'If-Match': '"1"' });
  await api('PUT', `/v1/campaigns/${recordedId}`, sample('campaign-recorded.json'), { 'If-Match': '1' }); // 412 precondition_failed
  await api('GET', `/v1/campaigns/${recordedId}?version=1`);
  await api('GET', `/v1/campaigns/${recordedId}/versions?limit=1`);
  await api('PATCH', `/v1/campaigns/${campaignId}/eval-set`, { add_trace_ids: [REFUND.trace_id, FLIGHT.trace_id], min_scenarios: 2 });
  await api('PATCH', `/v1/campaigns/${campaignId}/eval-set`, { add_trace_ids: ['00000000-0000-4000-8000-000000000000'] }); // 422 unknown_trace
  await api('GET', `/v1/campaigns/${campaignId}/eval-set`);
  await raw('POST', `/v1/campaigns/${campaignId}/run-pack`, { headers: svc.authHeaders }); // no body at all: the eval-set
  await api('POST', `/v1/campaigns/${recordedId}/run-pack`, {}); // 422: no trace_ids and an empty eval-set

  const run = await api('POST', '/v1/runs', { trace_id: REFUND.trace_id, campaign_id: campaignId });
  await api('POST', '/v1/runs', { trace_id: REFUND.trace_id, campaign_id: '00000000-0000-4000-8000-000000000000' }); // 404
  await terminal(run.body.run_id);
  await svc.idle();
  await api('GET', `/v1/runs?campaign_id=${campaignId}&trace_id=${REFUND.trace_id}&status=completed&limit=2`);
  await api('GET', '/v1/runs?status=bogus'); // 422
  await api('GET', `/v1/runs/${run.body.run_id}`);
  const attempts = await api('GET', `/v1/runs/${run.body.run_id}/attempts?limit=2`);
  await api('GET', `/v1/runs/${run.body.run_id}/attempts?limit=2&cursor=${encodeURIComponent(attempts.body.next_cursor)}`);
  await api('GET', `/v1/runs/${run.body.run_id}/attempts/1`);
  await api('GET', `/v1/runs/${run.body.run_id}/attempts/999`); // 404
  const events = await api('GET', `/v1/runs/${run.body.run_id}/policy-events?limit=2`);
  await api('GET', `/v1/runs/${run.body.run_id}/policy-events?limit=2&cursor=${encodeURIComponent(events.body.next_cursor)}`);
  await api('GET', `/v1/runs/${run.body.run_id}/security-events`);
  return { campaignId, recordedId };
}

async function ci(campaignId: string, recordedId: string): Promise<void> {
  const main = await api('POST', '/v1/ci/runs', { campaign_id: campaignId, metadata: { branch: 'main', commit: 'abc123' } });
  await batchDone(main.body.ci_batch_id);
  const feature = await api('POST', '/v1/ci/runs', { campaign_id: campaignId, baseline: { branch: 'main' }, thresholds: { min_pass_rate: 0.5 } });
  await batchDone(feature.body.ci_batch_id);
  await api('GET', `/v1/ci/batch/${feature.body.ci_batch_id}`);
  await api('GET', `/v1/ci/batch/${feature.body.ci_batch_id}/scenarios?limit=1`);
  await api('GET', `/v1/ci/batch/${feature.body.ci_batch_id}/scenarios?status=failed`);
  await api('GET', `/v1/ci/batches?campaign_id=${campaignId}&branch=main`);
  await api('GET', `/v1/ci/runs/${feature.body.run_id}`);
  const single = await api('POST', '/v1/ci/runs', { campaign_id: recordedId, trace_id: FLIGHT.trace_id });
  await terminal(single.body.run_id);
  await api('GET', `/v1/ci/runs/${single.body.run_id}`);
  await api('PATCH', `/v1/campaigns/${recordedId}/eval-set`, { min_scenarios: 3 });
  await api('POST', '/v1/ci/runs', { campaign_id: recordedId, trace_id: FLIGHT.trace_id }); // 422 insufficient_scenarios
}

async function webhooks(): Promise<void> {
  const hook = (await api('POST', '/v1/webhooks', { url: receiver.url, events: ['*'], description: 'contract' })).body;
  await api('POST', '/v1/webhooks', { url: 'http://example.com/hook', events: ['*'] }); // 422
  const base = `/v1/webhooks/${hook.webhook_id}`;
  await api('POST', `${base}/test`);
  await svc.idle();
  await api('GET', '/v1/webhooks');
  await api('GET', base);
  const log = await api('GET', `${base}/deliveries?limit=2`);
  await api('PATCH', base, { is_enabled: false });
  await api('POST', `${base}/deliveries/${log.body.items[0].delivery_id}/resend`); // 409 webhook_paused
  await api('POST', `${base}/recover`, { since: new Date(Date.now() - 3600_000).toISOString() }); // 409 webhook_paused
  await api('PATCH', base, { is_enabled: true });
  await api('POST', `${base}/deliveries/${log.body.items[0].delivery_id}/resend`);
  await api('POST', `${base}/recover`, { since: new Date(Date.now() - 3600_000).toISOString() });
  await api('POST', `${base}/rotate-secret`);
  await svc.idle();
  await api('DELETE', base);
  await api('GET', base); // 404
  await api('GET', '/v1/webhooks/wh_malformed'); // 404
}

/** The MCP endpoint, as an `mcp` target's agent reaches it during an attempt, then with its token after the attempt. */
async function mcp(): Promise<void> {
  const rpc = (path: string, headers: Record<string, string>, message: unknown, extra: Record<string, string> = {}) =>
    raw('POST', path, { body: typeof message === 'string' ? message : JSON.stringify(message), headers: { ...headers, ...json, ...extra } });
  let endpoint = { path: '', headers: {} as Record<string, string> };
  const mcpAgent = await startMcpAgent(async (invoke) => {
    endpoint = { path: new URL(invoke.mcp.url).pathname, headers: invoke.mcp.headers };
    const { path, headers } = endpoint;
    await rpc(path, headers, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'contract', version: '1' } },
    }); // 200
    await rpc(path, headers, { jsonrpc: '2.0', method: 'notifications/initialized' }); // 202
    await rpc(path, headers, { jsonrpc: '2.0', id: 2, method: 'tools/list' }); // 200
    await rpc(path, headers, [{ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'lookup_order', arguments: { order_id: '1234' } } }]); // 200, a batch
    await rpc(path, headers, { jsonrpc: '2.0', id: 4, method: 'nope' }); // 200 with a JSON-RPC error
    await rpc(path, headers, '{"jsonrpc":'); // 400 parse error
    await rpc(path, headers, { jsonrpc: '2.0', id: 5, method: 'ping' }, { 'Mcp-Session-Id': 'not-this-one' }); // 404
    await rpc(path, headers, { jsonrpc: '2.0', id: 6, method: 'ping' }, { 'Content-Type': 'text/plain' }); // 415
    return 'Looked it up.';
  });
  try {
    const c = await api('POST', '/v1/campaigns', { name: 'contract mcp', target: { type: 'mcp', url: mcpAgent.url } });
    const run = await api('POST', '/v1/runs', { trace_id: REFUND.trace_id, campaign_id: c.body.campaign_id });
    await terminal(run.body.run_id);
    await rpc(endpoint.path, endpoint.headers, { jsonrpc: '2.0', id: 7, method: 'tools/list' }); // 401: the attempt ended
  } finally {
    await mcpAgent.close();
  }
}

async function refusals(): Promise<void> {
  await raw('POST', '/v1/campaigns', { body: '{"name":', headers: { ...svc.authHeaders, ...json } }); // 400
  await raw('GET', '/v1/runs', {}); // 401
  await api('GET', '/v1/runs/00000000-0000-4000-8000-000000000000'); // 404 not_found
  await api('GET', '/v1/runs/not-a-uuid'); // 404 not_found
  await api('GET', '/v1/nothing-here'); // 404 route_not_found
  await api('PUT', '/v1/runs', {}); // 405
  await raw('POST', '/v1/campaigns', { body: JSON.stringify({ name: 'x'.repeat(300 * 1024) }), headers: { ...svc.authHeaders, ...json } }); // 413
  await raw('POST', '/v1/runs', { body: '{}', headers: { ...svc.authHeaders, 'Content-Type': 'text/plain' } }); // 415
  await api('POST', '/v1/runs', { trace_id: 'nope' }); // 422
  await api('GET', '/v1/traces?limit=0'); // 422
  await api('POST', '/v1/webhooks', { url: 'https://example.com/h', events: ['*'] }, { 'Idempotency-Key': 'k'.repeat(256) }); // 422
}

/**
 * Per documented response schema, the first body of each shape (top-level keys), arrays cut to two items and secrets
 * replaced: the real answers the types test compiles against the generated types.
 */
function recordFixtures(): void {
  const cut = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.slice(0, 2).map((element) => cut(element))
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cut(x)]))
        : v;
  const out: Record<string, unknown[]> = {};
  const shapes = new Set<string>();
  for (const o of seen) {
    const row = routes.find((r) => r.path === o.path && r.method === o.method);
    const name = row && (o.status === row.status ? row.response : row.also?.[o.status]);
    const shape = `${name} ${Object.keys(o.body ?? {}).sort()}`;
    if (!name || name === 'OpenApiDocument' || o.contentType !== 'application/json' || shapes.has(shape)) continue;
    shapes.add(shape);
    const body = cut(o.body) as Record<string, unknown>;
    if (typeof body.secret === 'string') body.secret = `whsec_${'A'.repeat(43)}=`;
    (out[name] ??= []).push(body);
  }
  writeFileSync(FIXTURES_FILE, `${JSON.stringify(out, null, 2)}\n`);
}

beforeAll(async () => {
  svc = await startTestService({ queue: { concurrency: 4, redeliveryDelayMs: 20 } });
  configureDeps({ http: createGuardedSender({ allowPrivate: true, ca: testCertificates().ca }), sleep: async () => undefined });
  agent = await startDemoAgent({ port: 0 });
  receiver = await startHttpsReceiver({ mode: 'ok' });

  await record('GET', '/health', await svc.raw('GET', '/health'));
  servedDoc = (await record('GET', '/v1/openapi.json', await svc.raw('GET', '/v1/openapi.json'))).body;
  await traces();
  const { campaignId, recordedId } = await campaignsAndRuns();
  await ci(campaignId, recordedId);
  await webhooks();
  await mcp();
  await refusals();
  if (process.env.RTS_RECORD_API_FIXTURES) recordFixtures();
}, 180_000);

afterAll(async () => {
  configureDeps({ http: undefined, sleep: undefined });
  await agent?.close();
  await receiver?.close();
  await svc?.stop();
});

describe('GET /v1/openapi.json against the service it describes', () => {
  it('names the base URL it was requested at as its server', () => {
    expect(servedDoc.servers).toEqual([{ url: svc.url, description: expect.any(String) }]);
  });

  it('exercises every route of lib/routes.ts with its documented success status', () => {
    const missing = routes.filter((r) => !seen.some((o) => o.path === r.path && o.method === r.method && o.status === r.status));
    expect(missing.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([]);
  });

  it('provokes every status of docs/api.md#errors the scenario can reach, and all three 409 codes', () => {
    const statuses = new Set(seen.map((o) => o.status));
    for (const s of [200, 201, 202, 204, 400, 401, 404, 405, 409, 413, 415, 422]) expect([s, statuses.has(s)]).toEqual([s, true]);
    expect(seen.filter((o) => o.status === 409).map((o) => (o.body as any).error.code)).toEqual(
      expect.arrayContaining(['idempotency_conflict', 'conflict', 'webhook_paused']),
    );
  });

  it('documents every answer: its status for its operation, and a body that validates against the schema given there', () => {
    const problems = contractProblems(servedDoc, seen);
    if (problems.length) console.log(`${problems.length} answer(s) do not match the document:\n${problems.join('\n')}`);
    expect(problems).toEqual([]);
  });
});

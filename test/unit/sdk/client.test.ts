// RtsClient: one typed method per row of lib/routes.ts, each sending the method and path of its route, with the
// credentials, JSON and Idempotency-Key headers the API expects.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { findRoute } from '../../../lib/route-match';
import { routes } from '../../../lib/routes';
import { RtsClient, SDK_VERSION } from '../../../packages/sdk/src/index';
import { fakeFetch } from './fake-fetch';

const ID = '0b7d3f0e-4f7a-4c52-9b1e-0c7d2e9f4a11';
const OTHER = '7c1d9e2a-5b3f-4a6c-8d7e-9f0a1b2c3d4e';
const WH = `wh_${'a1'.repeat(12)}`;
const TRACE = { steps: [{ role: 'user' as const, content: 'hi' }] };

/** How the client calls each route, by `METHOD path` as lib/routes.ts spells it. */
const CALLS: Record<string, (c: RtsClient) => Promise<unknown>> = {
  'GET /health': (c) => c.health(),
  'GET /v1/openapi.json': (c) => c.getOpenApiDocument(),
  'POST /v1/traces': (c) => c.uploadTrace(TRACE),
  'GET /v1/traces': (c) => c.listTraces({ limit: 2 }),
  'GET /v1/traces/{trace_id}': (c) => c.getTrace(ID),
  'POST /v1/campaigns': (c) => c.createCampaign({ name: 'n', target: { type: 'recorded' } }),
  'GET /v1/campaigns': (c) => c.listCampaigns(),
  'GET /v1/campaigns/{campaign_id}': (c) => c.getCampaign(ID),
  'PUT /v1/campaigns/{campaign_id}': (c) => c.updateCampaign(ID, { name: 'n', target: { type: 'recorded' } }),
  'GET /v1/campaigns/{campaign_id}/versions': (c) => c.listCampaignVersions(ID, { limit: 5 }),
  'PATCH /v1/campaigns/{campaign_id}/eval-set': (c) => c.updateEvalSet(ID, { add_trace_ids: [OTHER] }),
  'GET /v1/campaigns/{campaign_id}/eval-set': (c) => c.getEvalSet(ID),
  'POST /v1/campaigns/{campaign_id}/run-pack': (c) => c.runPack(ID),
  'POST /v1/runs': (c) => c.createRun({ trace_id: OTHER, campaign_id: ID }),
  'GET /v1/runs': (c) => c.listRuns({ campaign_id: ID, status: 'completed' }),
  'GET /v1/runs/{run_id}': (c) => c.getRun(ID),
  'GET /v1/runs/{run_id}/attempts': (c) => c.getRunAttempts(ID, { limit: 10 }),
  'GET /v1/runs/{run_id}/attempts/{attempt}': (c) => c.getRunAttempt(ID, 3),
  'GET /v1/runs/{run_id}/policy-events': (c) => c.listPolicyEvents(ID, { limit: 10 }),
  'GET /v1/runs/{run_id}/security-events': (c) => c.getSecurityEvents(ID),
  'POST /v1/ci/runs': (c) => c.submitCiRun({ campaign_id: ID }),
  'GET /v1/ci/runs/{run_id}': (c) => c.getCiRun(ID),
  'GET /v1/ci/batch/{batch_id}': (c) => c.getCiBatch(ID),
  'GET /v1/ci/batch/{batch_id}/scenarios': (c) => c.listCiBatchScenarios(ID, { status: 'regressed' }),
  'GET /v1/ci/batches': (c) => c.listCiBatches({ branch: 'main' }),
  'POST /v1/webhooks': (c) => c.createWebhook({ url: 'https://hooks.example.com/rts', events: ['*'] }),
  'GET /v1/webhooks': (c) => c.listWebhooks(),
  'GET /v1/webhooks/{webhook_id}': (c) => c.getWebhook(WH),
  'PATCH /v1/webhooks/{webhook_id}': (c) => c.updateWebhook(WH, { is_enabled: false }),
  'DELETE /v1/webhooks/{webhook_id}': (c) => c.deleteWebhook(WH),
  'POST /v1/webhooks/{webhook_id}/rotate-secret': (c) => c.rotateWebhookSecret(WH),
  'GET /v1/webhooks/{webhook_id}/deliveries': (c) => c.listWebhookDeliveries(WH),
  'POST /v1/webhooks/{webhook_id}/deliveries/{delivery_id}/resend': (c) => c.resendWebhookDelivery(WH, OTHER),
  'POST /v1/webhooks/{webhook_id}/recover': (c) => c.recoverWebhookDeliveries(WH, { since: '2026-11-20T00:00:00Z' }),
  'POST /v1/webhooks/{webhook_id}/test': (c) => c.testWebhook(WH),
};

const client = (f = fakeFetch()) => new RtsClient({ baseUrl: 'https://api.example.com/prod/', apiKey: 'rts_key', projectId: ID, fetch: f.fetch });

describe('RtsClient methods', () => {
  it('has a method for every row of lib/routes.ts but the MCP endpoint (for MCP clients), and none for a route that does not exist', () => {
    const rows = routes.filter((r) => r.protocol !== 'mcp');
    expect(Object.keys(CALLS).sort()).toEqual(rows.map((r) => `${r.method} ${r.path}`).sort());
  });

  it.each(Object.keys(CALLS))('%s: sends that method and a path the route table matches to that row', async (key) => {
    // Prepare
    const f = fakeFetch({ status: key.startsWith('DELETE') ? 204 : 200, body: key.startsWith('DELETE') ? undefined : { items: [] } });

    // Act
    await CALLS[key](client(f));

    // Assess
    expect(f.calls).toHaveLength(1);
    const { url, init } = f.calls[0];
    expect(url.origin + url.pathname.slice(0, 5)).toBe('https://api.example.com/prod');
    const { match } = findRoute(init.method, url.pathname.slice('/prod'.length));
    expect(match && `${match.route.method} ${match.route.path}`).toBe(key);
  });

  it('sends credentials, JSON, its User-Agent, the query, and an Idempotency-Key on every typed POST', async () => {
    // Prepare
    const f = fakeFetch({ status: 202, body: {} });
    const c = client(f);

    // Act
    await c.submitCiRun({ campaign_id: ID, thresholds: { min_pass_rate: 0.9 } });
    await c.submitCiRun({ campaign_id: ID }, 'build-1234');
    await c.listRuns({ campaign_id: ID, status: 'failed', cursor: undefined });

    // Assess
    const [first, second, list] = f.calls;
    expect(first.init.headers).toEqual({
      'X-API-Key': 'rts_key',
      'X-Project-Id': ID,
      Accept: 'application/json',
      'User-Agent': `rts-sdk-js/${SDK_VERSION}`,
      'Content-Type': 'application/json',
      'Idempotency-Key': expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(JSON.parse(first.init.body!)).toEqual({ campaign_id: ID, thresholds: { min_pass_rate: 0.9 } });
    expect(second.init.headers['Idempotency-Key']).toBe('build-1234');
    expect(list.init.headers['Content-Type']).toBeUndefined();
    expect(list.init.body).toBeUndefined();
    expect([...list.url.searchParams]).toEqual([
      ['campaign_id', ID],
      ['status', 'failed'],
    ]);
  });

  it('sends updateCampaign with If-Match as an ETag and an Idempotency-Key, and getCampaign with ?version', async () => {
    // Prepare
    const f = fakeFetch({ status: 200, body: {} }, { status: 200, body: {} });
    const c = client(f);

    // Act
    await c.updateCampaign(ID, { name: 'n', target: { type: 'recorded' } }, { ifMatch: 3 });
    await c.getCampaign(ID, { version: 2 });

    // Assess
    const [put, get] = f.calls;
    expect(put.init.method).toBe('PUT');
    expect(put.init.headers).toMatchObject({ 'If-Match': '"3"', 'Idempotency-Key': expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(JSON.parse(put.init.body!)).toEqual({ name: 'n', target: { type: 'recorded' } });
    expect(get.url.searchParams.get('version')).toBe('2');
  });

  it('sends no body and no Content-Type on POSTs without one (rotate-secret, test, resend)', async () => {
    const f = fakeFetch({ status: 202, body: {} });
    await client(f).testWebhook(WH);
    expect(f.calls[0].init.body).toBeUndefined();
    expect(f.calls[0].init.headers['Content-Type']).toBeUndefined();
  });

  it('escapes ids in paths', async () => {
    const f = fakeFetch({ status: 404, body: { error: { code: 'not_found', message: 'no', request_id: 'r' } } });
    await expect(client(f).getTrace('a/b?c')).rejects.toMatchObject({ status: 404, code: 'not_found', requestId: 'r' });
    expect(f.calls[0].url.pathname).toBe('/prod/v1/traces/a%2Fb%3Fc');
  });

  it('resolves uploadTrace to the status and the body, since 201 and 200 differ', async () => {
    const f = fakeFetch({ status: 200, body: { trace_id: ID } });
    await expect(client(f).uploadTrace(TRACE, 'upload:1')).resolves.toEqual({ status: 200, body: { trace_id: ID } });
  });

  it('follows next_cursor in allPages and paginate', async () => {
    // Prepare
    const f = fakeFetch({ status: 200, body: { items: [1, 2], next_cursor: 'c2' } }, { status: 200, body: { items: [3], next_cursor: null } });
    const c = client(f);

    // Act
    const all = await c.allPages((cursor) => c.listTraces({ cursor }));

    // Assess
    expect(all).toEqual([1, 2, 3]);
    expect(f.calls.map((x) => x.url.searchParams.get('cursor'))).toEqual([null, 'c2']);
  });

  it('reads RTS_API_URL, RTS_API_KEY and RTS_PROJECT_ID, and names what is missing or malformed', () => {
    const saved = { ...process.env };
    try {
      Object.assign(process.env, { RTS_API_URL: 'http://127.0.0.1:8787/', RTS_API_KEY: 'k', RTS_PROJECT_ID: ID });
      expect(new RtsClient().baseUrl).toBe('http://127.0.0.1:8787');
      process.env.RTS_API_URL = 'localhost:8787';
      expect(() => new RtsClient()).toThrow('RTS_API_URL is not an absolute http(s) URL: "localhost:8787"');
      expect(() => new RtsClient({ baseUrl: 'ftp://x' })).toThrow('baseUrl is not an absolute http(s) URL');
      delete process.env.RTS_API_KEY;
      expect(() => new RtsClient({ baseUrl: 'http://x' })).toThrow('missing configuration: RTS_API_KEY');
    } finally {
      process.env = saved;
    }
  });
});

describe('the package', () => {
  const PKG = join(__dirname, '..', '..', '..', 'packages', 'sdk');

  const SRC = join(PKG, 'src');
  const sources = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? sources(join(dir, name)) : [join(dir, name)]));

  it('sends the version package.json declares', () => {
    expect(SDK_VERSION).toBe(JSON.parse(readFileSync(join(PKG, 'package.json'), 'utf8')).version);
  });

  it('is self-contained: its sources import only each other and node: built-ins, and those written by hand stay under 400 lines', () => {
    const problems = sources(SRC).flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/g)].map((m) => m[1]);
      const outside = specs.filter((s) => (s.startsWith('.') ? relative(SRC, resolve(dirname(file), s)).startsWith('..') : !s.startsWith('node:')));
      const lines = relative(SRC, file).startsWith('generated') ? 0 : text.split('\n').length;
      return [...outside.map((s) => `${relative(SRC, file)} imports ${s}`), ...(lines > 400 ? [`${relative(SRC, file)}: ${lines} lines`] : [])];
    });
    expect(problems).toEqual([]);
  });
});

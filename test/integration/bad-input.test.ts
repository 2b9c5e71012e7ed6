// Hostile input on every route: nothing yields a 500, a hang or a non-JSON error, and nothing is half-written.
import { routes } from '../../lib/routes';
import { startTestService, type TestService } from '../helpers/local-service';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ deliverWebhooks: false });
});
afterAll(async () => {
  await svc.stop();
});

function deepObject(levels: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = { k: v };
  return v;
}

const BODIES: (string | undefined)[] = [
  undefined,
  '',
  'null',
  '"string"',
  '42',
  'true',
  '[]',
  '{',
  '{"a":}',
  '{}',
  '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}',
  JSON.stringify({ name: 12, target: 'http', steps: {}, url: 5, events: 'all', campaign_id: ['x'], thresholds: 'high' }),
  JSON.stringify({ trace_id: 'not-a-uuid', campaign_id: '00000000-0000-0000-0000-000000000000' }),
  JSON.stringify({ add_trace_ids: [1, null, {}], min_scenarios: 1e308 }),
  JSON.stringify({ min_scenarios: -1, thresholds: { min_pass_rate: 2, max_unsafe: -3, max_failures: 1.5 } }),
  JSON.stringify({ steps: [{ role: 'wizard' }], url: 'http://user:pw@example.com', events: [] }),
  JSON.stringify({ deep: deepObject(200) }),
  '['.repeat(50000) + ']'.repeat(50000),
  JSON.stringify({ name: '\u0000\ud800 \u202e evil', steps: [{ role: 'user', content: '\u0000' }] }),
];

const PATH_IDS = ['00000000-0000-0000-0000-000000000000', 'not-a-uuid', '..%2F..%2Fetc', '%00', `wh_${'a'.repeat(24)}`, 'x'.repeat(300)];

function concrete(path: string, id: string): string {
  return path.replace(/\{[a-z_]+\}/g, id);
}

describe('hostile bodies', () => {
  const bodyRoutes = routes.filter((r) => r.method !== 'GET' && r.method !== 'DELETE');
  it.each(bodyRoutes.map((r) => [`${r.method} ${r.path}`, r]))('%s never answers 5xx', async (_name, route) => {
    for (const body of BODIES) {
      for (const contentType of ['application/json', 'text/plain']) {
        const res = await svc.raw(route.method, concrete(route.path, '00000000-0000-4000-8000-000000000000'), {
          body,
          headers: { ...svc.authHeaders, 'Content-Type': contentType },
        });
        expect(res.status).toBeLessThan(500);
        expect(res.status).toBeGreaterThanOrEqual(200);
        // The MCP endpoint answers in its own protocol: JSON-RPC errors, with integer codes.
        if (res.status >= 400) expect(typeof res.body.error.code).toBe(route.protocol === 'mcp' ? 'number' : 'string');
      }
    }
  });
});

describe('hostile paths and queries', () => {
  it('never answers 5xx for odd ids, cursors and limits on GET routes', async () => {
    const gets = routes.filter((r) => r.method === 'GET');
    for (const route of gets) {
      for (const id of PATH_IDS) {
        for (const query of ['', '?limit=abc', '?limit=-1', '?limit=1e3', '?cursor=%00', '?cursor=eyJ9.AAAA', '?status=all&campaign_id=1']) {
          const res = await svc.raw('GET', concrete(route.path, id) + query, { headers: svc.authHeaders });
          expect(res.status).toBeLessThan(500);
          // The MCP endpoint answers in its own protocol: JSON-RPC errors, with integer codes.
          if (res.status >= 400) expect(typeof res.body.error.code).toBe(route.protocol === 'mcp' ? 'number' : 'string');
        }
      }
    }
  });

  it('stored only the one valid body of all of the above (a trace with control characters in its text)', async () => {
    const traces = await svc.api('GET', '/v1/traces');
    const campaigns = await svc.api('GET', '/v1/campaigns');
    const runs = await svc.api('GET', '/v1/runs');
    expect([traces.body.items.length, campaigns.body.items.length, runs.body.items.length]).toEqual([1, 0, 0]);
    const stored = await svc.api('GET', `/v1/traces/${traces.body.items[0].trace_id}`);
    expect(stored.body.steps).toEqual([{ role: 'user', content: '\u0000' }]);
  });
});

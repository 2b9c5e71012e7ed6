// The foundation routes through the local gateway against dynalite: traces, campaigns, eval-sets, runs, auth,
// the error model (docs/api.md#conventions), idempotency, pagination and ownership.
import type { BusEvent } from '../../functions/core/events';
import { createProject } from '../../functions/core/auth';
import { systemClock } from '../../functions/core/time';
import { getDeps } from '../../functions/wiring/deps';
import { recordedCampaign, sampleTrace, uuid } from '../helpers/fixtures';
import { startTestService, type TestService } from '../helpers/local-service';

const ISO_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let svc: TestService;
const events: BusEvent[] = [];

beforeAll(async () => {
  svc = await startTestService({ deliverWebhooks: false });
  svc.bus.onEvent((e) => events.push(e));
});
afterAll(async () => {
  await svc.stop();
});

function expectError(res: { status: number; body: any }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body.error.code).toBe(code);
  expect(typeof res.body.error.message).toBe('string');
  expect(typeof res.body.error.request_id).toBe('string');
}

describe('GET /health', () => {
  it('answers ok without credentials', async () => {
    const res = await svc.raw('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });
});

describe('authentication', () => {
  it('rejects a missing key, an unknown key, another project and a malformed project id with one 401 body', async () => {
    const trace = JSON.stringify(sampleTrace());
    const json = { 'Content-Type': 'application/json' };
    const other = await createProject({ projects: getDeps().projects, clock: systemClock }, { name: 'other' });
    const cases = [
      { ...json },
      { ...json, 'X-Project-Id': svc.projectId },
      { ...json, 'X-API-Key': `rts_${'a'.repeat(40)}`, 'X-Project-Id': svc.projectId },
      { ...json, 'X-API-Key': other.api_key, 'X-Project-Id': svc.projectId },
      { ...json, 'X-API-Key': svc.apiKey, 'X-Project-Id': 'not-a-uuid' },
    ];
    const bodies = [];
    for (const headers of cases) {
      const res = await svc.raw('POST', '/v1/traces', { body: trace, headers });
      expectError(res, 401, 'unauthorized');
      bodies.push({ ...res.body.error, request_id: undefined });
    }
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
  });
});

describe('routing errors', () => {
  it('answers an unknown path with 404 route_not_found', async () => {
    expectError(await svc.api('GET', '/v1/nope'), 404, 'route_not_found');
  });
  it('answers a known path with a wrong method with 405 method_not_allowed and Allow', async () => {
    const res = await svc.api('DELETE', '/v1/traces');
    expectError(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toContain('POST');
  });
});

describe('POST /v1/traces', () => {
  it('stores a trace and answers 201 with its summary, emitting trace.created', async () => {
    const res = await svc.api('POST', '/v1/traces', sampleTrace());
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['created_at', 'name', 'size_bytes', 'step_count', 'tool_call_count', 'trace_id']);
    expect(res.body.trace_id).toMatch(UUID);
    expect(res.body.created_at).toMatch(ISO_MICROS);
    expect(res.body).toMatchObject({ name: 'refund order 1234', step_count: 7, tool_call_count: 2 });
    const ev = events.find((e) => e.envelope.event_type === 'trace.created' && e.envelope.data.trace_id === res.body.trace_id);
    expect(ev?.envelope).toEqual({
      event_type: 'trace.created',
      project_id: svc.projectId,
      created_at: expect.stringMatching(ISO_MICROS),
      data: { trace_id: res.body.trace_id, name: 'refund order 1234', step_count: 7 },
    });
  });

  it('answers a re-upload of the same id and content with 200 and the same body, different content with 409', async () => {
    const id = uuid();
    const first = await svc.api('POST', '/v1/traces', sampleTrace({ trace_id: id }));
    const again = await svc.api('POST', '/v1/traces', sampleTrace({ trace_id: id }));
    const changed = await svc.api('POST', '/v1/traces', sampleTrace({ trace_id: id, name: 'other' }));
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expectError(changed, 409, 'conflict');
  });

  it('parses JSON-string arguments and returns the stored trace from GET', async () => {
    const created = await svc.api('POST', '/v1/traces', sampleTrace());
    const got = await svc.api('GET', `/v1/traces/${created.body.trace_id}`);
    expect(got.status).toBe(200);
    expect(got.body.steps[4].tool_calls[0].arguments).toEqual({ order_id: '1234', amount: 42.5 });
    expect(got.body.tools).toHaveLength(2);
  });

  it('rejects malformed JSON with 400 invalid_json and a non-object with 400', async () => {
    expectError(
      await svc.raw('POST', '/v1/traces', { body: '{"steps": [', headers: { ...svc.authHeaders, 'Content-Type': 'application/json' } }),
      400,
      'invalid_json',
    );
    expectError(
      await svc.raw('POST', '/v1/traces', { body: '[1,2]', headers: { ...svc.authHeaders, 'Content-Type': 'application/json' } }),
      400,
      'invalid_json',
    );
    expectError(
      await svc.raw('POST', '/v1/traces', { body: '', headers: { ...svc.authHeaders, 'Content-Type': 'application/json' } }),
      400,
      'invalid_json',
    );
  });

  it('rejects a non-JSON content type with 415', async () => {
    expectError(
      await svc.raw('POST', '/v1/traces', { body: JSON.stringify(sampleTrace()), headers: { ...svc.authHeaders, 'Content-Type': 'text/plain' } }),
      415,
      'unsupported_media_type',
    );
  });

  it('rejects invalid traces with 422 and a path per problem', async () => {
    const noUser = await svc.api('POST', '/v1/traces', { steps: [{ role: 'system', content: 'x' }] });
    expectError(noUser, 422, 'validation_error');
    expect(noUser.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'steps' })]));
    const badAnswer = await svc.api('POST', '/v1/traces', {
      steps: [
        { role: 'user', content: 'hi' },
        { role: 'tool', tool_call_id: 'nope', content: 'x' },
      ],
    });
    expectError(badAnswer, 422, 'validation_error');
    expect(badAnswer.body.error.details[0].path).toBe('steps.1.tool_call_id');
    const wrongTypes = await svc.api('POST', '/v1/traces', { steps: 'many', tags: [1] });
    expectError(wrongTypes, 422, 'validation_error');
  });

  it('stores a 1 MiB trace across chunks and returns it intact', async () => {
    const blob = 'x'.repeat(1024);
    const steps: unknown[] = [{ role: 'user', content: 'big' }];
    for (let i = 0; i < 500; i++) {
      steps.push({ role: 'assistant', content: null, tool_calls: [{ id: `c${i}`, name: 'fetch', arguments: { i } }] });
      steps.push({ role: 'tool', tool_call_id: `c${i}`, content: { blob: `${i}-${blob}-${Math.sin(i)}` } });
    }
    steps.push({ role: 'assistant', content: 'done' });
    const created = await svc.api('POST', '/v1/traces', { name: 'big', steps });
    expect(created.status).toBe(201);
    expect(created.body.size_bytes).toBeGreaterThan(1024 * 1024 * 0.5);
    const got = await svc.api('GET', `/v1/traces/${created.body.trace_id}`);
    expect(got.body.steps).toEqual(steps.map((s: any) => (s.role === 'assistant' && !('content' in s) ? { ...s, content: null } : s)));
  });

  it('rejects bodies above 5 MiB with 413 and stores nothing', async () => {
    const before = await svc.api('GET', '/v1/traces?limit=100');
    const huge = JSON.stringify({ name: 'huge', steps: [{ role: 'user', content: 'y'.repeat(5 * 1024 * 1024 + 10) }] });
    expectError(
      await svc.raw('POST', '/v1/traces', { body: huge, headers: { ...svc.authHeaders, 'Content-Type': 'application/json' } }),
      413,
      'payload_too_large',
    );
    const after = await svc.api('GET', '/v1/traces?limit=100');
    expect(after.body.items.length).toBe(before.body.items.length);
  });

  it('answers 404 for unknown, malformed and other-project trace ids', async () => {
    const created = await svc.api('POST', '/v1/traces', sampleTrace());
    const other = await createProject({ projects: getDeps().projects, clock: systemClock }, { name: 'other' });
    const otherHeaders = { 'X-API-Key': other.api_key, 'X-Project-Id': other.project_id };
    expectError(await svc.api('GET', `/v1/traces/${uuid()}`), 404, 'not_found');
    expectError(await svc.api('GET', '/v1/traces/not-a-uuid'), 404, 'not_found');
    expectError(await svc.raw('GET', `/v1/traces/${created.body.trace_id}`, { headers: otherHeaders }), 404, 'not_found');
    expectError(await svc.raw('GET', `/v1/traces/${created.body.trace_id.toUpperCase()}`, { headers: otherHeaders }), 404, 'not_found');
  });

  it('reads an id in a path lowercase: one sent in capitals names the same trace', async () => {
    const created = await svc.api('POST', '/v1/traces', sampleTrace());
    const shouted = await svc.api('GET', `/v1/traces/${created.body.trace_id.toUpperCase()}`);
    expect(shouted.status).toBe(200);
    expect(shouted.body.trace_id).toBe(created.body.trace_id);
  });
});

describe('GET /v1/traces pagination', () => {
  it('pages newest first with opaque cursors and rejects tampered cursors and bad limits with 422', async () => {
    for (let i = 0; i < 3; i++) await svc.api('POST', '/v1/traces', sampleTrace({ name: `page-${i}` }));
    const p1 = await svc.api('GET', '/v1/traces?limit=2');
    expect(p1.status).toBe(200);
    expect(p1.body.items).toHaveLength(2);
    expect(p1.body.items[0].steps).toBeUndefined();
    expect(p1.body.items[0].created_at >= p1.body.items[1].created_at).toBe(true);
    expect(typeof p1.body.next_cursor).toBe('string');
    const p2 = await svc.api('GET', `/v1/traces?limit=2&cursor=${encodeURIComponent(p1.body.next_cursor)}`);
    expect(p2.status).toBe(200);
    const ids1 = p1.body.items.map((t: any) => t.trace_id);
    expect(p2.body.items.some((t: any) => ids1.includes(t.trace_id))).toBe(false);
    const tampered = p1.body.next_cursor.slice(0, -2) + (p1.body.next_cursor.endsWith('AA') ? 'BB' : 'AA');
    expectError(await svc.api('GET', `/v1/traces?cursor=${encodeURIComponent(tampered)}`), 422, 'validation_error');
    expectError(await svc.api('GET', `/v1/campaigns?cursor=${encodeURIComponent(p1.body.next_cursor)}`), 422, 'validation_error');
    expectError(await svc.api('GET', '/v1/traces?limit=0'), 422, 'validation_error');
    expectError(await svc.api('GET', '/v1/traces?limit=101'), 422, 'validation_error');
  });
});

describe('POST /v1/campaigns', () => {
  it('creates a campaign with defaults and redacts write-only secrets, emitting campaign.created', async () => {
    const res = await svc.api('POST', '/v1/campaigns', {
      name: 'http agent',
      target: { type: 'http', url: 'https://agent.example.com/rts/step', headers: { Authorization: 'Bearer s3cret' } },
    });
    expect(res.status).toBe(201);
    expect(res.body.campaign_id).toMatch(UUID);
    expect(res.body.created_at).toMatch(ISO_MICROS);
    expect(res.body.eval_set).toEqual({ trace_count: 0, min_scenarios: 0 });
    expect(res.body.target.headers).toEqual({ Authorization: '***' });
    expect(res.body).toMatchObject({ include_baseline: true, repeats: 1, criteria: [{ type: 'completes' }] });
    expect(JSON.stringify(res.body)).not.toContain('s3cret');
    const got = await svc.api('GET', `/v1/campaigns/${res.body.campaign_id}`);
    expect(JSON.stringify(got.body)).not.toContain('s3cret');
    expect(
      events.some(
        (e) =>
          e.envelope.event_type === 'campaign.created' &&
          e.envelope.data.campaign_id === res.body.campaign_id &&
          e.envelope.data.target_type === 'http',
      ),
    ).toBe(true);
  });

  it('rejects invalid campaigns with 422: recorded target with mutations, unknown types, duplicate ids, too many attempts', async () => {
    const bad = [
      recordedCampaign({ mutations: [{ id: 'm', type: 'tool_error', tool: 'x' }] }),
      recordedCampaign({ policies: [{ id: 'p', type: 'teleport' }] }),
      { name: 'x', target: { type: 'openai', base_url: 'https://x.test/v1' } },
      { name: 'x', target: { type: 'http', url: 'https://a.test', timeout_ms: 'slow' } },
      {
        name: 'x',
        target: { type: 'http', url: 'https://a.test' },
        repeats: 20,
        mutations: Array.from({ length: 10 }, (_, i) => ({ id: `m${i}`, type: 'tool_timeout', tool: '*' })),
      },
      {
        name: 'x',
        target: { type: 'http', url: 'https://a.test' },
        mutations: [
          { id: 'a', type: 'tool_timeout', tool: '*' },
          { id: 'a', type: 'tool_timeout', tool: '*' },
        ],
      },
    ];
    for (const body of bad) expectError(await svc.api('POST', '/v1/campaigns', body), 422, 'validation_error');
  });
});

describe('eval-set', () => {
  it('adds and removes incrementally and idempotently, and sets min_scenarios', async () => {
    const c = (await svc.api('POST', '/v1/campaigns', recordedCampaign())).body;
    const t1 = (await svc.api('POST', '/v1/traces', sampleTrace())).body.trace_id;
    const t2 = (await svc.api('POST', '/v1/traces', sampleTrace())).body.trace_id;
    const add = await svc.api('PATCH', `/v1/campaigns/${c.campaign_id}/eval-set`, { add_trace_ids: [t1, t2], min_scenarios: 2 });
    expect(add.status).toBe(200);
    expect(add.body).toEqual({ campaign_id: c.campaign_id, trace_ids: [t1, t2], trace_count: 2, min_scenarios: 2, added: [t1, t2], removed: [] });
    const again = await svc.api('PATCH', `/v1/campaigns/${c.campaign_id}/eval-set`, { add_trace_ids: [t1], remove_trace_ids: [uuid()] });
    expect(again.body).toMatchObject({ trace_count: 2, added: [], removed: [] });
    const remove = await svc.api('PATCH', `/v1/campaigns/${c.campaign_id}/eval-set`, { remove_trace_ids: [t1] });
    expect(remove.body).toMatchObject({ trace_ids: [t2], trace_count: 1, removed: [t1], min_scenarios: 2 });
    const got = await svc.api('GET', `/v1/campaigns/${c.campaign_id}/eval-set`);
    expect(got.body).toEqual({ campaign_id: c.campaign_id, trace_ids: [t2], trace_count: 1, min_scenarios: 2 });
    expect((await svc.api('GET', `/v1/campaigns/${c.campaign_id}`)).body.eval_set).toEqual({ trace_count: 1, min_scenarios: 2 });
  });

  it('rejects unknown traces with 422 unknown_trace listing them, an id in both lists and an empty patch with 422', async () => {
    const c = (await svc.api('POST', '/v1/campaigns', recordedCampaign())).body;
    const t = (await svc.api('POST', '/v1/traces', sampleTrace())).body.trace_id;
    const missing = uuid();
    const res = await svc.api('PATCH', `/v1/campaigns/${c.campaign_id}/eval-set`, { add_trace_ids: [t, missing] });
    expectError(res, 422, 'unknown_trace');
    expect(JSON.stringify(res.body.error.details)).toContain(missing);
    expect((await svc.api('GET', `/v1/campaigns/${c.campaign_id}/eval-set`)).body.trace_count).toBe(0);
    expectError(
      await svc.api('PATCH', `/v1/campaigns/${c.campaign_id}/eval-set`, { add_trace_ids: [t], remove_trace_ids: [t] }),
      422,
      'validation_error',
    );
    expectError(await svc.api('PATCH', `/v1/campaigns/${c.campaign_id}/eval-set`, {}), 422, 'validation_error');
    expectError(await svc.api('PATCH', `/v1/campaigns/${c.campaign_id}/eval-set`, { min_scenarios: -1 }), 422, 'validation_error');
    expectError(await svc.api('PATCH', `/v1/campaigns/${uuid()}/eval-set`, { min_scenarios: 1 }), 404, 'not_found');
  });

  it("refuses another project's traces as unknown", async () => {
    const other = await createProject({ projects: getDeps().projects, clock: systemClock }, { name: 'other' });
    const theirs = await svc.raw('POST', '/v1/traces', {
      body: JSON.stringify(sampleTrace()),
      headers: { 'X-API-Key': other.api_key, 'X-Project-Id': other.project_id, 'Content-Type': 'application/json' },
    });
    const c = (await svc.api('POST', '/v1/campaigns', recordedCampaign())).body;
    expectError(await svc.api('PATCH', `/v1/campaigns/${c.campaign_id}/eval-set`, { add_trace_ids: [theirs.body.trace_id] }), 422, 'unknown_trace');
  });
});

describe('POST /v1/runs', () => {
  it('queues a run (202) and emits run.created, run.queued and run.replay_queued', async () => {
    const t = (await svc.api('POST', '/v1/traces', sampleTrace())).body.trace_id;
    const c = (await svc.api('POST', '/v1/campaigns', recordedCampaign())).body.campaign_id;
    const res = await svc.api('POST', '/v1/runs', { trace_id: t, campaign_id: c });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      run_id: expect.stringMatching(UUID),
      status: 'queued',
      trace_id: t,
      campaign_id: c,
      created_at: expect.stringMatching(ISO_MICROS),
    });
    const types = events.filter((e) => e.envelope.data.run_id === res.body.run_id).map((e) => e.envelope.event_type);
    expect(types.slice(0, 3)).toEqual(['run.created', 'run.queued', 'run.replay_queued']);
    const run = await svc.api('GET', `/v1/runs/${res.body.run_id}`);
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ run_id: res.body.run_id, trace_id: t, campaign_id: c, ci_batch_id: null, pack_id: null });
    expect(run.body.summary).toHaveProperty('pass_rate');
    const listed = await svc.api('GET', `/v1/runs?campaign_id=${c}`);
    expect(listed.body.items.map((r: any) => r.run_id)).toEqual([res.body.run_id]);
    // Ids are compared lowercase, as everywhere a client sends one: a filter in capitals finds the same run.
    const shouted = await svc.api('GET', `/v1/runs?campaign_id=${c.toUpperCase()}&trace_id=${t.toUpperCase()}`);
    expect(shouted.body.items.map((r: any) => r.run_id)).toEqual([res.body.run_id]);
  });

  it('answers unknown trace or campaign with 404 and wrong types with 422', async () => {
    const t = (await svc.api('POST', '/v1/traces', sampleTrace())).body.trace_id;
    expectError(await svc.api('POST', '/v1/runs', { trace_id: t, campaign_id: uuid() }), 404, 'not_found');
    expectError(await svc.api('POST', '/v1/runs', { trace_id: uuid(), campaign_id: uuid() }), 404, 'not_found');
    const wrong = await svc.api('POST', '/v1/runs', { trace_id: 42 });
    expectError(wrong, 422, 'validation_error');
    expect(wrong.body.error.details.map((d: any) => d.path).sort()).toEqual(['campaign_id', 'trace_id']);
    expectError(await svc.api('GET', '/v1/runs?status=exploded'), 422, 'validation_error');
    expectError(await svc.api('GET', `/v1/runs/${uuid()}`), 404, 'not_found');
  });
});

describe('Idempotency-Key', () => {
  it('replays the first response for the same key and body, creating nothing new', async () => {
    const key = `k-${uuid()}`;
    const a = await svc.api('POST', '/v1/campaigns', recordedCampaign({ name: 'idem' }), { 'Idempotency-Key': key });
    const b = await svc.api('POST', '/v1/campaigns', recordedCampaign({ name: 'idem' }), { 'Idempotency-Key': key });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body).toEqual(a.body);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    const created = events.filter((e) => e.envelope.event_type === 'campaign.created' && e.envelope.data.campaign_id === a.body.campaign_id);
    expect(created).toHaveLength(1);
  });

  it('answers the same key with a different body with 409 idempotency_conflict', async () => {
    const key = `k-${uuid()}`;
    await svc.api('POST', '/v1/campaigns', recordedCampaign({ name: 'one' }), { 'Idempotency-Key': key });
    expectError(await svc.api('POST', '/v1/campaigns', recordedCampaign({ name: 'two' }), { 'Idempotency-Key': key }), 409, 'idempotency_conflict');
  });

  it('keeps keys per project', async () => {
    const key = `k-${uuid()}`;
    const other = await createProject({ projects: getDeps().projects, clock: systemClock }, { name: 'other' });
    const a = await svc.api('POST', '/v1/campaigns', recordedCampaign(), { 'Idempotency-Key': key });
    const b = await svc.raw('POST', '/v1/campaigns', {
      body: JSON.stringify(recordedCampaign()),
      headers: { 'X-API-Key': other.api_key, 'X-Project-Id': other.project_id, 'Content-Type': 'application/json', 'Idempotency-Key': key },
    });
    expect(b.status).toBe(201);
    expect(b.body.campaign_id).not.toBe(a.body.campaign_id);
  });
});

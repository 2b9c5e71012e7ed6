// Versioned campaigns through the local gateway against dynalite: PUT /v1/campaigns/{id} (new version, no-op,
// If-Match, masked secrets), ?version=n, the versions list, campaign.updated, and the runs that keep their version
// (docs/campaigns-and-replay.md#versions).
import { randomUUID } from 'node:crypto';
import { createProject } from '../../functions/core/auth';
import type { BusEvent } from '../../functions/core/events';
import { newRun } from '../../functions/core/runs/service';
import { systemClock } from '../../functions/core/time';
import { getDeps } from '../../functions/wiring/deps';
import { recordedCampaign, sampleTrace } from '../helpers/fixtures';
import { startTestService, type TestService } from '../helpers/local-service';

let svc: TestService;
const events: BusEvent[] = [];

beforeAll(async () => {
  svc = await startTestService({ deliverWebhooks: false });
  svc.bus.onEvent((e) => events.push(e));
});
afterAll(() => svc.stop());

const httpCampaign = (overrides: Record<string, unknown> = {}) => ({
  name: 'http agent',
  target: { type: 'http', url: 'https://agent.example.com/rts/step', headers: { Authorization: 'Bearer s3cret', 'X-Team': 'blue' } },
  mutations: [{ id: 'down', type: 'tool_error', tool: 'lookup_order' }],
  policies: [{ id: 'no-delete', type: 'deny_tools', tools: ['delete_*'] }],
  ...overrides,
});

async function created(body: Record<string, unknown> = httpCampaign()) {
  const res = await svc.api('POST', '/v1/campaigns', body);
  expect(res.status).toBe(201);
  return res.body as { campaign_id: string; version: number } & Record<string, any>;
}

const updates = (cid: string) => events.filter((e) => e.envelope.event_type === 'campaign.updated' && e.envelope.data.campaign_id === cid);

function expectError(res: { status: number; body: any }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body.error).toMatchObject({ code, message: expect.any(String), request_id: expect.any(String) });
}

describe('PUT /v1/campaigns/{campaign_id}', () => {
  it('creates campaigns at version 1 with an ETag, and a changed definition makes version 2 with campaign.updated once', async () => {
    // Prepare
    const c = await created();
    const got = await svc.api('GET', `/v1/campaigns/${c.campaign_id}`);
    // Act
    const res = await svc.api('PUT', `/v1/campaigns/${c.campaign_id}`, httpCampaign({ name: 'renamed', repeats: 2 }));
    await svc.idle();
    // Assess
    expect(c.version).toBe(1);
    expect(got.headers.get('etag')).toBe('"1"');
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"2"');
    expect(res.body).toMatchObject({ campaign_id: c.campaign_id, name: 'renamed', repeats: 2, version: 2, created_at: c.created_at });
    expect(updates(c.campaign_id).map((e) => [e.id, e.envelope.data])).toEqual([
      [`campaign.updated:${c.campaign_id}:2`, { campaign_id: c.campaign_id, version: 2 }],
    ]);
    expect((await svc.api('GET', `/v1/campaigns/${c.campaign_id}`)).body).toMatchObject({ name: 'renamed', version: 2 });
  });

  it('answers the same definition (a GET sent back, secrets masked) with 200, the same version and no event', async () => {
    // Prepare
    const c = await created();
    const { campaign_id: _id, created_at: _at, version: _v, eval_set: _e, ...shown } = (await svc.api('GET', `/v1/campaigns/${c.campaign_id}`)).body;
    // Act
    const res = await svc.api('PUT', `/v1/campaigns/${c.campaign_id}`, shown);
    await svc.idle();
    // Assess
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    expect(updates(c.campaign_id)).toEqual([]);
    expect((await svc.api('GET', `/v1/campaigns/${c.campaign_id}/versions`)).body.items).toHaveLength(1);
  });

  it('keeps a stored secret sent back as "***" and replaces it with a new value', async () => {
    // Prepare
    const c = await created();
    const stored = () => getDeps().campaigns.get(svc.projectId, c.campaign_id) as Promise<any>;
    const masked = { Authorization: '***', 'X-Team': 'red' };
    // Act
    const kept = await svc.api('PUT', `/v1/campaigns/${c.campaign_id}`, httpCampaign({ target: { ...httpCampaign().target, headers: masked } }));
    const afterKeep = await stored();
    const fresh = { Authorization: 'Bearer n3w', 'X-Team': 'red' };
    const replaced = await svc.api('PUT', `/v1/campaigns/${c.campaign_id}`, httpCampaign({ target: { ...httpCampaign().target, headers: fresh } }));
    const afterReplace = await stored();
    const noSecret = await svc.api(
      'PUT',
      `/v1/campaigns/${c.campaign_id}`,
      httpCampaign({ target: { ...httpCampaign().target, headers: { ...fresh, 'X-Other': '***' } } }),
    );
    // Assess
    expect(kept.body).toMatchObject({ version: 2, target: { headers: { Authorization: '***', 'X-Team': '***' } } });
    expect(afterKeep.target.headers).toEqual({ Authorization: 'Bearer s3cret', 'X-Team': 'red' });
    expect(replaced.body.version).toBe(3);
    expect(afterReplace.target.headers).toEqual(fresh);
    expectError(noSecret, 422, 'validation_error');
    expect(noSecret.body.error.details[0].path).toBe('target.headers.X-Other');
    expect(JSON.stringify([kept.body, replaced.body])).not.toMatch(/s3cret|n3w/);
  });

  it('keeps an openai api_key sent back masked', async () => {
    // Prepare
    const target = { type: 'openai', base_url: 'https://llm.example.com/v1', model: 'm', api_key: 'sk-k33p' };
    const c = await created({ name: 'openai agent', target });
    // Act
    const res = await svc.api('PUT', `/v1/campaigns/${c.campaign_id}`, { name: 'openai agent', target: { ...target, api_key: '***', model: 'm2' } });
    // Assess
    expect(res.body).toMatchObject({ version: 2, target: { api_key: '***', model: 'm2' } });
    expect(((await getDeps().campaigns.get(svc.projectId, c.campaign_id)) as any).target.api_key).toBe('sk-k33p');
  });

  it('applies If-Match: the current version (plain or as an ETag) updates, a stale one is 412, a malformed one 422', async () => {
    // Prepare
    const c = await created();
    const put = (ifMatch: string, name: string) => svc.api('PUT', `/v1/campaigns/${c.campaign_id}`, httpCampaign({ name }), { 'If-Match': ifMatch });
    // Act
    const plain = await put('1', 'two');
    const etag = await put('"2"', 'three');
    const stale = await put('"2"', 'four');
    const malformed = await put('two', 'four');
    // Assess
    expect([plain.status, plain.body.version, etag.status, etag.body.version]).toEqual([200, 2, 200, 3]);
    expectError(stale, 412, 'precondition_failed');
    expectError(malformed, 422, 'validation_error');
    expect(malformed.body.error.details[0].path).toBe('If-Match');
    expect((await svc.api('GET', `/v1/campaigns/${c.campaign_id}`)).body).toMatchObject({ name: 'three', version: 3 });
  });

  it("validates like create (422), and answers 404 for an unknown campaign and for another project's", async () => {
    // Prepare
    const c = await created();
    const other = await createProject({ projects: getDeps().projects, clock: systemClock }, { name: `other-${randomUUID().slice(0, 8)}` });
    const otherHeaders = { 'X-API-Key': other.api_key, 'X-Project-Id': other.project_id };
    // Act
    const invalid = await svc.api(
      'PUT',
      `/v1/campaigns/${c.campaign_id}`,
      recordedCampaign({ mutations: [{ id: 'm', type: 'tool_error', tool: 'x' }] }),
    );
    const unknown = await svc.api('PUT', `/v1/campaigns/${randomUUID()}`, httpCampaign());
    const foreign = await svc.api('PUT', `/v1/campaigns/${c.campaign_id}`, httpCampaign({ name: 'stolen' }), otherHeaders);
    const foreignVersions = await svc.api('GET', `/v1/campaigns/${c.campaign_id}/versions`, undefined, otherHeaders);
    const foreignOld = await svc.api('GET', `/v1/campaigns/${c.campaign_id}?version=1`, undefined, otherHeaders);
    // Assess
    expectError(invalid, 422, 'validation_error');
    expectError(unknown, 404, 'not_found');
    expectError(foreign, 404, 'not_found');
    expectError(foreignVersions, 404, 'not_found');
    expectError(foreignOld, 404, 'not_found');
    expect((await svc.api('GET', `/v1/campaigns/${c.campaign_id}`)).body.version).toBe(1);
  });

  it('replays the first answer for the same Idempotency-Key', async () => {
    // Prepare
    const c = await created();
    const key = { 'Idempotency-Key': randomUUID() };
    // Act
    const first = await svc.api('PUT', `/v1/campaigns/${c.campaign_id}`, httpCampaign({ name: 'once' }), key);
    const again = await svc.api('PUT', `/v1/campaigns/${c.campaign_id}`, httpCampaign({ name: 'once' }), key);
    const other = await svc.api('PUT', `/v1/campaigns/${c.campaign_id}`, httpCampaign({ name: 'twice' }), key);
    // Assess
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expectError(other, 409, 'idempotency_conflict');
  });
});

describe('GET /v1/campaigns/{campaign_id}?version=n and /versions', () => {
  it('reads an old version, 404 for one that never existed, 422 for a malformed one', async () => {
    // Prepare
    const c = await created();
    await svc.api('PUT', `/v1/campaigns/${c.campaign_id}`, httpCampaign({ name: 'v2', repeats: 3 }));
    // Act
    const v1 = await svc.api('GET', `/v1/campaigns/${c.campaign_id}?version=1`);
    const v2 = await svc.api('GET', `/v1/campaigns/${c.campaign_id}?version=2`);
    const v3 = await svc.api('GET', `/v1/campaigns/${c.campaign_id}?version=3`);
    const bad = await svc.api('GET', `/v1/campaigns/${c.campaign_id}?version=0`);
    // Assess
    expect(v1.status).toBe(200);
    expect(v1.headers.get('etag')).toBe('"1"');
    expect(v1.body).toMatchObject({ name: 'http agent', repeats: 1, version: 1, target: { headers: { Authorization: '***' } } });
    expect(v2.body).toMatchObject({ name: 'v2', repeats: 3, version: 2 });
    expectError(v3, 404, 'not_found');
    expectError(bad, 422, 'validation_error');
  });

  it('lists versions newest first with what each changed, page by page', async () => {
    // Prepare
    const c = await created();
    const base = httpCampaign();
    await svc.api(
      'PUT',
      `/v1/campaigns/${c.campaign_id}`,
      httpCampaign({
        mutations: [...base.mutations, { id: 'slow', type: 'tool_timeout', tool: '*' }],
        criteria: [{ type: 'completes' }, { type: 'output_contains', value: 'refund' }],
      }),
    );
    await svc.api(
      'PUT',
      `/v1/campaigns/${c.campaign_id}`,
      httpCampaign({ name: 'v3', mutations: [{ id: 'slow', type: 'tool_timeout', tool: 'lookup_order' }], policies: [] }),
    );
    // Act
    const all = await svc.api('GET', `/v1/campaigns/${c.campaign_id}/versions`);
    const first = await svc.api('GET', `/v1/campaigns/${c.campaign_id}/versions?limit=2`);
    const second = await svc.api('GET', `/v1/campaigns/${c.campaign_id}/versions?limit=2&cursor=${first.body.next_cursor}`);
    // Assess
    expect(all.body.items.map((v: any) => [v.version, v.name])).toEqual([
      [3, 'v3'],
      [2, 'http agent'],
      [1, 'http agent'],
    ]);
    expect(all.body.next_cursor).toBeNull();
    const [v3, v2, v1] = all.body.items;
    expect(v3.changes).toEqual({
      mutations: { added: [], removed: ['down'], changed: ['slow'] },
      policies: { added: [], removed: ['no-delete'], changed: [] },
      criteria: { added: [], removed: [{ type: 'output_contains', value: 'refund' }] },
      fields: ['name'],
    });
    expect(v2.changes).toEqual({
      mutations: { added: ['slow'], removed: [], changed: [] },
      policies: { added: [], removed: [], changed: [] },
      criteria: { added: [{ type: 'output_contains', value: 'refund' }], removed: [] },
      fields: [],
    });
    expect(v1.changes.mutations.added).toEqual(['down']);
    expect(v1.created_at).toBe(c.created_at);
    expect(v3.created_at > v2.created_at).toBe(true);
    expect(first.body.items.map((v: any) => v.version)).toEqual([3, 2]);
    expect(second.body.items.map((v: any) => v.version)).toEqual([1]);
    expect(second.body.next_cursor).toBeNull();
  });
});

describe('runs and batches keep their campaign_version', () => {
  it('runs created before an update, queued or resumed after it, run on their version', async () => {
    // Prepare: a recorded campaign (one attempt per run), a trace, and two runs of version 1 not yet worked on: one
    // queued, one left running by a worker that died before storing an attempt
    const c = await created(recordedCampaign());
    const trace = (await svc.api('POST', '/v1/traces', sampleTrace())).body;
    const deps = getDeps();
    const spec = { trace_id: trace.trace_id, campaign_id: c.campaign_id, campaign_version: 1, source: 'replay' as const };
    const queued = newRun(deps, svc.projectId, spec);
    const crashed = newRun(deps, svc.projectId, spec);
    await deps.runs.createMany([queued, crashed]);
    await deps.runs.transition(svc.projectId, crashed.run_id, ['queued'], { status: 'running', attempt_total: 1, started_at: crashed.created_at });
    // Act: the update (three attempts per run), then a run created after it, then the old ones delivered
    await svc.api('PUT', `/v1/campaigns/${c.campaign_id}`, recordedCampaign({ repeats: 3 }));
    const fresh = await svc.api('POST', '/v1/runs', { trace_id: trace.trace_id, campaign_id: c.campaign_id });
    await svc.queue.sendReplay([queued, crashed].map((r) => ({ project_id: svc.projectId, run_id: r.run_id })));
    await svc.idle();
    // Assess
    const view = async (id: string) => (await svc.api('GET', `/v1/runs/${id}`)).body;
    expect(await view(fresh.body.run_id)).toMatchObject({ status: 'completed', campaign_version: 2, attempt_total: 3 });
    expect(await view(queued.run_id)).toMatchObject({ status: 'completed', campaign_version: 1, attempt_total: 1 });
    expect(await view(crashed.run_id)).toMatchObject({ status: 'completed', campaign_version: 1, attempt_total: 1 });
    const listed = (await svc.api('GET', `/v1/runs?campaign_id=${c.campaign_id}`)).body.items;
    expect(listed.map((r: any) => r.campaign_version).sort()).toEqual([1, 1, 2]);
  });

  it('records the version on CI batches and their runs', async () => {
    // Prepare
    const c = await created(recordedCampaign());
    const trace = (await svc.api('POST', '/v1/traces', sampleTrace())).body;
    await svc.api('PATCH', `/v1/campaigns/${c.campaign_id}/eval-set`, { add_trace_ids: [trace.trace_id] });
    await svc.api('PUT', `/v1/campaigns/${c.campaign_id}`, recordedCampaign({ name: 'v2' }));
    // Act
    const sub = await svc.api('POST', '/v1/ci/runs', { campaign_id: c.campaign_id });
    await svc.idle();
    // Assess
    const batch = (await svc.api('GET', `/v1/ci/batch/${sub.body.ci_batch_id}`)).body;
    expect(batch).toMatchObject({ status: 'done', campaign_version: 2 });
    expect((await svc.api('GET', `/v1/ci/runs/${sub.body.run_id}`)).body.campaign_version).toBe(2);
    const listed = (await svc.api('GET', `/v1/ci/batches?campaign_id=${c.campaign_id}`)).body.items;
    expect(listed.map((b: any) => b.campaign_version)).toEqual([2]);
  });
});

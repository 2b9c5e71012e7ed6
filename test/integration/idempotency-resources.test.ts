// Idempotency-Key through the local gateway against dynalite, on routes that act on one resource of their path: a key
// reused on another webhook's rotate-secret or another campaign's run-pack never answers for the first resource, replayed
// create and rotate answers hold no secret (not even once the webhook is deleted), and keys are per project.
import { createProject } from '../../functions/core/auth';
import { systemClock } from '../../functions/core/time';
import { getDeps } from '../../functions/wiring/deps';
import { recordedCampaign, sampleTrace, uuid } from '../helpers/fixtures';
import { startTestService, type ApiResponse, type TestService } from '../helpers/local-service';

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({ deliverWebhooks: false });
});
afterAll(async () => {
  await svc.stop();
});

const key = () => ({ 'Idempotency-Key': `k-${uuid()}` });
const createWebhook = async (headers: Record<string, string> = {}, tag = uuid()) =>
  svc.api('POST', '/v1/webhooks', { url: `https://example.com/hooks/${tag}`, events: ['run.completed'] }, headers);
const storedSecret = async (webhookId: string, projectId = svc.projectId) => (await getDeps().webhooks.get(projectId, webhookId))?.secret;

/** The answer never comes from another request: a 409 idempotency_conflict naming the reuse, or a fresh answer. */
function expectReuseRefused(res: ApiResponse) {
  expect(res.status).toBe(409);
  expect(res.headers.get('idempotent-replayed')).toBeNull();
  expect(res.body.error.code).toBe('idempotency_conflict');
  expect(res.body.error.message).toContain('different request');
}

describe('POST /v1/webhooks/{webhook_id}/rotate-secret with a reused Idempotency-Key', () => {
  it('does not answer webhook B with the rotation of webhook A: B is refused with 409 and keeps its secret, A replays', async () => {
    // Prepare
    const a = (await createWebhook()).body;
    const b = (await createWebhook()).body;
    const headers = key();
    const rotatedA = await svc.api('POST', `/v1/webhooks/${a.webhook_id}/rotate-secret`, undefined, headers);
    const bBefore = await storedSecret(b.webhook_id);
    // Act
    const onB = await svc.api('POST', `/v1/webhooks/${b.webhook_id}/rotate-secret`, undefined, headers);
    // Assess
    expect(rotatedA.status).toBe(200);
    expect(rotatedA.body).toEqual({ webhook_id: a.webhook_id, secret: expect.stringMatching(/^whsec_/) });
    expectReuseRefused(onB);
    expect(onB.text).not.toContain(rotatedA.body.secret);
    expect(onB.text).not.toContain(a.webhook_id);
    expect(await storedSecret(b.webhook_id)).toBe(bBefore);
    // B rotates with a key of its own; A's key still answers for A, without the secret.
    const fresh = await svc.api('POST', `/v1/webhooks/${b.webhook_id}/rotate-secret`, undefined, key());
    expect(fresh.body).toEqual({ webhook_id: b.webhook_id, secret: await storedSecret(b.webhook_id) });
    expect(fresh.body.secret).not.toBe(bBefore);
    const replayA = await svc.api('POST', `/v1/webhooks/${a.webhook_id}/rotate-secret`, undefined, headers);
    expect(replayA.status).toBe(200);
    expect(replayA.headers.get('idempotent-replayed')).toBe('true');
    expect(replayA.body).toEqual({ webhook_id: a.webhook_id, secret: null, secret_withheld: true });
    expect(await storedSecret(a.webhook_id)).toBe(rotatedA.body.secret);
  });
});

describe('POST /v1/campaigns/{campaign_id}/run-pack with a reused Idempotency-Key', () => {
  it('does not hand campaign 2 the pack of campaign 1: 409, and campaign 2 gets runs of its own with a key of its own', async () => {
    // Prepare
    const traceIds: string[] = [];
    for (let i = 0; i < 3; i++) traceIds.push((await svc.api('POST', '/v1/traces', sampleTrace({ name: `pack trace ${i}` }))).body.trace_id);
    const one = (await svc.api('POST', '/v1/campaigns', recordedCampaign({ name: 'pack one' }))).body.campaign_id;
    const two = (await svc.api('POST', '/v1/campaigns', recordedCampaign({ name: 'pack two' }))).body.campaign_id;
    const headers = key();
    const body = { trace_ids: traceIds };
    const packOne = await svc.api('POST', `/v1/campaigns/${one}/run-pack`, body, headers);
    // Act
    const onTwo = await svc.api('POST', `/v1/campaigns/${two}/run-pack`, body, headers);
    // Assess
    expect(packOne.status).toBe(202);
    expect(packOne.body.campaign_id).toBe(one);
    expectReuseRefused(onTwo);
    expect(onTwo.text).not.toContain(packOne.body.pack_id);
    const runsOfTwo = await svc.api('GET', `/v1/runs?campaign_id=${two}`);
    expect(runsOfTwo.body.items).toEqual([]);
    const packTwo = await svc.api('POST', `/v1/campaigns/${two}/run-pack`, body, key());
    expect(packTwo.status).toBe(202);
    expect(packTwo.body).toMatchObject({ campaign_id: two, trace_count: 3 });
    expect(packTwo.body.pack_id).not.toBe(packOne.body.pack_id);
    const again = await svc.api('POST', `/v1/campaigns/${one}/run-pack`, body, headers);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(packOne.body);
  });
});

describe('replayed answers that showed a secret', () => {
  it('POST /v1/webhooks: the replay holds secret null with secret_withheld, the first answer the secret, and nothing is created twice', async () => {
    // Prepare
    const headers = key();
    const tag = uuid();
    // Act
    const first = await createWebhook(headers, tag);
    const replay = await createWebhook(headers, tag);
    // Assess
    expect(first.status).toBe(201);
    expect(first.body.secret).toBe(await storedSecret(first.body.webhook_id));
    expect(first.body).not.toHaveProperty('secret_withheld');
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual({ ...first.body, secret: null, secret_withheld: true });
    expect(replay.text).not.toContain(first.body.secret);
    const all = await svc.api('GET', '/v1/webhooks?limit=100');
    expect(all.body.items.filter((w: { url: string }) => w.url.endsWith(tag))).toHaveLength(1);
  });

  it('a replay after the webhook is deleted shows neither the created nor the rotated secret', async () => {
    const createKey = key();
    const rotateKey = key();
    const created = await createWebhook(createKey);
    const id = created.body.webhook_id;
    const rotated = await svc.api('POST', `/v1/webhooks/${id}/rotate-secret`, undefined, rotateKey);
    expect((await svc.api('DELETE', `/v1/webhooks/${id}`)).status).toBe(204);
    const replays = [
      await createWebhook(createKey, created.body.url.split('/').pop()),
      await svc.api('POST', `/v1/webhooks/${id}/rotate-secret`, undefined, rotateKey),
    ];
    for (const res of replays) {
      expect(res.headers.get('idempotent-replayed')).toBe('true');
      expect(res.body).toMatchObject({ webhook_id: id, secret: null, secret_withheld: true });
      expect(res.text).not.toContain(created.body.secret);
      expect(res.text).not.toContain(rotated.body.secret);
    }
  });
});

describe('Idempotency-Key per project', () => {
  it('the same key on the same path in two projects acts in each, and never shows one project what the other got', async () => {
    // Prepare
    const other = await createProject({ projects: getDeps().projects, clock: systemClock }, { name: `other-${uuid()}` });
    const otherHeaders = { 'X-API-Key': other.api_key, 'X-Project-Id': other.project_id };
    const headers = key();
    const tag = uuid();
    // Act
    const mine = await createWebhook(headers, tag);
    const theirs = await createWebhook({ ...headers, ...otherHeaders }, tag);
    const rotateKey = key();
    const rotateMine = await svc.api('POST', `/v1/webhooks/${mine.body.webhook_id}/rotate-secret`, undefined, rotateKey);
    const rotateForeign = await svc.api('POST', `/v1/webhooks/${mine.body.webhook_id}/rotate-secret`, undefined, { ...rotateKey, ...otherHeaders });
    // Assess
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.webhook_id).not.toBe(mine.body.webhook_id);
    expect(theirs.body.secret).toBe(await storedSecret(theirs.body.webhook_id, other.project_id));
    expect(rotateForeign.status).toBe(404);
    expect(rotateForeign.text).not.toContain(rotateMine.body.secret);
    expect(await storedSecret(mine.body.webhook_id)).toBe(rotateMine.body.secret);
  });
});

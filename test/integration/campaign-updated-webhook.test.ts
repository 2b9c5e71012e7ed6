// campaign.updated reaches a subscribed webhook once per version: not for an identical PUT, not twice when the same
// event is published again (docs/webhooks.md#events, docs/campaigns-and-replay.md#versions).
import { createGuardedSender } from '../../functions/adapters/http/guarded-sender';
import { configureDeps, getDeps } from '../../functions/wiring/deps';
import { recordedCampaign } from '../helpers/fixtures';
import { startHttpsReceiver, testCertificates, type HttpsReceiver } from '../helpers/https-receiver';
import { startTestService, type TestService } from '../helpers/local-service';

let svc: TestService;
let receiver: HttpsReceiver;

beforeAll(async () => {
  svc = await startTestService();
  receiver = await startHttpsReceiver({ mode: 'ok' });
  // The local bus runs the real delivery handler; it only needs to trust the test CA and not wait between retries.
  configureDeps({ http: createGuardedSender({ allowPrivate: true, ca: testCertificates().ca }), sleep: async () => undefined });
});
afterAll(async () => {
  configureDeps({ http: undefined, sleep: undefined });
  await svc.stop();
  await receiver.close();
});

describe('campaign.updated', () => {
  it('is delivered once per new version to a webhook subscribed to it', async () => {
    // Prepare
    const hook = await svc.api('POST', '/v1/webhooks', { url: receiver.url, events: ['campaign.updated'] });
    const c = (await svc.api('POST', '/v1/campaigns', recordedCampaign())).body;
    // Act: one new version, one identical PUT, then the version's event published once more (a retried publish)
    await svc.api('PUT', `/v1/campaigns/${c.campaign_id}`, recordedCampaign({ repeats: 2 }));
    await svc.api('PUT', `/v1/campaigns/${c.campaign_id}`, recordedCampaign({ repeats: 2 }));
    await svc.idle();
    const [sent] = receiver.requests.map((q) => JSON.parse(q.rawBody.toString('utf8')));
    await getDeps().events.publish([
      { id: `campaign.updated:${c.campaign_id}:2`, envelope: { ...sent, created_at: '2026-11-27T00:00:00.000000+00:00' } },
    ]);
    await svc.idle();
    // Assess
    expect(hook.status).toBe(201);
    expect(receiver.requests.map((q) => JSON.parse(q.rawBody.toString('utf8')))).toEqual([
      { event_type: 'campaign.updated', project_id: svc.projectId, created_at: expect.any(String), data: { campaign_id: c.campaign_id, version: 2 } },
    ]);
  });
});

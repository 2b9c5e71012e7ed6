// The run page marks where each user turn opens in a multi-turn attempt's transcript
// (docs/campaigns-and-replay.md#turns), and shows no turn line for a single-turn attempt.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { startTestService, type TestService } from '../helpers/local-service';
import { browserSuite, launchBrowser, newPage, openSignedIn, settle } from './harness';

const TRACE = JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'replay', 'two-turn-trace.json'), 'utf8'));

let svc: TestService;
let browser: Browser;
let runId: string;

browserSuite('dashboard: turns in a transcript', () => {
  beforeAll(async () => {
    svc = await startTestService({ deliverWebhooks: false });
    browser = await launchBrowser();
    await svc.api('POST', '/v1/traces', TRACE);
    const campaign = await svc.api('POST', '/v1/campaigns', { name: 'turns', target: { type: 'recorded' } });
    const queued = await svc.api('POST', '/v1/runs', { trace_id: TRACE.trace_id, campaign_id: campaign.body.campaign_id });
    runId = queued.body.run_id;
    await settle(svc, `/v1/runs/${runId}`, (r) => r.status === 'completed' || r.status === 'failed');
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
  });

  it('opens each turn with a line naming it, right before the user message that opens it', async () => {
    const { context, page } = await newPage(browser);
    try {
      await openSignedIn(page, svc, `${svc.url}/dashboard`);
      await page.goto(`${svc.url}/dashboard/runs/${runId}#attempt-1`);
      const lines = page.locator('#transcript-1 li.turn-boundary');
      await lines.first().waitFor();
      await expect(lines.allTextContents()).resolves.toEqual(['Turn 1 - answered', 'Turn 2 - answered']);
      const second = page.locator('#transcript-1 li.turn-boundary[data-turn="2"] + li');
      await expect(second.textContent()).resolves.toContain('Please send it to 9 New Street instead.');
    } finally {
      await context.close();
    }
  });
});

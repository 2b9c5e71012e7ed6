// The run page marks where each user turn opens in a multi-turn attempt's transcript
// (docs/campaigns-and-replay.md#turns), and shows no turn line for a single-turn attempt; a message written by the
// simulated user (docs/campaigns-and-replay.md#simulated-user) carries a badge saying so.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { startTestService, type TestService } from '../helpers/local-service';
import { browserSuite, launchBrowser, newPage, openSignedIn, settle } from './harness';

const TRACE = JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'replay', 'two-turn-trace.json'), 'utf8'));

let svc: TestService;
let browser: Browser;
let runId: string;
let simulatedRunId: string;
const servers: Server[] = [];

/** A loopback JSON endpoint answering each body with `answer(body)`. */
async function jsonServer(answer: (body: any) => unknown): Promise<string> {
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(answer(JSON.parse(raw))));
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

browserSuite('dashboard: turns in a transcript', () => {
  beforeAll(async () => {
    svc = await startTestService({ deliverWebhooks: false });
    browser = await launchBrowser();
    await svc.api('POST', '/v1/traces', TRACE);
    const campaign = await svc.api('POST', '/v1/campaigns', { name: 'turns', target: { type: 'recorded' } });
    const queued = await svc.api('POST', '/v1/runs', { trace_id: TRACE.trace_id, campaign_id: campaign.body.campaign_id });
    runId = queued.body.run_id;
    await settle(svc, `/v1/runs/${runId}`, (r) => r.status === 'completed' || r.status === 'failed');
    // An agent answering every user message at once, and a simulated user that asks once more, then stops.
    const agent = await jsonServer((b) => ({ output: `Answer to: ${b.messages[b.messages.length - 1].content}` }));
    const simulator = await jsonServer((b) => ({
      choices: [
        { message: { role: 'assistant', content: b.messages[1].content.includes('Answer to: And by when?') ? '###STOP###' : 'And by when?' } },
      ],
    }));
    const simulated = await svc.api('POST', '/v1/campaigns', {
      name: 'simulated',
      target: { type: 'http', url: `${agent}/step` },
      user_simulator: { type: 'openai', base_url: `${simulator}/v1`, model: 'u' },
    });
    const second = await svc.api('POST', '/v1/runs', { trace_id: TRACE.trace_id, campaign_id: simulated.body.campaign_id });
    simulatedRunId = second.body.run_id;
    await settle(svc, `/v1/runs/${simulatedRunId}`, (r) => r.status === 'completed' || r.status === 'failed');
  });
  afterAll(async () => {
    for (const server of servers) server.close();
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

  it('badges the user message the simulated user wrote', async () => {
    const { context, page } = await newPage(browser);
    try {
      await openSignedIn(page, svc, `${svc.url}/dashboard`);
      await page.goto(`${svc.url}/dashboard/runs/${simulatedRunId}#attempt-1`);
      const second = page.locator('#transcript-1 li.turn-boundary[data-turn="2"] + li');
      await second.waitFor();
      await expect(second.textContent()).resolves.toMatch(/^User\s*simulated user\s*And by when\?/);
      await expect(page.locator('#transcript-1 li.role-user .badge').allTextContents()).resolves.toEqual(['simulated user']);
    } finally {
      await context.close();
    }
  });
});

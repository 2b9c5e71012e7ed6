// The dashboard in real headless Chromium against the local service: credentials, home, run, transcript, escaping, 401
// handling, CI batch, stage prefix and CSP (the CI statistics pages: dashboard-ci.test.ts; the attack matrix,
// injection marks and policy events: dashboard-attacks.test.ts; the webhooks pages: dashboard-webhooks.test.ts).
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { findRoute } from '../../lib/route-match';
import { recordedCampaign, sampleTrace } from '../helpers/fixtures';
import { startTestService, type TestService } from '../helpers/local-service';
import { browserSuite, launchBrowser, newPage as openPage, openSignedIn, settle as settleOn, XSS } from './harness';

const RUN_WAIT_MS = 30_000;

// The CI batch route belongs to another module; its test runs only once the gateway would route it.
const ciBatchRoute = findRoute('GET', '/v1/ci/batch/00000000-0000-4000-8000-000000000000').match;
const CI_BATCH_READY = !!ciBatchRoute && existsSync(join(__dirname, '..', '..', 'functions', 'http', `${ciBatchRoute.route.handler}.ts`));

let svc: TestService;
let browser: Browser;
let runId: string;
let run: any;
let xssRunId: string;
let xssCampaignName: string;

async function createTrace(trace: unknown): Promise<string> {
  const res = await svc.api('POST', '/v1/traces', trace);
  if (res.status !== 201) throw new Error(`trace upload failed: ${res.status} ${res.text}`);
  return res.body.trace_id;
}

async function createCampaign(body: unknown): Promise<string> {
  const res = await svc.api('POST', '/v1/campaigns', body);
  if (res.status !== 201) throw new Error(`campaign creation failed: ${res.status} ${res.text}`);
  return res.body.campaign_id;
}

async function queueRun(traceId: string, campaignId: string): Promise<string> {
  const res = await svc.api('POST', '/v1/runs', { trace_id: traceId, campaign_id: campaignId });
  if (res.status !== 202) throw new Error(`run creation failed: ${res.status} ${res.text}`);
  return res.body.run_id;
}

/** Waits for a terminal status, bounded: the dashboard tests read whatever state the API reports at the end. */
const settle = (path: string, done: (body: any) => boolean, timeoutMs = RUN_WAIT_MS) => settleOn(svc, path, done, timeoutMs);

const terminal = (r: any) => r.status === 'completed' || r.status === 'failed';

const newPage = () => openPage(browser);

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

browserSuite('dashboard in headless Chromium', () => {
  jest.setTimeout(90_000);

  beforeAll(async () => {
    svc = await startTestService({ deliverWebhooks: false });
    browser = await launchBrowser();

    const traceId = await createTrace(sampleTrace());
    const campaignId = await createCampaign(recordedCampaign());
    runId = await queueRun(traceId, campaignId);

    const hostile = sampleTrace({ name: `hostile ${XSS}` });
    hostile.steps = hostile.steps.map((s: any) =>
      s.role === 'tool' && s.name === 'lookup_order' ? { ...s, content: { status: 'delivered', note: XSS } } : s,
    );
    hostile.steps[hostile.steps.length - 1] = { role: 'assistant', content: `Your refund is on its way. ${XSS}` };
    xssCampaignName = `audit ${XSS}`;
    const hostileCampaign = await createCampaign(recordedCampaign({ name: xssCampaignName }));
    xssRunId = await queueRun(await createTrace(hostile), hostileCampaign);

    run = await settle(`/v1/runs/${runId}`, terminal);
    await settle(`/v1/runs/${xssRunId}`, terminal);
    if (!terminal(run))
      console.warn(`[dashboard browser tests] run ${runId} is still ${run.status} after ${RUN_WAIT_MS} ms; run-page assertions use that state`);
  });

  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
  });

  describe('GET /dashboard', () => {
    it('answers with the page and a strict CSP that the page itself satisfies', async () => {
      const res = await svc.raw('GET', '/dashboard');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'none'");
      expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
      expect(csp).not.toContain('unsafe-inline');
      expect(res.headers.get('x-frame-options')).toBe('DENY');

      const { context, page, cspViolations } = await newPage();
      await page.goto(`${svc.url}/dashboard`);
      await page.getByLabel('Project id').waitFor();
      expect(cspViolations).toEqual([]);
      await context.close();
    });
  });

  describe('credentials', () => {
    it('shows the credentials form without credentials and, once filled, lists the run on the home page', async () => {
      const { context, page } = await newPage();
      await page.goto(`${svc.url}/dashboard`);
      await page.getByLabel('Project id').fill(svc.projectId);
      await page.getByLabel('API key').fill(svc.apiKey);
      await page.getByRole('button', { name: 'Open dashboard' }).click();

      const runsTable = page.getByRole('table', { name: /most recent runs/ });
      await runsTable.getByRole('link', { name: runId }).waitFor();
      await expect(runsTable.getByRole('link', { name: runId }).getAttribute('href')).resolves.toBe(`/dashboard/runs/${runId}`);
      await page
        .getByRole('table', { name: /Campaigns/ })
        .getByText('refund audit')
        .first()
        .waitFor();
      expect(await page.evaluate<string | null>("sessionStorage.getItem('rts.dashboard.credentials')")).toContain(svc.projectId);
      await context.close();
    });

    it('signs in through the form, the project id pre-filled from the link, and never puts the key in an address', async () => {
      const { context, page } = await newPage();
      const addresses: string[] = [];
      page.on('framenavigated', (frame) => addresses.push(frame.url()));
      page.on('request', (request) => addresses.push(request.url()));
      await page.goto(`${svc.url}/dashboard#project=${encodeURIComponent(svc.projectId)}`);
      await expect(page.getByLabel('Project id').inputValue()).resolves.toBe(svc.projectId);
      await page.getByLabel('API key').fill(svc.apiKey);

      await page.getByRole('button', { name: 'Open dashboard' }).click();
      await page
        .getByRole('table', { name: /most recent runs/ })
        .getByRole('link', { name: runId })
        .click();
      await page.getByRole('heading', { level: 1, name: new RegExp(runId) }).waitFor();
      await page.getByRole('link', { name: 'CI batches' }).click();
      await page.getByRole('heading', { level: 1, name: /CI batches/ }).waitFor();
      const stored = await page.evaluate<string | null>("sessionStorage.getItem('rts.dashboard.credentials')");
      const visited = [page.url()];
      while (await page.goBack()) visited.push(page.url(), await page.evaluate<string>('location.href'));

      expect(stored).toContain(svc.apiKey);
      expect(visited.length).toBeGreaterThan(2);
      expect([...addresses, ...visited].filter((a) => a.includes(svc.apiKey) || /[#?&]key=/.test(a))).toEqual([]);
      await context.close();
    });

    it('does not use an API key a link carries: removes it from the address and history at once and asks for it', async () => {
      const { context, page } = await newPage();
      const apiCalls: string[] = [];
      page.on('request', (request) => void (request.url().includes('/v1/') && apiCalls.push(request.url())));

      await page.goto(`${svc.url}/dashboard/runs/${runId}#project=${encodeURIComponent(svc.projectId)}&key=${encodeURIComponent(svc.apiKey)}`);

      const alert = page.getByRole('alert');
      await alert.waitFor();
      expect(await alert.textContent()).toContain('key_in_link');
      expect(page.url()).toBe(`${svc.url}/dashboard/runs/${runId}`);
      await expect(page.getByLabel('Project id').inputValue()).resolves.toBe(svc.projectId);
      await expect(page.getByLabel('API key').inputValue()).resolves.toBe('');
      expect(await page.evaluate<string | null>("sessionStorage.getItem('rts.dashboard.credentials')")).toBeNull();
      expect(apiCalls).toEqual([]);
      const entries: string[] = [];
      while (await page.goBack()) entries.push(page.url());
      expect(entries.filter((u) => u.includes(svc.apiKey))).toEqual([]);
      await context.close();
    });

    it('shows the credentials form again with the API error message for a wrong key', async () => {
      const wrongKey = `rts_${'x'.repeat(40)}`;
      const apiAnswer = await svc.raw('GET', `/v1/runs/${runId}`, { headers: { 'X-API-Key': wrongKey, 'X-Project-Id': svc.projectId } });
      expect(apiAnswer.status).toBe(401);
      const { context, page } = await newPage();

      await openSignedIn(page, svc, `${svc.url}/dashboard/runs/${runId}`, wrongKey);

      const alert = page.getByRole('alert');
      await alert.waitFor();
      expect(await alert.textContent()).toContain(apiAnswer.body.error.message);
      expect(await alert.textContent()).toContain('unauthorized');
      await expect(page.getByLabel('Project id').inputValue()).resolves.toBe(svc.projectId);
      await expect(page.getByLabel('API key').inputValue()).resolves.toBe('');
      expect(page.url()).not.toContain('#');
      await context.close();
    });
  });

  describe('run page', () => {
    it('shows status, summary numbers and the attempts table once signed in, and clears the fragment', async () => {
      const { context, page } = await newPage();
      await page.setViewportSize({ width: 1280, height: 900 });

      await openSignedIn(page, svc, `${svc.url}/dashboard/runs/${runId}`);

      await page.getByRole('heading', { level: 1, name: new RegExp(runId) }).waitFor();
      await page.getByRole('heading', { level: 1 }).getByText(run.status, { exact: true }).waitFor();
      expect(page.url()).toBe(`${svc.url}/dashboard/runs/${runId}`);
      const summary = page.getByRole('list', { name: 'Summary' });
      const card = (label: string) => summary.getByRole('listitem').filter({ hasText: label }).locator('.value').textContent();
      expect(await card('Passed')).toBe(String(run.summary.passed_count));
      expect(await card('Failed')).toBe(String(run.summary.failed_count));
      expect(await card('Unsafe')).toBe(String(run.summary.unsafe_count));
      expect(await card('Pass rate')).toBe(`${Math.round(run.summary.pass_rate * 1000) / 10}%`);
      const attempts = page.getByRole('table', { name: /Scored attempts/ });
      await expect(attempts.locator('tbody tr').count()).resolves.toBe(Math.max(run.scoring.attempts.length, 1));
      if (run.scoring.attempts.length) await attempts.getByRole('button', { name: 'Show transcript' }).first().waitFor();
      await page.getByRole('table', { name: /Security events/ }).waitFor();
      await page.screenshot({ path: '/tmp/dashboard-run.png', fullPage: true });
      await context.close();
    });

    it('expands an attempt transcript on click', async () => {
      expect(run.scoring.attempts.length).toBeGreaterThan(0);
      const { context, page } = await newPage();
      await openSignedIn(page, svc, `${svc.url}/dashboard/runs/${runId}`);
      const toggle = page.getByRole('button', { name: 'Show transcript' }).first();

      await toggle.click();

      const button = page.locator('#toggle-1');
      await expect(button.getAttribute('aria-expanded')).resolves.toBe('true');
      const transcript = page.locator('#transcript-1');
      await transcript.getByText('Please refund order 1234').waitFor();
      await transcript.getByText('lookup_order').first().waitFor();
      await transcript.getByText(/"refunded":\s*true/).waitFor();
      await page.screenshot({ path: '/tmp/dashboard-transcript.png', fullPage: true });
      await context.close();
    });

    it('renders hostile trace and campaign content as text: no element, no dialog', async () => {
      const { context, page, dialogs } = await newPage();
      await openSignedIn(page, svc, `${svc.url}/dashboard/runs/${xssRunId}`);
      await page.getByRole('button', { name: 'Show transcript' }).first().click();

      await page.locator('#transcript-1').getByText(XSS, { exact: false }).first().waitFor();
      await page.getByRole('table', { name: /Security events/ }).waitFor();
      const runPageImages = await page.locator('img').count();
      await page.goto(`${svc.url}/dashboard`);
      await page
        .getByRole('table', { name: /Campaigns/ })
        .getByText(xssCampaignName)
        .waitFor();
      const homePageImages = await page.locator('img').count();

      expect(runPageImages).toBe(0);
      expect(homePageImages).toBe(0);
      expect(dialogs).toEqual([]);
      await context.close();
    });

    it('polls every 2 s while the run is running and stops once it is terminal', async () => {
      const { context, page } = await newPage();
      let detailCalls = 0;
      // The first answer is rewritten to a running run, so the page must poll to see the real, completed one.
      await context.route(`${svc.url}/v1/runs/${runId}`, async (route) => {
        detailCalls += 1;
        const response = await route.fetch();
        if (detailCalls > 1) return route.fulfill({ response });
        const body = await response.json();
        await route.fulfill({ response, json: { ...body, status: 'running', completed_at: null } });
      });

      await openSignedIn(page, svc, `${svc.url}/dashboard/runs/${runId}`);

      const h1 = page.getByRole('heading', { level: 1, name: new RegExp(runId) });
      await h1.getByText('running', { exact: true }).waitFor();
      await page.getByText(/refreshing every 2 s/).waitFor();
      await h1.getByText(run.status, { exact: true }).waitFor({ timeout: 5000 });
      expect(await page.getByText(/refreshing every 2 s/).count()).toBe(0);
      await page.waitForTimeout(2500);
      expect(detailCalls).toBe(2);
      await context.close();
    });

    it('works behind an API Gateway stage prefix (/prod/dashboard calls /prod/v1)', async () => {
      const { context, page } = await newPage();
      const seen: string[] = [];
      await context.route(`${svc.url}/prod/**`, async (route) => {
        const url = new URL(route.request().url());
        seen.push(url.pathname);
        url.pathname = url.pathname.replace(/^\/prod/, '');
        await route.fulfill({ response: await route.fetch({ url: url.toString() }) });
      });

      await openSignedIn(page, svc, `${svc.url}/prod/dashboard/runs/${runId}`);

      await page.getByRole('heading', { level: 1, name: new RegExp(runId) }).waitFor();
      expect(seen).toContain(`/prod/v1/runs/${runId}`);
      await expect(page.getByRole('link', { name: 'Dashboard', exact: true }).getAttribute('href')).resolves.toBe('/prod/dashboard');
      await context.close();
    });
  });

  describe('unknown pages', () => {
    it('answers 404 with the same page, which says not found', async () => {
      const { context, page } = await newPage();
      const res = await page.goto(`${svc.url}/dashboard/nope/here`);
      expect(res?.status()).toBe(404);
      await page.getByRole('heading', { level: 1, name: 'Not found' }).waitFor();
      await context.close();
    });
  });

  (CI_BATCH_READY ? describe : describe.skip)(
    CI_BATCH_READY ? 'batch page' : 'batch page (skipped: GET /v1/ci/batch/{batch_id} answers route_not_found in this build)',
    () => {
      it('shows the batch decision, counts and run links, and warns when coverage is below 100%', async () => {
        const traceIds = [await createTrace(sampleTrace({ name: 'batch a' })), await createTrace(sampleTrace({ name: 'batch b' }))];
        const campaignId = await createCampaign(recordedCampaign({ name: 'batch audit' }));
        const pool = await svc.api('PATCH', `/v1/campaigns/${campaignId}/eval-set`, { add_trace_ids: traceIds });
        expect(pool.status).toBe(200);
        const sub = await svc.api('POST', '/v1/ci/runs', { campaign_id: campaignId, thresholds: { min_pass_rate: 1 } });
        expect(sub.status).toBe(202);
        const batch = await settle(`/v1/ci/batch/${sub.body.ci_batch_id}`, (b) => b.status === 'done');

        const down = await createCampaign(
          recordedCampaign({
            name: 'unreachable agent',
            target: { type: 'http', url: `http://127.0.0.1:${await closedPort()}/step`, timeout_ms: 300 },
            criteria: [{ type: 'completes' }],
          }),
        );
        expect((await svc.api('PATCH', `/v1/campaigns/${down}/eval-set`, { add_trace_ids: traceIds.slice(0, 1) })).status).toBe(200);
        const downSub = await svc.api('POST', '/v1/ci/runs', { campaign_id: down });
        expect(downSub.status).toBe(202);
        const downBatch = await settle(`/v1/ci/batch/${downSub.body.ci_batch_id}`, (b) => b.status === 'done');
        const { context, page } = await newPage();

        await openSignedIn(page, svc, `${svc.url}/dashboard/batches/${batch.ci_batch_id}`);

        const h1 = page.getByRole('heading', { level: 1, name: new RegExp(batch.ci_batch_id) });
        await h1.waitFor();
        await h1.getByText(batch.status, { exact: true }).waitFor();
        await h1.getByText(batch.decision, { exact: true }).waitFor();
        // One row per scenario, named after its trace and linking to its run.
        const scenarios = page.getByRole('table', { name: 'Scenarios of this batch' });
        for (const [i, name] of ['batch a', 'batch b'].entries()) {
          await expect(scenarios.getByRole('link', { name, exact: true }).getAttribute('href')).resolves.toBe(`/dashboard/runs/${batch.run_ids[i]}`);
        }
        await scenarios.locator('tbody tr').filter({ hasText: 'batch a' }).getByText('%').first().waitFor();
        if (batch.scenario_coverage_pct < 100) await page.getByText(/not trustworthy/).waitFor();
        else expect(await page.getByText(/not trustworthy/).count()).toBe(0);

        await page.goto(`${svc.url}/dashboard/batches/${downBatch.ci_batch_id}`);
        await page.getByRole('heading', { level: 1, name: new RegExp(downBatch.ci_batch_id) }).waitFor();
        expect(downBatch.scenario_coverage_pct).toBeLessThan(100);
        await page.getByText(/not trustworthy/).waitFor();
        await context.close();
      });
    },
  );
});

// The dashboard and campaign versions in headless Chromium against the local service: the campaign page's version and
// its versions list with what each changed, the version of each batch in the lists and on the batch page, and a
// comparison with a baseline of an older version, whose cells of an added mutation are new, never regressions.
import { createServer, type Server } from 'node:http';
import type { Browser } from 'playwright-core';
import { createCampaign, createTraces, passingTrace, setEvalSet } from '../helpers/ci';
import { startTestService, type TestService } from '../helpers/local-service';
import { browserSuite, launchBrowser, newPage, openSignedIn, settle } from './harness';

/** A step-protocol agent that always answers about the refund. */
function startAgent(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ output: 'Your refund is on its way.' }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({
        url: `http://127.0.0.1:${port}/step`,
        close: () =>
          new Promise<void>((r) => {
            server.close(() => r());
            server.closeAllConnections();
          }),
      });
    }),
  );
}

let svc: TestService;
let browser: Browser;
let agent: Awaited<ReturnType<typeof startAgent>>;
let campaignId: string;
let first: any;
let second: any;

async function submitBatch(body: Record<string, unknown>): Promise<any> {
  const sub = await svc.api('POST', '/v1/ci/runs', { campaign_id: campaignId, ...body });
  if (sub.status !== 202) throw new Error(`CI submission failed: ${sub.status} ${sub.text}`);
  return settle(svc, `/v1/ci/batch/${sub.body.ci_batch_id}`, (b) => b.status === 'done');
}

/** The value of a label/value pair of the page's settings. */
const metaValue = (page: import('playwright-core').Page, label: string) =>
  page
    .locator('dt', { hasText: new RegExp(`^${label}$`) })
    .locator('xpath=following-sibling::dd[1]')
    .textContent();

browserSuite('dashboard campaign versions in headless Chromium', () => {
  jest.setTimeout(90_000);

  beforeAll(async () => {
    [svc, browser, agent] = await Promise.all([startTestService({ deliverWebhooks: false }), launchBrowser(), startAgent()]);
    const ids = await createTraces(svc, [passingTrace('versioned refund')]);
    const shout = { id: 'shout', type: 'input_perturbation', kind: 'uppercase' };
    campaignId = await createCampaign(svc, {
      name: 'versioned audit',
      target: { type: 'http', url: agent.url, timeout_ms: 2000 },
      policies: [],
      mutations: [shout],
      criteria: [{ type: 'output_contains', value: 'refund' }],
    });
    await setEvalSet(svc, campaignId, ids);
    first = await submitBatch({ metadata: { branch: 'main' } });
    const {
      campaign_id: _id,
      created_at: _at,
      version: _v,
      eval_set: _e,
      ...definition
    } = (await svc.api('GET', `/v1/campaigns/${campaignId}`)).body;
    const whisper = { id: 'whisper', type: 'input_perturbation', kind: 'append', text: 'please' };
    const put = await svc.api('PUT', `/v1/campaigns/${campaignId}`, { ...definition, mutations: [shout, whisper] }, { 'If-Match': '1' });
    if (put.status !== 200) throw new Error(`campaign update failed: ${put.status} ${put.text}`);
    second = await submitBatch({ metadata: { branch: 'feature' }, baseline: { branch: 'main' } });
  });

  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
    await agent?.close();
  });

  it('the API compared the version 2 batch with the version 1 baseline: one new cell, no regression', () => {
    expect(first.campaign_version).toBe(1);
    expect(second.campaign_version).toBe(2);
    expect(second.comparison).toMatchObject({ baseline_campaign_version: 1, campaign_version: 2, regressed_count: 0, new_cells_count: 1 });
  });

  it("shows the campaign's version, its versions with what changed, and each batch's version", async () => {
    const { context, page, dialogs } = await newPage(browser);

    await openSignedIn(page, svc, `${svc.url}/dashboard/campaigns/${campaignId}`);

    await page.getByRole('heading', { level: 1, name: 'Campaign versioned audit' }).waitFor();
    await expect(metaValue(page, 'Version')).resolves.toBe('2');
    const versions = page.getByRole('table', { name: /Campaign versions, newest first/ });
    await versions.locator('tbody tr').first().waitFor();
    const rows = await versions.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(rows.map((r) => [r[0], r[2], r[3]])).toEqual([
      ['v2 (current)', 'versioned audit', 'mutations +whisper'],
      ['v1', 'versioned audit', 'created'],
    ]);
    const batches = page.getByRole('table', { name: 'CI batches of this campaign, newest first' });
    const versionOf = (id: string) =>
      batches
        .locator('tbody tr')
        .filter({ has: page.locator(`a[href="/dashboard/batches/${id}"]`) })
        .getByText(/^v\d+$/)
        .textContent();
    await expect(versionOf(second.ci_batch_id)).resolves.toBe('v2');
    await expect(versionOf(first.ci_batch_id)).resolves.toBe('v1');
    expect(dialogs).toEqual([]);
    await context.close();
  });

  it("says on the batch page that the baseline ran another version, and lists the added mutation's cell as new", async () => {
    const { context, page } = await newPage(browser);

    await openSignedIn(page, svc, `${svc.url}/dashboard/batches/${second.ci_batch_id}`);

    await page.locator('#comparison').waitFor();
    await expect(metaValue(page, 'Campaign version')).resolves.toBe('2');
    await page.getByText('The baseline ran campaign version 1, this batch version 2', { exact: false }).waitFor();
    const comparison = page.getByRole('list', { name: 'Comparison' });
    await comparison.getByRole('listitem').filter({ hasText: 'Regressed cells' }).getByText('0', { exact: true }).waitFor();
    await comparison.getByRole('listitem').filter({ hasText: 'New cells' }).getByText('1', { exact: true }).waitFor();
    const changed = page.getByRole('table', { name: /Changed cells/ });
    const row = changed.locator('tbody tr', { hasText: 'whisper' });
    await expect(row.locator('td').evaluateAll((tds) => tds.map((td) => td.textContent))).resolves.toEqual([
      'new',
      'versioned refund',
      'whisper',
      'not run',
      'ran',
    ]);
    await context.close();
  });
});

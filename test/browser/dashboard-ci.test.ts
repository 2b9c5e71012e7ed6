// The dashboard's CI statistics pages in headless Chromium against the local service: the batches list,
// the campaign page, and the batch page's scenario table compared with a baseline (regressed, fixed, flaky cells),
// its filters and interval bar; trace names everywhere, rendered as text.
import { createServer, type Server } from 'node:http';
import type { Browser } from 'playwright-core';
import { createCampaign, createTraces, setEvalSet } from '../helpers/ci';
import { sampleTrace } from '../helpers/fixtures';
import { startTestService, type TestService } from '../helpers/local-service';
import { browserSuite, launchBrowser, newPage, openSignedIn, settle, XSS } from './harness';

/**
 * A step-protocol agent whose answers the test controls by phase. The user message names the scenario: STABLE always
 * passes; REGRESS passes in phase 1 and, in phase 2, fails its mutated attempts (3 and 4); FIXME fails in phase 1 and
 * passes in phase 2; FLAKY fails every even attempt (the second repeat of each cell). Failing = an answer without
 * "refund", which misses the campaign's output_contains criterion.
 */
function startPhasedAgent(): Promise<{ url: string; setPhase(p: 1 | 2): void; close(): Promise<void> }> {
  let phase: 1 | 2 = 1;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
        attempt?: number;
        messages?: { role: string; content: unknown }[];
      };
      const user = String((body.messages ?? []).find((m) => m.role === 'user')?.content ?? '').toUpperCase();
      const attempt = body.attempt ?? 1;
      const fails =
        (user.includes('REGRESS') && phase === 2 && attempt >= 3) ||
        (user.includes('FIXME') && phase === 1) ||
        (user.includes('FLAKY') && attempt % 2 === 0);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ output: fails ? 'Sorry, I cannot help with that.' : 'Your refund is on its way.' }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({
        url: `http://127.0.0.1:${port}/step`,
        setPhase: (p) => {
          phase = p;
        },
        close: () =>
          new Promise<void>((r) => {
            server.close(() => r());
            server.closeAllConnections();
          }),
      });
    }),
  );
}

function scenarioTrace(name: string, marker: string) {
  const t = sampleTrace({ name });
  t.steps = t.steps.map((s: any) => (s.role === 'user' ? { role: 'user', content: `${marker}: please refund order 1234` } : s));
  return t;
}

const NAMES = { stable: 'stable refund', regress: 'refund under shouting', fixme: 'refund fixed on the branch', flaky: 'coin-flip refund', xss: XSS };
const CAMPAIGN_NAME = 'statistics audit';
/** A batch's link in a list, which shows a short id. */
const batchAnchor = (id: string) => `a[href="/dashboard/batches/${id}"]`;

let svc: TestService;
let browser: Browser;
let agent: Awaited<ReturnType<typeof startPhasedAgent>>;
let campaignId: string;
let base: any;
let head: any;
let orphan: any;
const traceIds: Record<keyof typeof NAMES, string> = { stable: '', regress: '', fixme: '', flaky: '', xss: '' };

async function submitBatch(body: Record<string, unknown>): Promise<any> {
  const sub = await svc.api('POST', '/v1/ci/runs', { campaign_id: campaignId, ...body });
  if (sub.status !== 202) throw new Error(`CI submission failed: ${sub.status} ${sub.text}`);
  return settle(svc, `/v1/ci/batch/${sub.body.ci_batch_id}`, (b) => b.status === 'done');
}

browserSuite('dashboard CI statistics pages in headless Chromium', () => {
  jest.setTimeout(90_000);

  beforeAll(async () => {
    [svc, browser, agent] = await Promise.all([startTestService({ deliverWebhooks: false }), launchBrowser(), startPhasedAgent()]);
    const keys = Object.keys(NAMES) as (keyof typeof NAMES)[];
    const ids = await createTraces(
      svc,
      keys.map((k) => scenarioTrace(NAMES[k], k === 'xss' ? 'STABLE' : k.toUpperCase())),
    );
    keys.forEach((k, i) => (traceIds[k] = ids[i]));
    campaignId = await createCampaign(svc, {
      name: CAMPAIGN_NAME,
      target: { type: 'http', url: agent.url, timeout_ms: 2000 },
      repeats: 2,
      mutations: [{ id: 'shout', type: 'input_perturbation', kind: 'uppercase' }],
      criteria: [{ type: 'output_contains', value: 'refund' }],
    });
    await setEvalSet(svc, campaignId, ids);

    base = await submitBatch({ metadata: { branch: 'main', commit: 'a'.repeat(40) } });
    agent.setPhase(2);
    head = await submitBatch({ metadata: { branch: 'feature/refunds', commit: 'b'.repeat(40) }, baseline: { branch: 'main' } });
    orphan = await submitBatch({ metadata: { branch: 'feature/other' }, baseline: { branch: 'release' } });
  });

  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
    await agent?.close();
  });

  it('the API gave the batches the test relies on: a baseline, a regression, a fix and a flaky scenario', () => {
    expect(head.baseline_batch_id).toBe(base.ci_batch_id);
    expect(head.comparison).toMatchObject({ baseline_batch_id: base.ci_batch_id, regressed_count: 1, fixed_count: 2 });
    expect(head.flaky_count).toBe(1);
    expect(orphan).toMatchObject({ baseline_batch_id: null, baseline_missing: true, comparison: null });
  });

  describe('batches list', () => {
    it('lists every batch newest first with branch, commit, statistics and links, and loads more pages on demand', async () => {
      const { context, page } = await newPage(browser);
      // The real API, two batches a page, so that "Load more" has pages to follow.
      await context.route(`${svc.url}/v1/ci/batches?*`, async (route) => {
        const url = new URL(route.request().url());
        url.searchParams.set('limit', '2');
        await route.fulfill({ response: await route.fetch({ url: url.toString() }) });
      });

      await openSignedIn(page, svc, `${svc.url}/dashboard/batches`);

      const list = page.getByRole('table', { name: 'CI batches, newest first' });
      await list.locator(batchAnchor(head.ci_batch_id)).waitFor();
      await expect(list.locator('tbody tr').count()).resolves.toBe(2);
      await page.getByRole('button', { name: 'Load more' }).click();
      await list.locator(batchAnchor(base.ci_batch_id)).waitFor();
      expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
      const rows = list.locator('tbody tr');
      const links = await rows.locator('td:first-child a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      expect(links).toEqual([orphan, head, base].map((b) => `/dashboard/batches/${b.ci_batch_id}`));
      const headRow = rows.filter({ has: page.locator(batchAnchor(head.ci_batch_id)) });
      await expect(headRow.locator('td:first-child a').textContent()).resolves.toBe(`${head.ci_batch_id.slice(0, 8)}\u2026`);
      await headRow.getByText('feature/refunds').waitFor();
      await headRow.getByText('b'.repeat(7), { exact: true }).waitFor();
      await headRow.getByText('1 regressed').waitFor();
      await headRow.getByText(`${Math.round(head.pass_hat_k * 1000) / 10}%`, { exact: true }).waitFor();
      await expect(headRow.getByRole('link', { name: CAMPAIGN_NAME }).getAttribute('href')).resolves.toBe(`/dashboard/campaigns/${campaignId}`);
      await page.screenshot({ path: '/tmp/dashboard-batches.png', fullPage: true });
      await context.close();
    });

    it('is linked from the header and the home page, and filters by branch', async () => {
      const { context, page } = await newPage(browser);
      await openSignedIn(page, svc, `${svc.url}/dashboard`);
      await page
        .getByRole('table', { name: /latest CI batches/ })
        .locator(batchAnchor(head.ci_batch_id))
        .waitFor();
      await expect(page.getByRole('link', { name: 'All CI batches' }).getAttribute('href')).resolves.toBe('/dashboard/batches');

      await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'CI batches' }).click();
      await page.getByRole('textbox', { name: 'Branch' }).fill('main');
      await page.getByRole('button', { name: 'Filter' }).click();

      await page.getByRole('heading', { level: 1, name: 'CI batches of branch main' }).waitFor();
      const list = page.getByRole('table', { name: 'CI batches, newest first' });
      await list.locator(batchAnchor(base.ci_batch_id)).waitFor();
      await expect(list.locator('tbody tr').count()).resolves.toBe(1);
      await context.close();
    });
  });

  describe('campaign page', () => {
    it('shows the settings, the eval-set with trace names and results, and the campaign batches', async () => {
      const { context, page, dialogs } = await newPage(browser);

      await openSignedIn(page, svc, `${svc.url}/dashboard/campaigns/${campaignId}`);

      await page.getByRole('heading', { level: 1, name: `Campaign ${CAMPAIGN_NAME}` }).waitFor();
      await page.getByText(`http ${agent.url}`, { exact: false }).waitFor();
      await page.locator('dd', { hasText: 'shout' }).getByText('(input_perturbation)').waitFor();
      await expect(
        page
          .locator('dt', { hasText: /^Version$/ })
          .locator('xpath=following-sibling::dd[1]')
          .textContent(),
      ).resolves.toBe('1');
      const evalSet = page.getByRole('table', { name: /Eval-set traces/ });
      await expect(evalSet.locator('tbody tr').count()).resolves.toBe(5);
      const headScenarios = (await svc.api('GET', `/v1/ci/batch/${orphan.ci_batch_id}/scenarios`)).body.items;
      for (const [key, name] of Object.entries(NAMES)) {
        const tr = evalSet.locator('tbody tr').filter({ hasText: traceIds[key as keyof typeof NAMES] });
        await expect(tr.locator('td').nth(1).textContent()).resolves.toBe(name);
        const runId = headScenarios.find((s: any) => s.trace_id === traceIds[key as keyof typeof NAMES]).run_id;
        await expect(tr.getByRole('link').getAttribute('href')).resolves.toBe(`/dashboard/runs/${runId}`);
      }
      const batches = page.getByRole('table', { name: 'CI batches of this campaign, newest first' });
      await expect(batches.locator('tbody tr').count()).resolves.toBe(3);
      expect(await page.locator('img').count()).toBe(0);
      expect(dialogs).toEqual([]);
      await page.screenshot({ path: '/tmp/dashboard-campaign.png', fullPage: true });
      await context.close();
    });
  });

  describe('batch page', () => {
    it('shows the scenario table with trace names, pass^k, flaky and comparison badges, and the baseline link', async () => {
      const { context, page } = await newPage(browser);

      await openSignedIn(page, svc, `${svc.url}/dashboard/batches/${head.ci_batch_id}`);

      const table = page.getByRole('table', { name: 'Scenarios of this batch' });
      const rowOf = (key: keyof typeof NAMES) =>
        table.locator('tbody > tr').filter({ has: page.getByRole('link', { name: NAMES[key], exact: true }) });
      await rowOf('regress').waitFor();
      await rowOf('regress').getByText('regressed', { exact: true }).waitFor();
      await rowOf('fixme').getByText('fixed', { exact: true }).waitFor();
      await rowOf('flaky').getByText('flaky', { exact: true }).waitFor();
      await rowOf('stable').getByText('unchanged', { exact: true }).waitFor();
      await expect(rowOf('flaky').locator('td').nth(4).textContent()).resolves.toBe('0%');
      await expect(rowOf('stable').locator('td').nth(4).textContent()).resolves.toBe('100%');
      await expect(rowOf('regress').locator('td').nth(4).textContent()).resolves.toBe('50%');
      await expect(page.locator('#baseline-link a').getAttribute('href')).resolves.toBe(`/dashboard/batches/${base.ci_batch_id}`);
      const comparison = page.getByRole('list', { name: 'Comparison' });
      await comparison.getByRole('listitem').filter({ hasText: 'Regressed cells' }).getByText('1', { exact: true }).waitFor();
      const delta = Math.round(head.comparison.pass_rate_delta * 1000) / 10;
      await comparison.getByText(`${delta > 0 ? '+' : delta < 0 ? '-' : ''}${Math.abs(delta).toFixed(1)} pp`).waitFor();
      const changed = page.getByRole('table', { name: /Changed cells/ });
      await changed.locator('tr', { hasText: NAMES.regress }).getByText('shout', { exact: true }).waitFor();
      await page.screenshot({ path: '/tmp/dashboard-batch-comparison.png', fullPage: true });
      await context.close();
    });

    it('expands a regressed scenario into its cells: mutation, passes before and now, what failed', async () => {
      const { context, page } = await newPage(browser);
      await openSignedIn(page, svc, `${svc.url}/dashboard/batches/${head.ci_batch_id}`);
      const row = page
        .getByRole('table', { name: 'Scenarios of this batch' })
        .locator('tbody > tr')
        .filter({ has: page.getByRole('link', { name: NAMES.regress, exact: true }) });

      await row.getByRole('button', { name: 'Show cells' }).click();

      const cells = page.getByRole('table', { name: /Cells of this scenario/ });
      const shout = cells.locator('tr', { hasText: 'shout' });
      await shout.getByText('0/2').waitFor();
      await shout.getByText('2/2').waitFor();
      await shout.getByText('regressed', { exact: true }).waitFor();
      await shout
        .getByText(/output_contains/)
        .first()
        .waitFor();
      await cells.locator('tr', { hasText: 'baseline' }).getByText('unchanged').waitFor();
      await expect(row.getByRole('button', { name: 'Hide cells' }).getAttribute('aria-expanded')).resolves.toBe('true');
      await context.close();
    });

    it('filters the scenarios with the API status filter', async () => {
      const { context, page } = await newPage(browser);
      const asked: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/scenarios')) asked.push(new URL(r.url()).searchParams.get('status') ?? '');
      });
      await openSignedIn(page, svc, `${svc.url}/dashboard/batches/${head.ci_batch_id}`);
      const names = () =>
        page
          .getByRole('table', { name: /^Scenarios of this batch/ })
          .locator('tbody td:nth-child(2)')
          .allTextContents();
      await page.getByRole('table', { name: 'Scenarios of this batch' }).getByRole('link', { name: NAMES.stable }).waitFor();

      const expected: [string, string[]][] = [
        ['Regressed', [NAMES.regress]],
        ['Fixed', [NAMES.fixme]],
        ['Flaky', [NAMES.flaky]],
        ['Passed', [NAMES.stable, NAMES.fixme, NAMES.xss]],
      ];
      for (const [label, want] of expected) {
        await page.getByRole('button', { name: label, exact: true }).click();
        await page.getByRole('table', { name: `Scenarios of this batch: ${label.toLowerCase()} only` }).waitFor();
        await page
          .getByRole('table', { name: /^Scenarios of this batch/ })
          .getByText('Loading...')
          .waitFor({ state: 'detached' });
        expect((await names()).sort()).toEqual([...want].sort());
        await expect(page.getByRole('button', { name: label, exact: true }).getAttribute('aria-pressed')).resolves.toBe('true');
      }
      await page.getByRole('button', { name: 'All', exact: true }).click();
      await page.getByRole('table', { name: 'Scenarios of this batch' }).getByRole('link', { name: NAMES.flaky }).waitFor();
      expect(await names()).toHaveLength(5);
      expect(asked).toEqual(expect.arrayContaining(['regressed', 'fixed', 'flaky', 'passed']));
      await context.close();
    });

    it('draws the Wilson interval as a bar from low to high with the point estimate', async () => {
      const { context, page, cspViolations } = await newPage(browser);
      const iv = head.pass_rate_interval;

      await openSignedIn(page, svc, `${svc.url}/dashboard/batches/${head.ci_batch_id}`);

      const figure = page.locator('#pass-rate-interval');
      await figure.waitFor();
      const bar = figure.getByRole('img');
      const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;
      await expect(bar.getAttribute('aria-label')).resolves.toBe(
        `95% Wilson interval of the pass rate: ${pct(iv.low)} to ${pct(iv.high)}, point estimate ${pct(head.pass_rate)}`,
      );
      const range = figure.locator('rect.iv-range');
      expect(Number(await range.getAttribute('x'))).toBeCloseTo(iv.low * 1000, 6);
      expect(Number(await range.getAttribute('width'))).toBeCloseTo((iv.high - iv.low) * 1000, 6);
      expect(Number(await figure.locator('line.iv-point').getAttribute('x1'))).toBeCloseTo(head.pass_rate * 1000, 6);
      await expect(figure.locator('.iv-text').textContent()).resolves.toBe(
        `${pct(iv.low)} .. ${pct(iv.high)} (point estimate ${pct(head.pass_rate)})`,
      );
      // The bar really spans low..high of the drawn track.
      const track = await figure.locator('rect.iv-track').boundingBox();
      const drawn = await range.boundingBox();
      expect((drawn!.x - track!.x) / track!.width).toBeCloseTo(iv.low, 2);
      expect(cspViolations).toEqual([]);
      await context.close();
    });

    it('shows a running batch without statistics yet, with the scenarios finished so far', async () => {
      const { context, page } = await newPage(browser);
      const running = { status: 'running', decision: 'pending', flaky_count: null, pass_hat_k: null, pass_rate_interval: null, comparison: null };
      await context.route(`${svc.url}/v1/ci/batch/${head.ci_batch_id}`, async (route) => route.fulfill({ json: { ...head, ...running } }));
      await context.route(`${svc.url}/v1/ci/batch/${head.ci_batch_id}/scenarios?*`, async (route) => {
        const response = await route.fetch();
        const body = await response.json();
        await route.fulfill({ response, json: { ...body, items: body.items.slice(0, 2), next_cursor: null } });
      });

      await openSignedIn(page, svc, `${svc.url}/dashboard/batches/${head.ci_batch_id}`);

      await page.getByText('The batch is running; refreshing every 2 s.').waitFor();
      await page.getByText('Scenario runs appear here as they finish (2 of 5 so far).').waitFor();
      await expect(page.getByRole('table', { name: 'Scenarios of this batch' }).locator('tbody > tr').count()).resolves.toBe(2);
      const card = (label: string) => page.getByRole('list', { name: 'Summary' }).getByRole('listitem').filter({ hasText: label }).locator('.value');
      await expect(card('pass^k').textContent()).resolves.toBe('-');
      expect(await page.locator('#pass-rate-interval').count()).toBe(0);
      await context.close();
    });

    it('says "no baseline found" when the baseline branch has no done batch', async () => {
      const { context, page } = await newPage(browser);

      await openSignedIn(page, svc, `${svc.url}/dashboard/batches/${orphan.ci_batch_id}`);

      await page.getByText('No baseline found: nothing was compared.').waitFor();
      await expect(page.locator('#baseline-missing').textContent()).resolves.toBe('no baseline found');
      expect(await page.getByRole('list', { name: 'Comparison' }).count()).toBe(0);
      await context.close();
    });
  });

  describe('trace names', () => {
    it('renders a trace named like an HTML tag as text on every page, with no element and no dialog', async () => {
      const { context, page, dialogs } = await newPage(browser);
      const xssRun = (await svc.api('GET', `/v1/ci/batch/${head.ci_batch_id}/scenarios`)).body.items.find((s: any) => s.trace_id === traceIds.xss);
      const pages = [
        `/dashboard/batches/${head.ci_batch_id}`,
        `/dashboard/campaigns/${campaignId}`,
        `/dashboard/runs/${xssRun.run_id}`,
        '/dashboard',
      ];
      await openSignedIn(page, svc, `${svc.url}/dashboard`);

      for (const path of pages) {
        await page.goto(`${svc.url}${path}`);
        await page.getByText(XSS, { exact: true }).first().waitFor();
        expect(await page.locator('img').count()).toBe(0);
      }
      expect(dialogs).toEqual([]);
      await context.close();
    });

    it('names the trace of each run on the home page and the run page', async () => {
      const { context, page } = await newPage(browser);
      const scenario = (await svc.api('GET', `/v1/ci/batch/${head.ci_batch_id}/scenarios?status=regressed`)).body.items[0];

      await openSignedIn(page, svc, `${svc.url}/dashboard`);

      const runs = page.getByRole('table', { name: /most recent runs/ });
      await runs.locator('tr', { hasText: scenario.run_id }).getByText(NAMES.regress, { exact: true }).waitFor();
      await runs.locator('tr', { hasText: scenario.run_id }).getByRole('link', { name: CAMPAIGN_NAME }).waitFor();
      await page.goto(`${svc.url}/dashboard/runs/${scenario.run_id}`);
      await page.locator('.subtitle').getByText(NAMES.regress, { exact: true }).waitFor();
      await expect(page.getByRole('link', { name: campaignId }).getAttribute('href')).resolves.toBe(`/dashboard/campaigns/${campaignId}`);
      await context.close();
    });
  });
});

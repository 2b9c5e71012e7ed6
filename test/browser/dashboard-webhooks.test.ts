// The dashboard's webhooks pages in headless Chromium against the local service, whose bus runs the real
// delivery function to a real HTTPS receiver on loopback: the list, last_error, a failed delivery, Resend, the test
// event, Recover with a since, the 409s of a paused webhook and of an event no longer kept, "Load more", escaping.
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { createGuardedSender } from '../../functions/adapters/http/guarded-sender';
import { configureDeps, getDeps } from '../../functions/wiring/deps';
import { sampleTrace } from '../helpers/fixtures';
import { startHttpsReceiver, testCertificates, type HttpsReceiver } from '../helpers/https-receiver';
import { startTestService, type TestService } from '../helpers/local-service';
import { browserSuite, launchBrowser, newPage, openSignedIn, XSS, type TestPage } from './harness';

const UI_WAIT_MS = 15_000;

let svc: TestService;
let browser: Browser;
let receiver: HttpsReceiver;
/** The webhook on trace.created whose receiver failed the first delivery, and that delivery. */
let hook: { webhook_id: string; url: string };
let failedId: string;
let opened: TestPage[] = [];

async function uploadTrace(name: string): Promise<void> {
  const res = await svc.api('POST', '/v1/traces', sampleTrace({ name }));
  if (res.status !== 201) throw new Error(`trace upload failed: ${res.status} ${res.text}`);
  await svc.idle();
}

async function deliveries(webhookId: string): Promise<any[]> {
  return (await svc.api('GET', `/v1/webhooks/${webhookId}/deliveries?limit=100`)).body.items;
}

/** A signed-in page on `path` below the dashboard, its failures (dialogs, CSP) collected for the test's end. */
async function open(path: string): Promise<Page> {
  const t = await newPage(browser);
  opened.push(t);
  await openSignedIn(t.page, svc, `${svc.url}/dashboard${path}`);
  return t.page;
}

const row = (page: Page, deliveryId: string) => page.locator(`tr#delivery-${deliveryId}`);

browserSuite('dashboard webhooks pages in headless Chromium', () => {
  jest.setTimeout(90_000);

  beforeAll(async () => {
    svc = await startTestService();
    // The bus runs the real delivery function: it trusts the receiver's test CA and does not wait between retries.
    configureDeps({ http: createGuardedSender({ allowPrivate: true, ca: testCertificates().ca }), sleep: async () => undefined });
    browser = await launchBrowser();
    receiver = await startHttpsReceiver({ mode: 'error' });
    const created = await svc.api('POST', '/v1/webhooks', { url: receiver.url, events: ['trace.created'], description: XSS });
    if (created.status !== 201) throw new Error(`webhook creation failed: ${created.status} ${created.text}`);
    hook = created.body;
    await uploadTrace('first refund');
    [{ delivery_id: failedId }] = await deliveries(hook.webhook_id);
  });

  afterEach(async () => {
    for (const t of opened) {
      expect(t.dialogs).toEqual([]);
      expect(t.cspViolations).toEqual([]);
      await t.context.close();
    }
    opened = [];
  });

  afterAll(async () => {
    configureDeps({ http: undefined, sleep: undefined });
    await browser?.close();
    await svc?.stop();
    await receiver?.close();
  });

  describe('/dashboard/webhooks', () => {
    it('lists the webhook with its URL, events, state, last error and a description rendered as text', async () => {
      const page = await open('/webhooks');

      const table = page.getByRole('table', { name: /Webhooks of this project/ });
      const line = table.locator('tbody tr').filter({ hasText: receiver.url });
      await line.waitFor();
      await expect(line.locator('.wh-description').textContent()).resolves.toBe(XSS);
      expect(await page.locator('main img').count()).toBe(0);
      const text = await line.innerText();
      expect(text).toContain('trace.created');
      expect(text).toContain('enabled');
      expect(text).toContain('HTTP 500');
      expect(await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Webhooks' }).getAttribute('aria-current')).toBe(
        'page',
      );
      await line.getByRole('link', { name: receiver.url }).click();
      await page.getByRole('heading', { name: new RegExp(`Webhook ${hook.webhook_id}`) }).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/dashboard/webhooks/${hook.webhook_id}`);
    });
  });

  describe('/dashboard/webhooks/<webhook_id>', () => {
    it('shows the last error and the failed delivery; Resend delivers it again, the log shows the new try, then polling stops', async () => {
      // Prepare
      const page = await open(`/webhooks/${hook.webhook_id}`);
      await row(page, failedId).waitFor();
      expect(await page.locator('.alert-bad').innerText()).toContain('HTTP 500');
      const before = await row(page, failedId).innerText();
      expect(before).toContain('failed');
      expect(await row(page, failedId).locator('ol.tries li').count()).toBe(4);
      expect(await page.locator('main').innerText()).not.toMatch(/whsec_/);
      expect(await page.locator('.wh-description').first().textContent()).toBe(XSS);
      receiver.mode = 'ok';

      // Act
      await page.getByRole('button', { name: `Resend delivery ${failedId}` }).click();

      // Assess
      await expect(page.locator(`#resend-result-${failedId}`).innerText({ timeout: UI_WAIT_MS })).resolves.toContain('202 Accepted');
      const got = await receiver.waitForRequests(5);
      expect(got[4].headers['webhook-id']).toBe(failedId);
      await row(page, failedId).locator('ol.tries li').nth(4).waitFor({ timeout: UI_WAIT_MS });
      const after = await row(page, failedId).innerText();
      expect(after).toContain('succeeded');
      expect(await row(page, failedId).locator('ol.tries li').nth(4).innerText()).toContain('HTTP 200');
      await page.locator('.alert-bad').waitFor({ state: 'detached', timeout: UI_WAIT_MS });
      await page.getByText('Refreshing every 2 s').waitFor({ state: 'detached', timeout: UI_WAIT_MS });
      expect(await page.locator('main').innerText()).toContain('HTTP 200');
    });

    it('sends a test event with an Idempotency-Key: 202, the receiver gets webhook.test, and the log shows its delivery', async () => {
      const page = await open(`/webhooks/${hook.webhook_id}`);
      await row(page, failedId).waitFor();
      const seen = receiver.requests.length;

      const sent = page.waitForRequest((q) => q.method() === 'POST' && q.url().endsWith(`/v1/webhooks/${hook.webhook_id}/test`));
      await page.getByRole('button', { name: 'Send test event' }).click();

      expect((await sent).headers()['idempotency-key']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      await expect(page.locator('#test-result').innerText({ timeout: UI_WAIT_MS })).resolves.toContain('202 Accepted: test event queued');
      const got = await receiver.waitForRequests(seen + 1);
      expect(got[seen].headers['x-service-event']).toBe('webhook.test');
      const testId = got[seen].headers['webhook-id'] as string;
      await row(page, testId).waitFor({ timeout: UI_WAIT_MS });
      expect(await row(page, testId).innerText()).toMatch(/webhook\.test[\s\S]*succeeded/);
    });

    it('recovers failed deliveries since 24 h ago by default (queued: 1), and shows the 422 of a since beyond 7 days', async () => {
      // Prepare: a second delivery that failed every try, then the receiver recovers
      receiver.mode = 'error';
      await uploadTrace('second refund');
      const [{ delivery_id: secondId, outcome }] = await deliveries(hook.webhook_id);
      expect(outcome).toBe('failed');
      receiver.mode = 'ok';
      const seen = receiver.requests.length;
      const page = await open(`/webhooks/${hook.webhook_id}`);
      await row(page, secondId).waitFor();
      const since = page.getByLabel(/Failed since/);
      // The browser's own clock and time zone read the field, as the page does.
      const defaultAgeH = await since.evaluate((el) => (Date.now() - new Date((el as unknown as { value: string }).value).getTime()) / 3_600_000);
      expect(defaultAgeH).toBeGreaterThan(23.9);
      expect(defaultAgeH).toBeLessThan(24.1);

      // Act
      await page.getByRole('button', { name: 'Recover failed deliveries' }).click();

      // Assess
      await expect(page.locator('#recover-result').innerText({ timeout: UI_WAIT_MS })).resolves.toContain('202 Accepted: queued 1');
      const got = await receiver.waitForRequests(seen + 1);
      expect(got[seen].headers['webhook-id']).toBe(secondId);
      await row(page, secondId).filter({ hasText: 'succeeded' }).waitFor({ timeout: UI_WAIT_MS });

      // Act: 8 days ago, beyond what the log keeps
      const eightDaysAgo = await page.evaluate(() => {
        const d = new Date(Date.now() - 8 * 24 * 3_600_000);
        const p = (n: number) => String(n).padStart(2, '0');
        return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
      });
      await since.fill(eightDaysAgo);
      await page.getByRole('button', { name: 'Recover failed deliveries' }).click();

      // Assess
      const problem = page.locator('#recover-result[role="alert"]');
      await expect(problem.innerText({ timeout: UI_WAIT_MS })).resolves.toMatch(/Not accepted[\s\S]*7 days[\s\S]*422 validation_error/);
    });

    it('shows the 409 webhook_paused message for resend and recover of a paused webhook, and sends nothing', async () => {
      // Prepare
      await svc.api('PATCH', `/v1/webhooks/${hook.webhook_id}`, { is_enabled: false });
      const seen = receiver.requests.length;
      const page = await open(`/webhooks/${hook.webhook_id}`);
      await row(page, failedId).waitFor();
      expect(await page.locator('h1').innerText()).toContain('paused');
      expect(await page.locator('.alert-warn').innerText()).toContain('webhook_paused');

      // Act
      await page.getByRole('button', { name: `Resend delivery ${failedId}` }).click();
      await page.getByRole('button', { name: 'Recover failed deliveries' }).click();

      // Assess
      for (const id of [`#resend-result-${failedId}`, '#recover-result']) {
        const text = await page.locator(`${id}[role="alert"]`).innerText({ timeout: UI_WAIT_MS });
        expect(text).toContain('The webhook is paused: nothing was sent');
        expect(text).toContain('409 webhook_paused');
      }
      await svc.idle();
      expect(receiver.requests).toHaveLength(seen);
      await svc.api('PATCH', `/v1/webhooks/${hook.webhook_id}`, { is_enabled: true });
    });

    it('pages the log with Load more and shows the 409 event_unavailable message of a delivery whose event was not kept', async () => {
      // Prepare: a webhook with 30 failed log entries whose kept events have expired (7 days in production)
      const other = (await svc.api('POST', '/v1/webhooks', { url: receiver.url, events: ['run.completed'] })).body;
      const store = getDeps().deliveryLog;
      const nowS = Math.floor(Date.now() / 1000);
      const ids: string[] = [];
      for (let i = 0; i < 30; i++) {
        const [id, eventId, at] = [randomUUID(), randomUUID(), new Date(Date.now() - 3_600_000 + i * 1000).toISOString()];
        ids.push(id);
        await store.putEvent(svc.projectId, eventId, { event_type: 'run.completed', body: '{}' }, nowS - 1);
        const attempts = [{ at, status_code: 503, error: 'HTTP 503', duration_ms: 7 }];
        await store.putDelivery(
          svc.projectId,
          other.webhook_id,
          { delivery_id: id, event_type: 'run.completed', created_at: at, outcome: 'failed', attempts },
          nowS + 3600,
          eventId,
        );
      }
      const page = await open(`/webhooks/${other.webhook_id}`);
      const rows = page.locator('table').filter({ hasText: 'Delivery log' }).locator('tbody tr[id^="delivery-"]');
      await row(page, ids[29]).waitFor();
      expect(await rows.count()).toBe(25);

      // Act
      await page.getByRole('button', { name: 'Load more' }).click();
      await row(page, ids[0]).waitFor({ timeout: UI_WAIT_MS });
      await page.getByRole('button', { name: `Resend delivery ${ids[0]}` }).click();

      // Assess
      expect(await rows.count()).toBe(30);
      expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
      const text = await page.locator(`#resend-result-${ids[0]}[role="alert"]`).innerText({ timeout: UI_WAIT_MS });
      expect(text).toContain('This event is no longer kept');
      expect(text).toContain('409 event_unavailable');
    });

    it('shows the API error of an unknown webhook', async () => {
      const page = await open(`/webhooks/wh_${'z'.repeat(24)}`);

      const alert = page.getByRole('alert');
      await expect(alert.innerText({ timeout: UI_WAIT_MS })).resolves.toContain('not_found');
    });
  });
});

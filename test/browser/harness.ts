// What the dashboard's browser tests share: the headless Chromium they drive, pages that record dialogs and CSP
// violations, signing in through the form, and bounded waiting for the API to reach a state.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { TestService } from '../helpers/local-service';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const HAVE_CHROMIUM = existsSync(CHROMIUM);
/** A value that would run script if it were ever parsed as HTML. */
export const XSS = '<img src=x onerror=alert(1)>';

/** `describe`, or `describe.skip` with the reason in its name when there is no Chromium binary. */
export function browserSuite(name: string, body: () => void): void {
  if (HAVE_CHROMIUM) {
    describe(name, body);
    return;
  }
  console.warn(`[dashboard browser tests] skipped: no Chromium binary at ${CHROMIUM}`);
  describe.skip(`${name} (skipped: no Chromium at ${CHROMIUM}; install it or set CHROMIUM_PATH)`, body);
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface TestPage {
  context: BrowserContext;
  page: Page;
  /** Messages of every dialog (alert, confirm) the page opened; each is dismissed. */
  dialogs: string[];
  /** Console messages about Content-Security-Policy violations. */
  cspViolations: string[];
}

/** A fresh browser context (empty sessionStorage) with one page. */
export async function newPage(browser: Browser): Promise<TestPage> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const dialogs: string[] = [];
  const cspViolations: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
  });
  return { context, page, dialogs, cspViolations };
}

/**
 * Opens a dashboard page and signs in as a person does: the address carries only the project id (`#project=`, which
 * pre-fills the form), and the API key is typed into the sign-in form.
 */
export async function openSignedIn(page: Page, svc: TestService, url: string, key = svc.apiKey): Promise<void> {
  await page.goto(`${url}#project=${encodeURIComponent(svc.projectId)}`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Open dashboard' }).click();
}

/** Polls `path` until `done(body)` holds or `timeoutMs` passes, and answers the last body (callers assert on it). */
export async function settle(svc: TestService, path: string, done: (body: any) => boolean, timeoutMs = 30_000): Promise<any> {
  await svc.idle();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await svc.api('GET', path);
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.text}`);
    if (done(res.body) || Date.now() > deadline) return res.body;
    await new Promise((r) => setTimeout(r, 50));
  }
}

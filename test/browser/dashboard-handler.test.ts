// The dashboard function without a browser: one HTML page for every dashboard path, strict headers, no data read.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { handler } from '../../functions/dashboard/handler';
import { buildBundles } from '../../lib/constructs/bundling';

const RUN_ID = '6f1c3a52-8a0e-4d57-9b1e-2a4f6c8d0e13';
const BATCH_ID = '0b7e5d21-3c4f-4a6b-8d9e-1f2a3b4c5d6e';
const CAMPAIGN_ID = '3d2c1b0a-9f8e-4d7c-8b6a-5f4e3d2c1b0a';
const WEBHOOK_ID = 'wh_3kq9x2m7p4v8t1c6r5n0b2dz';

function event(path: string, method = 'GET'): APIGatewayProxyEvent {
  const proxy = path.replace(/^\/dashboard\/?/, '');
  return {
    resource: '/dashboard/{proxy+}',
    path,
    httpMethod: method,
    headers: {},
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: path === '/dashboard' ? null : { proxy },
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: { requestId: 'req-1' } as APIGatewayProxyEvent['requestContext'],
  };
}

describe('dashboard handler', () => {
  it('answers /dashboard with 200 and a self-contained HTML page', async () => {
    const res = await handler(event('/dashboard'));

    expect(res.statusCode).toBe(200);
    expect(res.headers?.['Content-Type']).toBe('text/html; charset=utf-8');
    expect(res.body).toMatch(/^<!doctype html>/);
    expect(res.body).not.toMatch(/<script[^>]+src=|<link[^>]+stylesheet|https?:\/\/(?!www\.w3\.org)/i);
  });

  it('sends a hash-based CSP and the other security headers', async () => {
    const res = await handler(event('/dashboard'));

    const h = res.headers ?? {};
    const csp = String(h['Content-Security-Policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/]+=*'/);
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/]+=*'/);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(h['X-Content-Type-Options']).toBe('nosniff');
    expect(h['Referrer-Policy']).toBe('no-referrer');
    expect(h['X-Frame-Options']).toBe('DENY');
    expect(h['Cache-Control']).toBe('no-store');
  });

  it('serves the same page for run and batch paths', async () => {
    const home = await handler(event('/dashboard'));
    const run = await handler(event(`/dashboard/runs/${RUN_ID}`));
    const batch = await handler(event(`/dashboard/batches/${BATCH_ID}`));

    expect(run.statusCode).toBe(200);
    expect(batch.statusCode).toBe(200);
    expect(run.body).toBe(home.body);
    expect(batch.body).toBe(home.body);
    expect(run.headers).toEqual(home.headers);
  });

  it('serves the same page with 200 for the batches list and campaign paths, with or without a trailing slash', async () => {
    const home = await handler(event('/dashboard'));
    const paths = [
      '/dashboard/',
      '/dashboard/batches',
      '/dashboard/batches/',
      `/dashboard/campaigns/${CAMPAIGN_ID}`,
      `/dashboard/campaigns/${CAMPAIGN_ID}/`,
    ];

    const answers = await Promise.all(paths.map((p) => handler(event(p))));

    expect(answers.map((r) => r.statusCode)).toEqual(paths.map(() => 200));
    for (const r of answers) expect(r.body).toBe(home.body);
  });

  it('serves the same page with 200 for the webhooks list and a webhook, with or without a trailing slash', async () => {
    const home = await handler(event('/dashboard'));
    const paths = ['/dashboard/webhooks', '/dashboard/webhooks/', `/dashboard/webhooks/${WEBHOOK_ID}`, `/dashboard/webhooks/${WEBHOOK_ID}/`];

    const answers = await Promise.all(paths.map((p) => handler(event(p))));

    expect(answers.map((r) => r.statusCode)).toEqual(paths.map(() => 200));
    for (const r of answers) expect(r.body).toBe(home.body);
  });

  it('answers an unknown dashboard path with 404 and the same page, which shows "not found"', async () => {
    const res = await handler(event('/dashboard/settings/keys'));

    expect(res.statusCode).toBe(404);
    expect(res.headers?.['Content-Type']).toBe('text/html; charset=utf-8');
    expect(res.body).toBe((await handler(event('/dashboard'))).body);
  });

  it.each([
    '/dashboard/campaigns',
    `/dashboard/campaigns/${CAMPAIGN_ID}/batches`,
    `/dashboard/batches/${BATCH_ID}/scenarios`,
    '/dashboard/runs',
    '/dashboard/batchesx',
    `/dashboard/traces/${RUN_ID}`,
    `/dashboard/webhooks/${WEBHOOK_ID}/deliveries`,
    `/dashboard/webhooks/${WEBHOOK_ID}/deliveries/${RUN_ID}`,
    '/dashboard/webhooksx',
    '/dashboard/webhook',
  ])('answers %s with 404', async (path) => {
    const res = await handler(event(path));

    expect(res.statusCode).toBe(404);
  });

  it('answers HEAD without a body and other methods with 405 method_not_allowed', async () => {
    const head = await handler(event('/dashboard', 'HEAD'));
    const post = await handler(event('/dashboard', 'POST'));

    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(post.statusCode).toBe(405);
    expect(post.headers?.Allow).toBe('GET, HEAD');
    expect(JSON.parse(post.body).error).toMatchObject({ code: 'method_not_allowed', request_id: 'req-1' });
  });

  it('allows exactly the inline script and style it serves', async () => {
    const { createHash } = await import('node:crypto');
    const res = await handler(event('/dashboard'));
    const hash = (s: string) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;
    const script = /<script>([\s\S]*?)<\/script>/.exec(res.body)?.[1] ?? '';
    const style = /<style>([\s\S]*?)<\/style>/.exec(res.body)?.[1] ?? '';

    expect(res.body.match(/<script/g)).toHaveLength(1);
    expect(String(res.headers?.['Content-Security-Policy'])).toContain(`script-src ${hash(script)}`);
    expect(String(res.headers?.['Content-Security-Policy'])).toContain(`style-src ${hash(style)}`);
  });
});

describe('dashboard handler bundled as for Lambda', () => {
  const entry = 'functions/dashboard/handler';
  let outdir: string;
  beforeAll(() => {
    outdir = mkdtempSync(path.join(tmpdir(), 'rts-dashboard-bundle-'));
  });
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('serves the page and CSP it serves from source, with the browser script inlined and no esbuild inside', async () => {
    // Prepare
    const dir = buildBundles([entry], outdir).get(entry)!;
    const bundle = path.join(dir, 'index.js');

    // Act: a fresh Node process with no loader hooks, like the Lambda runtime.
    const answer = execFileSync(
      process.execPath,
      [
        '-e',
        `require(${JSON.stringify(bundle)}).handler(${JSON.stringify(event('/dashboard'))}).then((r) => process.stdout.write(JSON.stringify(r)))`,
      ],
      { encoding: 'utf8' },
    );

    // Assess
    const bundled = JSON.parse(answer);
    const fromSource = await handler(event('/dashboard'));
    expect(bundled.statusCode).toBe(200);
    expect(bundled.body).toBe(fromSource.body);
    expect(bundled.headers).toEqual(fromSource.headers);
    const sources: string[] = JSON.parse(readFileSync(`${bundle}.map`, 'utf8')).sources;
    expect(sources.filter((s) => /esbuild|dashboard[\\/](browser|build-script)/.test(s))).toEqual([]);
  });
});

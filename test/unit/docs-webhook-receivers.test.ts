// The two webhook receivers of docs/webhooks.md that no other suite runs, as written (the two SDK receivers are the SDK
// README's, run by test/integration/sdk-package.test.ts): the check "without any library", evaluated against headers
// the delivery code makes, and the `standardwebhooks` receiver, as a process of its own on a free port instead of 8443.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deliveryHeaders, deliveryBody } from '../../functions/core/webhooks/signing';

const ROOT = join(__dirname, '..', '..');
const PAGE = readFileSync(join(ROOT, 'docs', 'webhooks.md'), 'utf8');
const jsBlocks = [...PAGE.matchAll(/^```js\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
const byHand = jsBlocks.find((b) => b.includes('const okContract'))!;
const withLibrary = jsBlocks.find((b) => b.includes("require('standardwebhooks')"))!;

const secret = () => `whsec_${randomBytes(32).toString('base64')}`;
const now = () => Math.floor(Date.now() / 1000);

/** A delivery as the delivery code makes it: its body and its headers, lowercased as node:http gives them. */
function delivery(secrets: string[], timestamp = now(), deliveryId = `dlv_${randomBytes(8).toString('hex')}`) {
  const body = deliveryBody({
    event_id: 'evt_1',
    event_type: 'run.completed',
    occurred_at: '2026-11-28T00:00:00.000000+00:00',
    project_id: 'p',
    data: { run_id: 'r' },
  } as never);
  const headers = deliveryHeaders({ eventType: 'run.completed', deliveryId, webhookId: 'wh_1', body, secrets, timestamp, userAgent: 'rts' });
  return { body, headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])) };
}

/** The page's check run on one request: its two results. */
function checkByHand(SECRET: string, raw: Buffer, headers: Record<string, string>): { okContract: boolean; okStandard: boolean } {
  const run = new Function('require', 'SECRET', 'raw', 'req', `${byHand}\nreturn { okContract, okStandard };`);
  return run(require, SECRET, raw, { headers });
}

describe('docs/webhooks.md: the check without any library', () => {
  it('accepts a delivery on both signatures, a rotated pair of signatures too', () => {
    const key = secret();
    const { body, headers } = delivery([key]);
    expect(checkByHand(key, Buffer.from(body), headers)).toEqual({ okContract: true, okStandard: true });
    const rotated = delivery([key, secret()]);
    expect(checkByHand(key, Buffer.from(rotated.body), rotated.headers)).toEqual({ okContract: true, okStandard: true });
  });

  it('refuses a changed body, another secret, and (webhook-signature) a timestamp over 5 minutes away', () => {
    const key = secret();
    const { body, headers } = delivery([key]);
    expect(checkByHand(key, Buffer.from(body.replace('run.completed', 'run.created')), headers)).toEqual({ okContract: false, okStandard: false });
    expect(checkByHand(secret(), Buffer.from(body), headers)).toEqual({ okContract: false, okStandard: false });
    const stale = delivery([key], now() - 301);
    expect(checkByHand(key, Buffer.from(stale.body), stale.headers)).toEqual({ okContract: true, okStandard: false });
  });
});

describe('docs/webhooks.md: the receiver with the standardwebhooks package', () => {
  let child: ChildProcess;
  let url: string;
  let out = '';
  const key = secret();

  beforeAll(async () => {
    expect(withLibrary).toContain('.listen(8443);');
    const script = withLibrary.replace('.listen(8443);', ".listen(0, '127.0.0.1', function () { console.log('port', this.address().port); });");
    child = spawn(process.execPath, ['-e', script], {
      cwd: ROOT,
      env: { ...process.env, RTS_WEBHOOK_SECRET: key },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    url = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /^port (\d+)$/m.exec(out);
        if (m) resolve(`http://127.0.0.1:${m[1]}/`);
      });
      child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
      child.once('exit', (code) => reject(new Error(`the receiver exited ${code}:\n${out}`)));
    });
  }, 30_000);
  afterAll(() => child?.kill('SIGTERM'));

  const post = async (d: { body: string; headers: Record<string, string> }) =>
    (await fetch(url, { method: 'POST', headers: d.headers, body: d.body })).status;

  it('acknowledges a delivery with 204 and handles a webhook-id once, however often it arrives', async () => {
    const first = delivery([key]);
    expect([await post(first), await post(first)]).toEqual([204, 204]);
    await new Promise((r) => setTimeout(r, 100));
    expect(out.match(/^run\.completed /gm)).toHaveLength(1);
  });

  it('answers 401 to a forged signature and to a stale timestamp', async () => {
    const forged = delivery([secret()]);
    const stale = delivery([key], now() - 600);
    expect([await post(forged), await post(stale)]).toEqual([401, 401]);
  });
});

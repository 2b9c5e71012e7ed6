// The guarded sender against real loopback HTTPS receivers: SSRF refusals, no redirects, whole-exchange timeout,
// connection errors worded as last_error shows them (docs/webhooks.md#delivery-policy-retries-and-last_error), capped
// bodies, keep-alive pools separated by guard setting.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGuardedSender, MAX_RESPONSE_BYTES } from '../../../../functions/adapters/http/guarded-sender';
import { OutboundError, type OutboundRequest } from '../../../../functions/core/ports';
import { refusedUrl, startHttpsReceiver, testCertificates, type HttpsReceiver } from '../../../helpers/https-receiver';

const post = (url: string, timeoutMs = 5000): OutboundRequest => ({
  url,
  method: 'POST',
  headers: { 'Content-Type': 'application/json', 'X-Test': 'yes' },
  body: '{"héllo":"wörld"}',
  timeoutMs,
});

async function rejection(p: Promise<unknown>): Promise<OutboundError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof OutboundError) return err;
    throw err;
  }
  throw new Error('expected an OutboundError');
}

let receiver: HttpsReceiver;
const { ca } = testCertificates();
const open = createGuardedSender({ allowPrivate: true, ca });
const guarded = createGuardedSender({ allowPrivate: false, ca });

beforeEach(async () => {
  receiver = await startHttpsReceiver();
});
afterEach(async () => {
  await receiver.close();
});

describe('guarded sender, private targets allowed', () => {
  it('POSTs the body bytes and headers and returns status, headers and body', async () => {
    const res = await open(post(receiver.url));

    expect(res.status).toBe(200);
    expect(res.body).toBe('{"received":true}');
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.durationMs).toBeGreaterThanOrEqual(0);
    const [got] = receiver.requests;
    expect(got.rawBody.toString('utf8')).toBe('{"héllo":"wörld"}');
    expect(got.headers['x-test']).toBe('yes');
    expect(got.headers['content-length']).toBe(String(Buffer.byteLength('{"héllo":"wörld"}')));
  });

  it('returns a 302 as it is, without following it', async () => {
    receiver.mode = 'redirect';

    const res = await open(post(receiver.url));

    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('https://example.com/elsewhere');
    expect(receiver.requests).toHaveLength(1);
  });

  it('rejects with "timeout after <n> ms" when no answer arrives in time', async () => {
    receiver.mode = 'hang';
    const started = Date.now();

    const err = await rejection(open(post(receiver.url, 300)));

    expect(err).toMatchObject({ kind: 'timeout', message: 'timeout after 300 ms' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('rejects with "connection error: ECONNREFUSED" when nothing listens', async () => {
    expect(await rejection(open(post(await refusedUrl())))).toMatchObject({ kind: 'connection', message: 'connection error: ECONNREFUSED' });
  });

  it('rejects with "connection error: ECONNRESET" when the receiver drops the connection', async () => {
    receiver.mode = 'close';

    expect(await rejection(open(post(receiver.url)))).toMatchObject({ kind: 'connection', message: 'connection error: ECONNRESET' });
  });

  it('refuses an untrusted certificate as a connection error', async () => {
    const err = await rejection(createGuardedSender({ allowPrivate: true })(post(receiver.url)));

    expect(err.kind).toBe('connection');
    expect(err.message).toMatch(/^connection error: [A-Z_]+$/);
  });

  it('rejects a header value Node refuses at once, naming its code, without waiting for the timeout', async () => {
    const started = Date.now();

    const err = await rejection(open({ ...post(receiver.url, 5000), headers: { 'X-Bad': 'line\r\nbreak' } }));

    expect(err).toMatchObject({ kind: 'connection', message: 'connection error: ERR_INVALID_CHAR' });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(receiver.requests).toHaveLength(0);
  });

  it('stops reading a response body at 1 MiB', async () => {
    receiver.mode = 'huge';

    const res = await open(post(receiver.url));

    expect(res.status).toBe(200);
    expect(Buffer.byteLength(res.body)).toBe(MAX_RESPONSE_BYTES);
  });

  it('reuses kept-alive connections', async () => {
    await open(post(receiver.url));
    await open(post(receiver.url));

    const [a, b] = receiver.requests;
    expect(b.remotePort).toBe(a.remotePort);
  });

  it('reaches a host name that resolves to loopback', async () => {
    const res = await open(post(receiver.url.replace('127.0.0.1', 'localhost')));

    expect(res.status).toBe(200);
  });
});

describe('guarded sender, private targets refused', () => {
  it.each([
    ['the loopback literal', (port: number) => `https://127.0.0.1:${port}/hooks`, 'blocked: 127.0.0.1 is a loopback address'],
    [
      'the IPv4-mapped literal',
      (port: number) => `https://[::ffff:127.0.0.1]:${port}/hooks`,
      'blocked: ::ffff:7f00:1 is the IPv4-mapped form of 127.0.0.1, a loopback address',
    ],
    ['the decimal spelling of 127.0.0.1', (port: number) => `https://2130706433:${port}/hooks`, 'blocked: 127.0.0.1 is a loopback address'],
    ['the IPv6 loopback', (port: number) => `https://[::1]:${port}/hooks`, 'blocked: ::1 is a loopback address'],
    ['the cloud metadata address', () => 'https://169.254.169.254/latest/meta-data/', 'blocked: 169.254.169.254 is a link-local address'],
    ['a private network address', () => 'https://10.1.2.3/hook', 'blocked: 10.1.2.3 is a private address'],
  ])('refuses %s before connecting', async (_case, url, message) => {
    const err = await rejection(guarded(post(url(receiver.port))));

    expect(err).toMatchObject({ kind: 'blocked', message });
    expect(receiver.requests).toHaveLength(0);
  });

  it('refuses a host name by the address it resolves to, at connect time', async () => {
    const err = await rejection(guarded(post(receiver.url.replace('127.0.0.1', 'localhost'))));

    expect(err.kind).toBe('blocked');
    expect(err.message).toMatch(/^blocked: localhost resolves to (127\.0\.0\.1|::1), a loopback address$/);
    expect(receiver.requests).toHaveLength(0);
  });

  it('does not reuse a connection pooled by an unguarded sender (pooled sockets skip the lookup)', async () => {
    // Prepare: plain HTTP, so both senders use the process-wide pools, and a socket to localhost is left pooled
    let hits = 0;
    const plain = createServer((_req, res) => {
      hits++;
      res.end('ok');
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const url = `http://localhost:${(plain.address() as AddressInfo).port}/`;
    try {
      expect((await createGuardedSender({ allowPrivate: true })(post(url))).status).toBe(200);

      // Act
      const err = await rejection(createGuardedSender({ allowPrivate: false })(post(url)));

      // Assess
      expect(err.kind).toBe('blocked');
      expect(hits).toBe(1);
    } finally {
      plain.closeAllConnections();
      await new Promise<void>((resolve) => plain.close(() => resolve()));
    }
  });

  it('refuses schemes other than http and https, and unparseable URLs', async () => {
    expect(await rejection(guarded(post('file:///etc/passwd')))).toMatchObject({ kind: 'blocked', message: 'blocked: unsupported scheme file:' });
    expect(await rejection(guarded(post('not a url')))).toMatchObject({ kind: 'blocked', message: 'blocked: not a valid absolute URL' });
  });
});

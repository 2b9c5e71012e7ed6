// The local gateway reads requests as API Gateway does: header names in any case, the first of a repeated name's
// spellings, trailing slashes, queries, and paths as the URL parser reads them (dot segments resolved, escapes kept);
// credentials are checked on the headers, before the body is read.
import { request } from 'node:http';
import { startTestService, type TestService } from '../helpers/local-service';

/** A raw request with header names exactly as given (fetch would lowercase them), in the order given, after Host. */
function send(svc: TestService, path: string, rawHeaders: [string, string][]): Promise<{ status: number; body: any }> {
  const url = new URL(svc.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method: 'GET', headers: [['Host', url.host], ...rawHeaders].flat() }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('local gateway requests', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ deliverWebhooks: false });
    await svc.api('POST', '/v1/campaigns', { name: 'listed', target: { type: 'recorded' } });
  });
  afterAll(() => svc.stop());

  it('accepts the credentials under any case of their header names', async () => {
    // Act
    const res = await send(svc, '/v1/campaigns', [
      ['X-API-KEY', svc.apiKey],
      ['x-Project-Id', svc.projectId],
    ]);
    // Assess
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(1);
  });

  it("reads the first spelling of a header sent under two, as API Gateway's single-value map does", async () => {
    // Act
    const firstWrong = await send(svc, '/v1/campaigns', [
      ['x-api-key', 'rts_wrong'],
      ['X-API-Key', svc.apiKey],
      ['X-Project-Id', svc.projectId],
    ]);
    const firstRight = await send(svc, '/v1/campaigns', [
      ['X-API-Key', svc.apiKey],
      ['x-api-key', 'rts_wrong'],
      ['X-Project-Id', svc.projectId],
    ]);
    // Assess
    expect(firstWrong.status).toBe(401);
    expect(firstRight.status).toBe(200);
  });

  it('answers 401 without an API key, before any route work', async () => {
    // Act
    const res = await send(svc, '/v1/campaigns', [['X-Project-Id', svc.projectId]]);
    // Assess
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');
  });

  it('answers 401 to an upload without credentials before its body is sent, and closes the connection', async () => {
    // Prepare: a 5 MiB trace upload of which only the first 64 KiB are sent; the rest is held back
    const url = new URL(svc.url);
    const declared = 5 * 1024 * 1024;
    const req = request({
      host: url.hostname,
      port: url.port,
      path: '/v1/traces',
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(declared), 'X-Project-Id': svc.projectId },
    });
    req.on('error', () => undefined); // the gateway may close before the client stops writing
    // Act
    const answer = new Promise<{ status: number; connection?: string; body: any }>((resolve) =>
      req.once('response', (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: JSON.parse(text) }));
      }),
    );
    req.write(Buffer.alloc(64 * 1024, 0x20));
    let timer: NodeJS.Timeout | undefined;
    const res = await Promise.race([answer, new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), 5000)))]);
    clearTimeout(timer);
    req.destroy();
    // Assess: the answer came while most of the body was still unsent
    expect(res).toMatchObject({ status: 401, connection: 'close', body: { error: { code: 'unauthorized' } } });
  });

  it('still refuses a declared body past the limit with 413 before reading it', async () => {
    // Act
    const res = await svc.raw('POST', '/v1/campaigns', {
      headers: { ...svc.authHeaders, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(300 * 1024), target: { type: 'recorded' } }),
    });
    // Assess
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('payload_too_large');
  });

  it.each([
    ['a trailing slash', '/v1/campaigns/'],
    ['a query', '/v1/campaigns?limit=1'],
    ['a dot segment', '/v1/traces/../campaigns'],
  ])('routes a path with %s as the URL parser reads it', async (_what, path) => {
    // Act
    const res = await send(svc, path, [
      ['X-API-Key', svc.apiKey],
      ['X-Project-Id', svc.projectId],
    ]);
    // Assess
    expect(res).toMatchObject({ status: 200, body: { items: [expect.objectContaining({ name: 'listed' })] } });
  });

  it('leaves percent escapes in the path as the URL parser does (no route matches an escaped name)', async () => {
    // Act
    const res = await send(svc, '/v1/c%61mpaigns', [
      ['X-API-Key', svc.apiKey],
      ['X-Project-Id', svc.projectId],
    ]);
    // Assess
    expect(res).toMatchObject({ status: 404, body: { error: { code: 'route_not_found' } } });
  });
});

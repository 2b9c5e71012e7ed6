// The local gateway reads requests as API Gateway does: header names in any case, the first of a repeated name's
// spellings, trailing slashes, queries, and paths as the URL parser reads them (dot segments resolved, escapes kept).
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

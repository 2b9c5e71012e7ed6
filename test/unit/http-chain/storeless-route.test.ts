// storelessRoute(): the chain without deps, for the routes that read nothing of the service's state (GET /health, the
// OpenAPI document). It must answer as route() does (headers, auth, path ids, errors) and never reach the store.
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { storelessRoute } from '../../../functions/http-chain/chain';
import { NotFoundError } from '../../../functions/core/errors';
import { handler as getHealth } from '../../../functions/http/get-health';
import { handler as getOpenApi } from '../../../functions/http/get-openapi';
import { resetAwsClients } from '../../../functions/adapters/aws';

const PROJECT = '0b9f7a52-8c1e-4d2f-9a3b-5c6d7e8f9a0b';
const ctx = { awsRequestId: 'aws-req' } as Context;
const ddb = mockClient(DynamoDBDocumentClient);

function event(method: string, path: string, params: Record<string, string> = {}, authorizer: unknown = null): APIGatewayProxyEvent {
  return {
    httpMethod: method,
    path,
    resource: path,
    headers: { Host: '127.0.0.1:8787', 'Idempotency-Key': 'k-1' },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: params,
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: { requestId: 'req-1', stage: 'local', authorizer } as unknown as APIGatewayProxyEvent['requestContext'],
  };
}
const errorOf = (res: { body: string }) => (JSON.parse(res.body) as { error: { code: string; message: string; request_id: string } }).error;

beforeAll(() => {
  process.env.TABLE_NAME = 'rts-test';
  delete process.env.DYNAMODB_ENDPOINT;
  process.env.AWS_REGION = 'us-east-1';
  resetAwsClients();
});
beforeEach(() => ddb.reset());
afterAll(() => {
  ddb.restore();
  resetAwsClients();
});

describe('storelessRoute()', () => {
  it('serves GET /health and the OpenAPI document without one store call', async () => {
    const health = await getHealth(event('GET', '/health'), ctx);
    const doc = await getOpenApi(event('GET', '/v1/openapi.json'), ctx);

    expect({ status: health.statusCode, body: JSON.parse(health.body) }).toEqual({ status: 200, body: { status: 'ok' } });
    expect(doc.statusCode).toBe(200);
    expect(JSON.parse(doc.body)).toMatchObject({ openapi: expect.stringMatching(/^3\.1/), servers: [{ url: 'http://127.0.0.1:8787' }] });
    expect(ddb.calls()).toHaveLength(0);
  });

  it('maps what the route function throws as route() does: an AppError to its body, anything else to 500 internal_error', async () => {
    const missing = storelessRoute({ method: 'GET', path: '/x', auth: false }, async () => {
      throw new NotFoundError('Thing');
    });
    const broken = storelessRoute({ method: 'GET', path: '/y', auth: false }, async () => {
      throw new Error('boom');
    });

    const a = await missing(event('GET', '/x'), ctx);
    const b = await broken(event('GET', '/y'), ctx);

    expect([a.statusCode, errorOf(a).code, errorOf(a).request_id]).toEqual([404, 'not_found', 'req-1']);
    expect([b.statusCode, errorOf(b).code]).toEqual([500, 'internal_error']);
    expect(errorOf(b).message).not.toContain('boom');
  });

  it('checks the auth context and the UUID path ids from the row, before the route function runs', async () => {
    let ran = 0;
    const read = storelessRoute({ method: 'GET', path: '/things/{thing_id}', auth: true }, async ({ projectId, params }) => {
      ran += 1;
      return { status: 200, body: { projectId, id: params.thing_id } };
    });
    const id = '1C2D3E4F-5A6B-4C7D-8E9F-0A1B2C3D4E5F';

    const anonymous = await read(event('GET', '/things/x', { thing_id: id }), ctx);
    const badId = await read(event('GET', '/things/x', { thing_id: 'nope' }, { projectId: PROJECT }), ctx);
    const ok = await read(event('GET', '/things/x', { thing_id: id }, { projectId: PROJECT }), ctx);

    expect([anonymous.statusCode, errorOf(anonymous).code]).toEqual([401, 'unauthorized']);
    expect([badId.statusCode, errorOf(badId).code]).toEqual([404, 'not_found']);
    expect(JSON.parse(ok.body)).toEqual({ projectId: PROJECT, id: id.toLowerCase() });
    expect(ran).toBe(1);
  });

  it('refuses to build a route that takes an Idempotency-Key: that needs the store, route() serves it', () => {
    expect(() => storelessRoute({ method: 'POST', path: '/things', auth: true }, async () => ({ status: 201, body: {} }))).toThrow(
      /Idempotency-Key.*route\(\)/,
    );
  });
});

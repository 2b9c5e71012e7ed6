// The shared HTTP chain's failure branches with aws-sdk-client-mock: throttling, unexpected errors, conditional failures.
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { handler as getTrace } from '../../../functions/http/get-trace';
import { handler as getRun } from '../../../functions/http/get-run';
import { handler as postCampaigns } from '../../../functions/http/post-campaigns';
import { configureDeps, resetDeps } from '../../../functions/wiring/deps';
import { resetAwsClients } from '../../../functions/adapters/aws';

const PROJECT = '0b9f7a52-8c1e-4d2f-9a3b-5c6d7e8f9a0b';
const ID = '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const ddb = mockClient(DynamoDBDocumentClient);

function event(method: string, path: string, params: Record<string, string>, body?: unknown): APIGatewayProxyEvent {
  return {
    httpMethod: method,
    path,
    resource: path,
    headers: body ? { 'Content-Type': 'application/json' } : {},
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: params,
    stageVariables: null,
    body: body === undefined ? null : JSON.stringify(body),
    isBase64Encoded: false,
    requestContext: { requestId: 'req-123', authorizer: { projectId: PROJECT } } as unknown as APIGatewayProxyEvent['requestContext'],
  };
}
const ctx = { awsRequestId: 'aws-req' } as Context;

beforeAll(() => {
  process.env.TABLE_NAME = 'rts-test';
  delete process.env.DYNAMODB_ENDPOINT;
  process.env.AWS_REGION = 'us-east-1';
  resetAwsClients();
});
beforeEach(() => {
  ddb.reset();
  resetDeps();
  configureDeps({ events: { publish: async () => undefined } });
});
afterAll(() => resetDeps());

describe('error mapping of the HTTP chain', () => {
  it('turns DynamoDB throttling that outlived the SDK retries into 429 rate_limited with Retry-After', async () => {
    const err = Object.assign(new Error('Rate exceeded'), { name: 'ProvisionedThroughputExceededException', $metadata: {} });
    ddb.on(GetCommand).rejects(err);
    ddb.on(QueryCommand).rejects(err);
    const res = await getRun(event('GET', `/v1/runs/${ID}`, { run_id: ID }), ctx);
    expect(res.statusCode).toBe(429);
    expect(res.headers?.['Retry-After']).toBe('1');
    expect(JSON.parse(res.body).error).toMatchObject({ code: 'rate_limited', request_id: 'req-123' });
  });

  it('turns an unexpected store failure into 500 internal_error with the request id and no internals', async () => {
    ddb.on(QueryCommand).rejects(new Error('socket hang up at /var/task/index.js:1:2'));
    const res = await getTrace(event('GET', `/v1/traces/${ID}`, { trace_id: ID }), ctx);
    expect(res.statusCode).toBe(500);
    const body = JSON.parse(res.body);
    expect(body).toEqual({ error: { code: 'internal_error', message: 'An unexpected error occurred.', request_id: 'req-123' } });
    expect(res.body).not.toContain('socket');
  });

  it('maps a missing item to 404 not_found', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });
    const res = await getTrace(event('GET', `/v1/traces/${ID}`, { trace_id: ID }), ctx);
    expect(res.statusCode).toBe(404);
    expect(JSON.parse(res.body).error.code).toBe('not_found');
  });

  it('answers 401 when the authorizer context is missing, before touching the store', async () => {
    const e = event('GET', `/v1/traces/${ID}`, { trace_id: ID });
    (e.requestContext as any).authorizer = null;
    const res = await getTrace(e, ctx);
    expect(res.statusCode).toBe(401);
    expect(ddb.calls()).toHaveLength(0);
  });

  it('surfaces a conditional-write collision on create as 500 (ids are random UUIDs: a collision is a bug, not a client error)', async () => {
    ddb
      .on(PutCommand)
      .rejects(Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException', $metadata: {} }));
    const res = await postCampaigns(event('POST', '/v1/campaigns', {}, { name: 'x', target: { type: 'recorded' } }), ctx);
    expect(res.statusCode).toBe(500);
  });

  it('rejects a body nested deeper than DynamoDB can store with 422 before any write', async () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 40; i++) deep = { a: deep };
    const res = await postCampaigns(event('POST', '/v1/campaigns', {}, { name: 'x', target: { type: 'recorded' }, extra: deep }), ctx);
    expect(res.statusCode).toBe(422);
    expect(ddb.calls()).toHaveLength(0);
  });
});

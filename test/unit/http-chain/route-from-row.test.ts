// route() reads everything about a route from its row: the UUID path ids from the `{*_id}` segments, the limits, the
// optional body, and the queue and bus its code may use (the local runtime's are configured process-wide, as here).
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { GET_RUN } from '../../../lib/routes';
import { configureDeps, resetDeps } from '../../../functions/wiring/deps';
import { route } from '../../../functions/http-chain/route';
import type { ChainRow } from '../../../functions/http-chain/chain';
import * as z from '../../../functions/core/openapi/zod-mini';

const PROJECT = '0b9f7a52-8c1e-4d2f-9a3b-5c6d7e8f9a0b';
const ID = '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const ctx = { awsRequestId: 'aws-req' } as Context;

function event(method: string, params: Record<string, string>, body?: string): APIGatewayProxyEvent {
  return {
    httpMethod: method,
    path: '/',
    resource: '/',
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: params,
    stageVariables: null,
    body: body ?? null,
    isBase64Encoded: false,
    requestContext: { requestId: 'req-1', authorizer: { projectId: PROJECT } } as unknown as APIGatewayProxyEvent['requestContext'],
  };
}

const errorOf = (res: { body: string }) => (JSON.parse(res.body) as { error: { code: string; message: string } }).error;

/** A queue and a bus that record what is sent, standing where the local runtime puts its in-process ones. */
const sent: string[] = [];
beforeEach(() => {
  sent.length = 0;
  resetDeps();
  configureDeps({
    queue: { sendReplay: async () => void sent.push('queue') },
    events: { publish: async () => void sent.push('bus') },
  });
});
afterAll(() => resetDeps());

describe('route(): path ids from the row', () => {
  const row: ChainRow = { method: 'GET', path: '/v1/things/{thing_id}/webhooks/{webhook_id}/attempts/{attempt}', auth: true };
  const echo = route(row, async ({ params }) => ({ status: 200, body: params }));

  it('answers 404 not_found naming the resource when a {*_id} segment is not a UUID, before the route function runs', async () => {
    const res = await echo(event('GET', { thing_id: 'not-a-uuid', webhook_id: 'wh_x', attempt: '1' }), ctx);

    expect(res.statusCode).toBe(404);
    expect(errorOf(res)).toMatchObject({ code: 'not_found', message: 'Thing not found.' });
  });

  it('leaves a webhook id and an attempt number to their services', async () => {
    const res = await echo(event('GET', { thing_id: ID, webhook_id: 'not-a-webhook-id', attempt: 'x' }), ctx);

    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ thing_id: ID, webhook_id: 'not-a-webhook-id', attempt: 'x' });
  });

  it('checks the run id of GET /v1/runs/{run_id} from the table row alone', async () => {
    const handler = route(GET_RUN, async () => ({ status: 200 }));

    const res = await handler(event('GET', { run_id: 'RUN' }), ctx);

    expect(res.statusCode).toBe(404);
    expect(errorOf(res)).toMatchObject({ code: 'not_found', message: 'Run not found.' });
  });
});

describe('route(): limits and body from the row', () => {
  const accept = (row: ChainRow) => route(row, { body: z.record(z.string(), z.unknown()) }, async ({ body }) => ({ status: 200, body }));

  it("refuses a body past the row's maxBodyBytes with 413, and takes one at the limit", async () => {
    const handler = accept({ method: 'POST', path: '/v1/things', auth: true, maxBodyBytes: 20 });
    const at = JSON.stringify({ a: 'x'.repeat(12) });

    const fits = await handler(event('POST', {}, at), ctx);
    const over = await handler(event('POST', {}, JSON.stringify({ a: 'x'.repeat(13) })), ctx);

    expect(at).toHaveLength(20);
    expect(fits.statusCode).toBe(200);
    expect(over.statusCode).toBe(413);
    expect(errorOf(over).code).toBe('payload_too_large');
  });

  it("refuses a body nested past the row's maxDepth with 422", async () => {
    const handler = accept({ method: 'POST', path: '/v1/things', auth: true, maxDepth: 2 });

    const res = await handler(event('POST', {}, JSON.stringify({ a: { b: { c: 1 } } })), ctx);

    expect(res.statusCode).toBe(422);
    expect(errorOf(res).message).toBe('The request body nests deeper than 2 levels.');
  });

  it('takes a missing body as {} only when the row says the body is optional', async () => {
    const optional = await accept({ method: 'POST', path: '/v1/things', auth: true, optionalBody: true })(event('POST', {}), ctx);
    const required = await accept({ method: 'POST', path: '/v1/things', auth: true })(event('POST', {}), ctx);

    expect({ status: optional.statusCode, body: JSON.parse(optional.body) }).toEqual({ status: 200, body: {} });
    expect(required.statusCode).toBe(400);
  });

  it('needs no credentials when the row is public', async () => {
    const health = route({ method: 'GET', path: '/health', auth: false }, async ({ projectId }) => ({ status: 200, body: { projectId } }));
    const anonymous = event('GET', {});
    (anonymous.requestContext as { authorizer: unknown }).authorizer = null;

    const res = await health(anonymous, ctx);

    expect({ status: res.statusCode, body: JSON.parse(res.body) }).toEqual({ status: 200, body: { projectId: '' } });
  });
});

describe('route(): the queue and the bus from the row', () => {
  /** A route that sends one replay message and publishes one event, reporting what failed. */
  const sending = (row: ChainRow) =>
    route(row, async ({ deps }) => {
      const tried = async (what: () => Promise<unknown>) =>
        what().then(
          () => 'sent',
          (err: Error) => err.message,
        );
      return {
        status: 200,
        body: {
          queue: await tried(() => deps.queue.sendReplay([{ project_id: PROJECT, run_id: ID }])),
          bus: await tried(() => deps.events.publish([])),
        },
      };
    });

  it('gives a route whose row has no queue or bus flag neither, though the process has both', async () => {
    const res = await sending({ method: 'POST', path: '/v1/things', auth: true })(event('POST', {}), ctx);

    expect(JSON.parse(res.body)).toEqual({
      queue: "this function has no queue wired (its row's queue flag, or wiring/with-queue)",
      bus: "this function has no bus wired (its row's bus flag, or wiring/with-bus)",
    });
    expect(sent).toEqual([]);
  });

  it('gives a route the queue and the bus its row names', async () => {
    const res = await sending({ method: 'POST', path: '/v1/things', auth: true, queue: true, bus: true })(event('POST', {}), ctx);

    expect(JSON.parse(res.body)).toEqual({ queue: 'sent', bus: 'sent' });
    expect(sent).toEqual(['queue', 'bus']);
  });

  it('gives a route with only the bus flag the bus alone', async () => {
    const res = await sending({ method: 'POST', path: '/v1/things', auth: true, bus: true })(event('POST', {}), ctx);

    expect(JSON.parse(res.body)).toMatchObject({ queue: expect.stringContaining('no queue wired'), bus: 'sent' });
  });
});

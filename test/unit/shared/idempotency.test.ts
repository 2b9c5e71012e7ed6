// The Idempotency-Key step of the HTTP chain, on route() handlers of its own over dynalite: what a key is bound to
// (project, method, concrete path, query string, body), that a reuse for another request is a 409 and never a replay,
// that replay records keep no secret, and that records of the earlier fingerprint format are never replayed.
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { keys } from '../../../functions/adapters/dynamodb/keys';
import { getItem } from '../../../functions/adapters/dynamodb/table';
import { canonicalJson, sha256Hex } from '../../../functions/core/json';
import * as z from '../../../functions/core/zod-mini';
import { getDeps, resetDeps } from '../../../functions/shared/deps';
import { route } from '../../../functions/shared/http';
import { routeName } from '../../../functions/core/route-row';
import { FINGERPRINT_PREFIX, requestFingerprint, type IdempotentRequest } from '../../../functions/shared/idempotency';
import { startDynalite, type TestTable } from '../../helpers/dynalite';

/** The row of the route most tests act on; its name scopes the idempotency records. */
const ACT_ROW = { method: 'POST', path: '/v1/things/{thing_id}/act', auth: true } as const;
const ACT = routeName(ACT_ROW);
const ctx = { awsRequestId: 'aws-req' } as Context;

let table: TestTable;
/** How many times each route function ran, by thing id or created name. */
let ran: Record<string, number>;

beforeAll(async () => {
  table = await startDynalite();
  resetDeps();
});
afterAll(async () => {
  resetDeps();
  await table.close();
});
beforeEach(() => {
  ran = {};
});

const count = (what: string) => {
  ran[what] = (ran[what] ?? 0) + 1;
  return ran[what];
};

/** POST /v1/things/{thing_id}/act: acts on one thing, answering which one and a fresh value. */
const act = route(ACT_ROW, async ({ params }) => ({
  status: 200,
  body: { thing_id: params.thing_id, run: count(params.thing_id), token: randomUUID() },
}));

/** POST /v1/things: creates a thing whose answer shows its secret once. */
const create = route(
  { method: 'POST', path: '/v1/things', auth: true, secretFields: ['secret'] },
  { body: z.record(z.string(), z.unknown()) },
  async ({ body }) => ({
    status: 201,
    body: { thing_id: randomUUID(), name: body.name, run: count(String(body.name)), secret: `whsec_${randomUUID()}` },
  }),
);

interface Call {
  project: string;
  key: string;
  path: string;
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

function event(c: Call): APIGatewayProxyEvent {
  return {
    httpMethod: 'POST',
    path: c.path,
    resource: c.path,
    headers: { 'Content-Type': 'application/json', 'Idempotency-Key': c.key },
    multiValueHeaders: {},
    queryStringParameters: c.query ?? null,
    multiValueQueryStringParameters: null,
    pathParameters: c.params ?? null,
    stageVariables: null,
    body: c.body === undefined ? null : JSON.stringify(c.body),
    isBase64Encoded: false,
    requestContext: { requestId: randomUUID(), authorizer: { projectId: c.project } } as unknown as APIGatewayProxyEvent['requestContext'],
  };
}

async function send(handler: typeof act, c: Call) {
  const res = await handler(event(c), ctx);
  return { status: res.statusCode, replayed: res.headers?.['Idempotent-Replayed'] === 'true', body: res.body ? JSON.parse(res.body) : undefined };
}

const actOn = (project: string, key: string, thing: string, query?: Record<string, string>) =>
  send(act, { project, key, path: `/v1/things/${thing}/act`, params: { thing_id: thing }, query });

describe('requestFingerprint', () => {
  const base: IdempotentRequest = {
    projectId: randomUUID(),
    method: 'POST',
    route: ACT,
    params: { thing_id: 'a' },
    query: {},
    body: { b: 1, a: [1, { y: 2, x: 1 }] },
  };

  it('is the same for the same request, whatever the order of the keys of its body', () => {
    expect(requestFingerprint({ ...base, body: { a: [1, { x: 1, y: 2 }], b: 1 } })).toBe(requestFingerprint(base));
    expect(requestFingerprint(base).startsWith(FINGERPRINT_PREFIX)).toBe(true);
  });

  it('differs when the project, the method, the route, a path parameter, the query string or the body differs', () => {
    const variants: Partial<IdempotentRequest>[] = [
      { projectId: randomUUID() },
      { method: 'PATCH' },
      { route: 'POST /v1/things/{thing_id}/other' },
      { params: { thing_id: 'b' } },
      { params: { thing_id: 'a', other: 'x' } },
      { query: { force: 'true' } },
      { body: { b: 2, a: [1, { y: 2, x: 1 }] } },
      { body: null },
    ];
    const prints = variants.map((v) => requestFingerprint({ ...base, ...v }));
    expect(new Set([requestFingerprint(base), ...prints]).size).toBe(variants.length + 1);
  });
});

describe('Idempotency-Key in the HTTP chain', () => {
  it('replays the first answer for the same key on the same path', async () => {
    const [project, key, thing] = [randomUUID(), randomUUID(), randomUUID()];
    const first = await actOn(project, key, thing);
    const again = await actOn(project, key, thing);
    expect(first).toMatchObject({ status: 200, replayed: false });
    expect(again).toEqual({ ...first, replayed: true });
    expect(ran[thing]).toBe(1);
  });

  it('never replays the answer for thing A to the same key on thing B: 409 naming a different request, B untouched', async () => {
    // Prepare
    const [project, key, a, b] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const first = await actOn(project, key, a);
    // Act
    const other = await actOn(project, key, b);
    // Assess
    expect(first.body.thing_id).toBe(a);
    expect(other.status).toBe(409);
    expect(other.replayed).toBe(false);
    expect(other.body.error.code).toBe('idempotency_conflict');
    expect(other.body.error.message).toMatch(/different request \(method, path, query string or body\)/);
    expect(JSON.stringify(other.body)).not.toContain(first.body.token);
    expect(ran[b]).toBeUndefined();
    // The key still answers for A.
    expect((await actOn(project, key, a)).body).toEqual(first.body);
  });

  it('answers the same key with another query string on the same path with 409, not a replay', async () => {
    const [project, key, thing] = [randomUUID(), randomUUID(), randomUUID()];
    await actOn(project, key, thing);
    const other = await actOn(project, key, thing, { force: 'true' });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('idempotency_conflict');
    expect(ran[thing]).toBe(1);
  });

  it('tells apart the bodies sent to a route without a body schema (it ignores them, the key does not)', async () => {
    const [project, key, thing] = [randomUUID(), randomUUID(), randomUUID()];
    const call = { project, key, path: `/v1/things/${thing}/act`, params: { thing_id: thing } };
    const first = await send(act, { ...call, body: { note: 'one' } });
    expect((await send(act, { ...call, body: { note: 'one' } })).replayed).toBe(true);
    const other = await send(act, { ...call, body: { note: 'two' } });
    expect(first.status).toBe(200);
    expect(other.status).toBe(409);
    expect(ran[thing]).toBe(1);
  });

  it('keeps keys per project: the same key on the same path in two projects runs twice', async () => {
    const [key, thing] = [randomUUID(), randomUUID()];
    const one = await actOn(randomUUID(), key, thing);
    const two = await actOn(randomUUID(), key, thing);
    expect([one.status, two.status, one.replayed, two.replayed]).toEqual([200, 200, false, false]);
    expect(two.body.token).not.toBe(one.body.token);
    expect(ran[thing]).toBe(2);
  });

  it('keeps no secret in the replay record: a replay answers secret null with secret_withheld, the rest unchanged', async () => {
    // Prepare
    const [project, key] = [randomUUID(), randomUUID()];
    const name = `n-${randomUUID()}`;
    const call = { project, key, path: '/v1/things', body: { name } };
    // Act
    const first = await send(create, call);
    const again = await send(create, call);
    // Assess
    expect(first).toMatchObject({ status: 201, replayed: false, body: { name, secret: expect.stringMatching(/^whsec_/) } });
    expect(first.body).not.toHaveProperty('secret_withheld');
    expect(again).toEqual({ status: 201, replayed: true, body: { ...first.body, secret: null, secret_withheld: true } });
    const stored = await getItem(keys.idempotency(project, sha256Hex(key)), true);
    expect(stored?.status).toBe('done');
    expect(JSON.stringify(stored)).not.toContain(first.body.secret);
    expect(ran[name]).toBe(1);
  });

  it('never replays a record of the earlier format (route and body only), even one holding a secret: 409, nothing runs', async () => {
    // Prepare: what the chain stored before path parameters were part of the fingerprint
    const [project, key, thing] = [randomUUID(), randomUUID(), randomUUID()];
    const now = new Date();
    const idem = getDeps().idempotency;
    await idem.claim({
      project_id: project,
      key,
      route: ACT,
      request_hash: sha256Hex(`${ACT}\n${canonicalJson(null)}`),
      claim_id: randomUUID(),
      status: 'in_progress',
      created_at: now.toISOString(),
      expires_at: Math.floor(now.getTime() / 1000) + 60,
    });
    const oldAnswer = JSON.stringify({ thing_id: randomUUID(), secret: 'whsec_old' });
    await idem.complete(project, key, 200, oldAnswer, Math.floor(now.getTime() / 1000) + 3600);
    // Act
    const res = await actOn(project, key, thing);
    // Assess
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('idempotency_conflict');
    expect(res.body.error.message).toMatch(/new Idempotency-Key/);
    expect(JSON.stringify(res.body)).not.toContain('whsec_old');
    expect(ran[thing]).toBeUndefined();
  });
});

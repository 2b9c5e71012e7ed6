// The Idempotency-Key step of the HTTP chain (functions/http-chain/idempotency.ts and its use in http.ts): the helpers on
// their own (the fingerprint, what a claimed key answers, what a replay record keeps, how long records live), then
// route() handlers of this file over dynalite: what a key is bound to (project, method, concrete path, query string,
// body), that a reuse for another request is a 409 and never a replay, that replay records keep no secret, that a 4xx
// is replayed while a 5xx or 429 frees the key, and that records of the earlier fingerprint format are never replayed.
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { keys } from '../../../functions/adapters/dynamodb/keys';
import { getItem } from '../../../functions/adapters/dynamodb/table';
import { ConflictError, RateLimitedError, ValidationError } from '../../../functions/core/errors';
import { canonicalJson, sha256Hex } from '../../../functions/core/json';
import * as z from '../../../functions/core/openapi/zod-mini';
import { getDeps, resetDeps } from '../../../functions/wiring/deps';
import { route } from '../../../functions/http-chain/route';
import { routeName } from '../../../functions/core/route-row';
import {
  FINGERPRINT_PREFIX,
  answerExisting,
  completedExpiry,
  inProgressMs,
  replayed,
  requestFingerprint,
  storedBody,
  type IdempotentRequest,
} from '../../../functions/http-chain/idempotency';
import type { Deps, IdempotencyRecord } from '../../../functions/core/ports';
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
  failures = {};
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

/** Errors the next calls of POST /v1/things/{thing_id}/try throw, in order, by thing id. */
let failures: Record<string, Error[]>;

/** POST /v1/things/{thing_id}/try: throws the thing's next scripted error, if any, else answers how often it ran. */
const attempt = route({ method: 'POST', path: '/v1/things/{thing_id}/try', auth: true }, async ({ params }) => {
  const run = count(params.thing_id);
  const failure = failures[params.thing_id]?.shift();
  if (failure) throw failure;
  return { status: 200, body: { thing_id: params.thing_id, run } };
});

/** GET /v1/things/{thing_id}: a read, which no Idempotency-Key applies to. */
const read = route({ method: 'GET', path: '/v1/things/{thing_id}', auth: true }, async ({ params }) => ({
  status: 200,
  body: { thing_id: params.thing_id, run: count(params.thing_id) },
}));

interface Call {
  method?: 'GET' | 'POST';
  project: string;
  key: string;
  path: string;
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

function event(c: Call): APIGatewayProxyEvent {
  return {
    httpMethod: c.method ?? 'POST',
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

async function send(handler: typeof act | typeof read, c: Call) {
  const res = await handler(event(c), ctx);
  return { status: res.statusCode, replayed: res.headers?.['Idempotent-Replayed'] === 'true', body: res.body ? JSON.parse(res.body) : undefined };
}

const tryOn = (project: string, key: string, thing: string) =>
  send(attempt, { project, key, path: `/v1/things/${thing}/try`, params: { thing_id: thing } });

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
    expect(requestFingerprint(base)).toMatch(new RegExp(`^${FINGERPRINT_PREFIX}[0-9a-f]{64}$`));
  });

  it('is "v2:" and the SHA-256 of the request as sorted-key JSON, so records kept across a deploy keep matching', () => {
    const print = requestFingerprint({
      projectId: '9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d',
      method: 'post',
      route: ACT,
      params: { thing_id: 'a' },
      query: { force: 'true' },
      body: { tags: ['x'], name: 'n' },
    });
    expect(print).toBe('v2:3015a8c32e51b7dc3bb545f83961032b2936b0adb23133023ae3335a02ca5d4b');
  });

  it('reads the method whatever its case', () => {
    expect(requestFingerprint({ ...base, method: 'post' })).toBe(requestFingerprint(base));
  });

  it.each<[string, Partial<IdempotentRequest>]>([
    ['project', { projectId: randomUUID() }],
    ['method', { method: 'PATCH' }],
    ['route', { route: 'POST /v1/things/{thing_id}/other' }],
    ['value of a path parameter', { params: { thing_id: 'b' } }],
    ['set of path parameters', { params: { thing_id: 'a', other: 'x' } }],
    ['query string', { query: { force: 'true' } }],
    ['body', { body: { b: 2, a: [1, { y: 2, x: 1 }] } }],
    ['presence of a body', { body: null }],
  ])('differs when only the %s differs', (_what, variant) => {
    expect(requestFingerprint({ ...base, ...variant })).not.toBe(requestFingerprint(base));
  });
});

describe('answerExisting: what a key already claimed answers', () => {
  const print = 'v2:' + 'a'.repeat(64);
  const record = (over: Partial<IdempotencyRecord>): IdempotencyRecord => ({
    project_id: randomUUID(),
    key: 'k',
    route: ACT,
    request_hash: print,
    claim_id: randomUUID(),
    status: 'done',
    response_status: 201,
    response_body: '{"id":"x"}',
    created_at: '2026-11-21T00:00:00.000Z',
    expires_at: 0,
    ...over,
  });
  const conflict = (rec: IdempotencyRecord, fingerprint: string) => {
    try {
      answerExisting(rec, fingerprint);
    } catch (err) {
      return err instanceof ConflictError ? { status: err.status, code: err.code, message: err.message } : err;
    }
    return 'answered';
  };

  it('replays the kept answer of the same request, marked Idempotent-Replayed: true', () => {
    expect(answerExisting(record({}), print)).toEqual({
      statusCode: 201,
      headers: { 'Content-Type': 'application/json', 'Idempotent-Replayed': 'true' },
      body: '{"id":"x"}',
    });
  });

  it('answers a done record of another request with 409 idempotency_conflict, never its answer', () => {
    expect(conflict(record({}), 'v2:' + 'b'.repeat(64))).toEqual({
      status: 409,
      code: 'idempotency_conflict',
      message:
        'This Idempotency-Key was already used with a different request (method, path, query string or body); use a new key for a new request.',
    });
  });

  it('answers a claim still in progress for the same request with 409 (retry shortly)', () => {
    const rec = record({ status: 'in_progress', response_status: undefined, response_body: undefined });
    expect(conflict(rec, print)).toEqual({
      status: 409,
      code: 'idempotency_conflict',
      message: 'A request with this Idempotency-Key is still being processed; retry shortly.',
    });
  });

  it('answers a record of the earlier fingerprint format with 409 asking for a new key, even when its hash matches', () => {
    const bare = 'a'.repeat(64);
    expect(conflict(record({ request_hash: bare }), bare)).toMatchObject({
      status: 409,
      code: 'idempotency_conflict',
      message: expect.stringMatching(/new Idempotency-Key\.$/),
    });
  });
});

describe('storedBody: what a replay record keeps', () => {
  const answer = (body: string): APIGatewayProxyResult => ({ statusCode: 201, headers: { 'Content-Type': 'application/json' }, body });

  it('keeps each secret field as null with <field>_withheld: true, the other fields unchanged', () => {
    const body = JSON.stringify({ id: 'w1', secret: 'whsec_1', token: 't', url: 'https://x' });
    expect(JSON.parse(storedBody(answer(body), ['secret', 'token']))).toEqual({
      id: 'w1',
      secret: null,
      secret_withheld: true,
      token: null,
      token_withheld: true,
      url: 'https://x',
    });
  });

  it.each([
    ['no secret fields are named', '{"b":1,  "a":2}', []],
    ['the object holds none of them', '{"b":1,  "a":2}', ['secret']],
    ['the body is an array', '[{"secret":"s"}]', ['secret']],
    ['the body is not JSON', 'secret=s', ['secret']],
  ])('keeps the body byte for byte when %s', (_when, body, fields) => {
    expect(storedBody(answer(body), fields)).toBe(body);
  });

  it('keeps a binary answer with its Content-Type, and replays it as the same base64 body', () => {
    const binary = { statusCode: 200, headers: { 'Content-Type': 'application/x-ndjson' }, body: 'AAEC/w==', isBase64Encoded: true };
    expect(replayed(200, storedBody(binary, ['secret']))).toEqual({
      statusCode: 200,
      headers: { 'Content-Type': 'application/x-ndjson', 'Idempotent-Replayed': 'true' },
      body: 'AAEC/w==',
      isBase64Encoded: true,
    });
  });
});

describe('how long records live', () => {
  it('keeps a completed answer 24 hours from now (unix seconds)', () => {
    const deps = { clock: { now: () => new Date('2026-11-21T23:59:01.900Z') } } as Deps;
    expect(completedExpiry(deps)).toBe(Date.UTC(2026, 10, 21, 23, 59, 1) / 1000 + 86_400);
  });

  it("bounds an in-progress claim by the invocation's remaining time, else 30 s", () => {
    const ctxLeft = (ms: number) => ({ getRemainingTimeInMillis: () => ms }) as Context;
    expect(inProgressMs(ctxLeft(12_345))).toBe(12_345);
    expect([inProgressMs(undefined), inProgressMs(ctx), inProgressMs(ctxLeft(0)), inProgressMs(ctxLeft(NaN))]).toEqual([
      30_000, 30_000, 30_000, 30_000,
    ]);
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
  it('replays a deterministic rejection (a 4xx): the retry answers the same 422 without running again', async () => {
    const [project, key, thing] = [randomUUID(), randomUUID(), randomUUID()];
    failures[thing] = [new ValidationError('not today', [{ path: 'when', message: 'not today' }])];
    const first = await tryOn(project, key, thing);
    const again = await tryOn(project, key, thing);
    expect(first).toMatchObject({ status: 422, replayed: false, body: { error: { code: 'validation_error', message: 'not today' } } });
    expect(again).toEqual({ ...first, replayed: true });
    expect(ran[thing]).toBe(1);
  });

  it.each([
    ['an unexpected error (500)', () => new Error('store down'), 500],
    ['a rate limit (429)', () => new RateLimitedError(), 429],
  ])('frees the key after %s, so the retry with the same key runs and is answered afresh', async (_what, failure, status) => {
    const [project, key, thing] = [randomUUID(), randomUUID(), randomUUID()];
    failures[thing] = [failure()];
    const first = await tryOn(project, key, thing);
    const retry = await tryOn(project, key, thing);
    expect(first.status).toBe(status);
    expect(retry).toEqual({ status: 200, replayed: false, body: { thing_id: thing, run: 2 } });
  });

  it('ignores an Idempotency-Key on a GET: each read runs', async () => {
    const [project, key, thing] = [randomUUID(), randomUUID(), randomUUID()];
    const call: Call = { method: 'GET', project, key, path: `/v1/things/${thing}`, params: { thing_id: thing } };
    const runs = [(await send(read, call)).body.run, (await send(read, call)).body.run];
    expect(runs).toEqual([1, 2]);
  });

  it.each([
    ['empty', ''],
    ['longer than 255 characters', 'k'.repeat(256)],
  ])('refuses a key that is %s with 422 on Idempotency-Key, running nothing', async (_what, key) => {
    const thing = randomUUID();
    const res = await actOn(randomUUID(), key, thing);
    expect([res.status, res.body.error.details]).toEqual([422, [{ path: 'Idempotency-Key', message: 'must be 1-255 characters' }]]);
    expect(ran[thing]).toBeUndefined();
  });
});

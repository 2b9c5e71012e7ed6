// Regression tests of hardening defects: non-finite numbers, idempotency claims that outlived a crash, store failures
// inside the authorizer cached as 401, and backtracking user regexes.
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { handler as postCampaigns } from '../../functions/http/post-campaigns';
import { handler as authorizer } from '../../functions/http/authorizer';
import { configureDeps, getDeps, resetDeps } from '../../functions/wiring/deps';
import type { Clock } from '../../functions/core/time';
import { recordedCampaign, sampleTrace, uuid } from '../helpers/fixtures';
import { startDynalite, type TestTable } from '../helpers/dynalite';
import { startTestService, type TestService } from '../helpers/local-service';
import { createKey } from '../../functions/core/auth';
import { newApiKey } from '../../functions/core/ids';
import { systemClock } from '../../functions/core/time';

function expectErrorBody(res: { status: number; body: any }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(Object.keys(res.body)).toEqual(['error']);
  expect(res.body.error).toMatchObject({ code, message: expect.any(String), request_id: expect.any(String) });
}

describe('numbers the store cannot hold', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ deliverWebhooks: false });
  });
  afterAll(() => svc.stop());

  const post = (path: string, rawJson: string) =>
    svc.raw('POST', path, { body: rawJson, headers: { ...svc.authHeaders, 'Content-Type': 'application/json' } });
  const huge = `1${'0'.repeat(400)}`;

  it.each([
    ['1e999 in trace metadata', '/v1/traces', () => JSON.stringify(sampleTrace()).replace(/}$/, ',"metadata":{"n":1e999}}'), 'metadata.n'],
    [
      'a 400-digit integer in trace metadata',
      '/v1/traces',
      () => JSON.stringify(sampleTrace()).replace(/}$/, `,"metadata":{"n":${huge}}}`),
      'metadata.n',
    ],
    [
      '-1e999 in tool arguments',
      '/v1/traces',
      () => JSON.stringify(sampleTrace()).replace('"order_id":"1234"', '"order_id":-1e999'),
      'steps.2.tool_calls.0.arguments.order_id',
    ],
    ['1e200 in a tool result', '/v1/traces', () => JSON.stringify(sampleTrace()).replace('"total":42.5', '"total":1e200'), 'steps.3.content.total'],
    ['1e999 in CI metadata', '/v1/ci/runs', () => `{"campaign_id":"${uuid()}","metadata":{"commit":"abc","n":1e999}}`, 'metadata.n'],
    [
      '1e999 in a policy enum',
      '/v1/campaigns',
      () =>
        JSON.stringify(recordedCampaign()).replace(
          /}$/,
          ',"policies":[{"id":"p","type":"argument_constraint","tool":"x","argument":"a","enum":[1e999]}]}',
        ),
      'policies.0.enum.0',
    ],
    ['1e999 in a webhook description', '/v1/webhooks', () => '{"url":"https://example.com/h","events":["*"],"description":1e999}', 'description'],
  ])('answers %s with 422 validation_error naming the path, and stores nothing', async (_name, path, body, detailPath) => {
    // Prepare
    const before = (await svc.api('GET', '/v1/traces')).body.items.length;

    // Act
    const res = await post(path, body());

    // Assess
    expectErrorBody(res, 422, 'validation_error');
    expect(res.body.error.details[0].path).toBe(detailPath);
    expect((await svc.api('GET', '/v1/traces')).body.items.length).toBe(before);
  });

  it('keeps large but storable numbers exactly', async () => {
    const trace = sampleTrace({ metadata: { big: 1e125, small: -1.5e-130, max: Number.MAX_SAFE_INTEGER } });
    const res = await svc.api('POST', '/v1/traces', trace);
    expect(res.status).toBe(201);
    const stored = await svc.api('GET', `/v1/traces/${res.body.trace_id}`);
    expect(stored.body.metadata).toEqual({ big: 1e125, small: -1.5e-130, max: Number.MAX_SAFE_INTEGER });
  });
});

describe('Idempotency-Key after a crash', () => {
  let table: TestTable;
  const PROJECT = uuid();
  let nowMs = Date.parse('2026-11-23T12:00:00.000Z');
  const clock: Clock = { now: () => new Date(nowMs) };

  beforeAll(async () => {
    table = await startDynalite('rts-idem-crash');
  });
  afterAll(async () => {
    resetDeps();
    await table.close();
    // The next services of this file start their own store.
    delete process.env.DYNAMODB_ENDPOINT;
    delete process.env.TABLE_NAME;
  });

  function event(body: unknown, key: string): APIGatewayProxyEvent {
    return {
      httpMethod: 'POST',
      path: '/v1/campaigns',
      resource: '/v1/campaigns',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key },
      multiValueHeaders: {},
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      pathParameters: null,
      stageVariables: null,
      body: JSON.stringify(body),
      isBase64Encoded: false,
      requestContext: { requestId: uuid(), authorizer: { projectId: PROJECT } } as unknown as APIGatewayProxyEvent['requestContext'],
    };
  }
  const context = (remainingMs: number) => ({ awsRequestId: uuid(), getRemainingTimeInMillis: () => remainingMs }) as unknown as Context;

  it('answers the real response to a retry once the crashed invocation could no longer be running, and keeps it 24 h', async () => {
    // Prepare: the first invocation claims the key, then dies inside the store write (it never completes).
    resetDeps();
    const real = getDeps().campaigns;
    let crash = true;
    const campaigns = Object.create(real);
    campaigns.put = (...args: unknown[]) =>
      crash ? new Promise(() => undefined) : (real.put as (...a: unknown[]) => Promise<unknown>).apply(real, args);
    configureDeps({ clock, campaigns, events: { publish: async () => undefined } });
    const key = `ci-job-${uuid()}`;
    const body = recordedCampaign({ name: 'crash-safe' });
    void postCampaigns(event(body, key), context(3000));
    await new Promise((r) => setTimeout(r, 200));
    crash = false;

    // Act + Assess: while the dead invocation's time is not up, a retry is told to wait...
    const early = await postCampaigns(event(body, key), context(3000));
    expect(early.statusCode).toBe(409);
    expect(JSON.parse(early.body).error.code).toBe('idempotency_conflict');

    // ...and once it is, the retry runs and gets the real answer.
    nowMs += 4000;
    const retried = await postCampaigns(event(body, key), context(3000));
    expect(retried.statusCode).toBe(201);
    expect(JSON.parse(retried.body).name).toBe('crash-safe');

    // The completed response is replayed for 24 h, not only for the in-progress bound.
    nowMs += 23 * 3600 * 1000;
    const replayed = await postCampaigns(event(body, key), context(3000));
    expect(replayed.statusCode).toBe(201);
    expect(replayed.headers?.['Idempotent-Replayed']).toBe('true');
    expect(JSON.parse(replayed.body).campaign_id).toBe(JSON.parse(retried.body).campaign_id);
  });
});

describe('a store failure inside the authorizer', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ deliverWebhooks: false });
  });
  afterAll(() => svc.stop());

  it('throws an authorizer failure (never "Unauthorized", which API Gateway caches as 401)', async () => {
    const real = getDeps().projects;
    const projects = Object.create(real);
    projects.findApiKeyByHash = async () => {
      throw Object.assign(new Error('connect ECONNREFUSED'), { name: 'TimeoutError' });
    };
    configureDeps({ projects });
    try {
      await expect(
        authorizer({
          type: 'REQUEST',
          methodArn: 'arn:aws:execute-api:eu-west-1:1:a/prod/GET/v1/traces',
          headers: { 'x-api-key': newApiKey(), 'x-project-id': svc.projectId },
        } as never),
      ).rejects.toThrow(expect.objectContaining({ message: expect.not.stringMatching(/^Unauthorized$/) }));
    } finally {
      configureDeps({ projects: real });
    }
  });

  it('answers 503 service_unavailable with Retry-After, uncached: the same key works on the next call after recovery', async () => {
    // Prepare: a key the gateway has not cached yet, and a store that fails for a moment.
    const apiKey = newApiKey();
    await createKey({ projects: getDeps().projects, clock: systemClock }, svc.projectId, apiKey);
    const headers = { 'X-API-Key': apiKey, 'X-Project-Id': svc.projectId };
    const real = getDeps().projects;
    const failing = Object.create(real);
    failing.findApiKeyByHash = async () => {
      throw Object.assign(new Error('Internal server error'), { name: 'InternalServerError', $metadata: { httpStatusCode: 500 } });
    };
    configureDeps({ projects: failing });

    // Act
    const during = await svc.raw('GET', '/v1/traces', { headers });
    configureDeps({ projects: real });
    const after = await svc.raw('GET', '/v1/traces', { headers });

    // Assess
    expectErrorBody(during, 503, 'service_unavailable');
    expect(during.headers.get('retry-after')).toBe('1');
    expect(after.status).toBe(200);
  });
});

describe('user regexes run in linear time', () => {
  let svc: TestService;
  let agent: import('node:http').Server;
  let agentUrl: string;
  const longOutput = `${'a'.repeat(100 * 1024)}!`;

  beforeAll(async () => {
    svc = await startTestService({ deliverWebhooks: false });
    const { createServer } = await import('node:http');
    // An agent whose answer is 100 KB that catastrophic patterns nearly match, and which passes it as a tool argument.
    agent = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const step = JSON.parse(raw) as { messages: { role: string }[] };
        const called = step.messages.some((m) => m.role === 'tool');
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(called ? { output: longOutput } : { tool_calls: [{ name: 'lookup_order', arguments: { order_id: longOutput } }] }));
      });
    });
    await new Promise<void>((r) => agent.listen(0, '127.0.0.1', r));
    agentUrl = `http://127.0.0.1:${(agent.address() as import('node:net').AddressInfo).port}/step`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => agent.close(() => r()));
    await svc.stop();
  });

  it('refuses patterns with backreferences or lookaround at campaign creation, naming the path', async () => {
    for (const [body, path] of [
      [recordedCampaign({ criteria: [{ type: 'output_matches', pattern: '(a)\\1' }] }), 'criteria.0.pattern'],
      [recordedCampaign({ policies: [{ id: 'p', type: 'argument_constraint', tool: 'x', argument: 'a', pattern: '^(?=x)' }] }), 'policies.0.pattern'],
      [
        {
          ...recordedCampaign(),
          target: { type: 'http', url: 'https://agent.example.com/step' },
          mutations: [{ id: 'm', type: 'tool_error', tool: '*', criteria: [{ type: 'output_matches', pattern: '(?<!a)b' }] }],
        },
        'mutations.0.criteria.0.pattern',
      ],
    ] as const) {
      const res = await svc.api('POST', '/v1/campaigns', body);
      expectErrorBody(res, 422, 'validation_error');
      expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    }
  });

  it('completes a run whose criteria and policies use catastrophic patterns on 100 KB values, and /health answers meanwhile', async () => {
    // Prepare
    const trace = await svc.api('POST', '/v1/traces', sampleTrace());
    const campaign = await svc.api('POST', '/v1/campaigns', {
      name: 'redos',
      target: { type: 'http', url: agentUrl },
      criteria: [
        { type: 'output_matches', pattern: '^(a+)+$' },
        { type: 'output_matches', pattern: '^(a|a)*$' },
        { type: 'output_matches', pattern: '^(a|aa)+$' },
        { type: 'output_matches', pattern: '(.*a){20}$' },
      ],
      policies: [{ id: 'evil', type: 'argument_constraint', tool: 'lookup_order', argument: 'order_id', pattern: '^(a+)+$', action: 'flag' }],
    });
    expect(campaign.status).toBe(201);

    // Act
    const run = await svc.api('POST', '/v1/runs', { trace_id: trace.body.trace_id, campaign_id: campaign.body.campaign_id });
    const health: number[] = [];
    let body: any;
    do {
      health.push((await svc.raw('GET', '/health')).status);
      body = (await svc.api('GET', `/v1/runs/${run.body.run_id}`)).body;
    } while (body.status !== 'completed' && body.status !== 'failed');

    // Assess: every check ran to its answer (no pattern matches: the output ends in "!").
    expect(body.status).toBe('completed');
    expect(health.filter((s) => s !== 200)).toEqual([]); // /health answered 200 at every poll while the run scored
    const checks = body.scoring.attempts[0].checks;
    expect(
      checks.filter((c: { criterion: { type: string } }) => c.criterion.type === 'output_matches').map((c: { passed: boolean }) => c.passed),
    ).toEqual([false, false, false, false]);
    const events = await svc.api('GET', `/v1/runs/${run.body.run_id}/policy-events`);
    expect(events.body.items.find((e: { policy_id: string }) => e.policy_id === 'evil').decision).toBe('flag');
  }, 15_000);
});

describe('requests the HTTP parser refuses, and odd keys and paths', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ deliverWebhooks: false });
  });
  afterAll(() => svc.stop());

  it('answers headers past 16 KiB with 431 and the error body, not a bare status line', async () => {
    const res = await svc.raw('GET', '/v1/traces', { headers: { ...svc.authHeaders, 'Idempotency-Key': 'k'.repeat(20_000) } });

    expectErrorBody(res, 431, 'request_header_fields_too_large');
    expect(res.headers.get('content-type')).toBe('application/json');
  });

  it('tells bodies apart that differ only under a __proto__ key (Idempotency-Key conflict, not a replay)', async () => {
    const key = `proto-${uuid()}`;
    const send = (a: number) =>
      svc.raw('POST', '/v1/campaigns', {
        body: `{"name":"c","target":{"type":"recorded"},"__proto__":{"a":${a}}}`,
        headers: { ...svc.authHeaders, 'Content-Type': 'application/json', 'Idempotency-Key': key },
      });

    expect((await send(1)).status).toBe(201);
    expectErrorBody(await send(2), 409, 'idempotency_conflict');
  });

  it('reads a path that starts with // as a path, never as a host', async () => {
    const res = await svc.raw('GET', '//v1/traces', { headers: svc.authHeaders });

    expectErrorBody(res, 404, 'route_not_found');
    expect(res.body.error.message).toBe('No route for GET //v1/traces.');
  });
});

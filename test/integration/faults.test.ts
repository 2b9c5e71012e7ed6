// Exactly-once CI gating under injected faults: the store behind a fault proxy (throttling, server errors,
// stalls past the client's timeout, writes whose answer is lost), and a queue and a bus that deliver twice and
// redeliver after a worker died part-way. Counts, verdicts, decision events and webhook deliveries stay exactly once.
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Context, EventBridgeEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { createGuardedSender } from '../../functions/adapters/http/guarded-sender';
import type { BusEvent } from '../../functions/core/events';
import { traceInputSchema } from '../../functions/core/traces/schema';
import { uploadTrace } from '../../functions/core/traces/service';
import { handler as webhookDelivery } from '../../functions/events/webhook-delivery';
import { InProcessBus } from '../../functions/local/bus';
import { InProcessQueue } from '../../functions/local/queue';
import { ensureTable, startEmbeddedStore } from '../../functions/local/store';
import type { Deps, RunsRepo } from '../../functions/core/ports';
import { resetAwsClients } from '../../functions/adapters/aws';
import { dynamoDocClient } from '../../functions/adapters/dynamodb/client';
import { configureDeps, getDeps } from '../../functions/wiring/deps';
import { handler as deadLetter } from '../../functions/workers/dead-letter';
import { handler as replayWorker } from '../../functions/workers/replay-worker';
import { createCampaign, expectExactFailingBatch, failingTrace, passingTrace, setEvalSet } from '../helpers/ci';
import { deleteTestTable, externalStoreEndpoint, uniqueTableName } from '../helpers/dynalite';
import { requestKey, startFaultProxy, type FaultProxy } from '../helpers/fault-proxy';
import { startHttpsReceiver, testCertificates, type HttpsReceiver } from '../helpers/https-receiver';
import { startTestService, type ApiResponse, type TestService } from '../helpers/local-service';

const TRACES = 200;
const FAILING_EVERY = 10;
const DECISION_TYPES = ['ci.decision.pass', 'ci.decision.fail'];
/** The per-try timeout the service's DynamoDB client gets here, and how long a stalled answer is held (longer). */
const REQUEST_TIMEOUT_MS = 1000;
const STALL_MS = 1500;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Store {
  endpoint: string;
  tableName: string;
  /** The embedded store's secret, which the service's client sends through the proxy (none on an external store). */
  secret?: string;
  close(): Promise<void>;
}

/** dynalite in a child process (a core of its own), or a fresh table on the parity run's external store. */
async function startStore(): Promise<Store> {
  const external = externalStoreEndpoint();
  if (external) {
    const tableName = uniqueTableName('rts-faults');
    await ensureTable(external, tableName);
    return { endpoint: external, tableName, close: () => deleteTestTable(external, tableName) };
  }
  const store = await startEmbeddedStore({ childProcess: true });
  await ensureTable(store.endpoint, 'rts-faults', store.secret);
  return { endpoint: store.endpoint, tableName: 'rts-faults', secret: store.secret, close: () => store.close() };
}

/** Every answer the API gave to the test's client, retries included. */
interface Seen {
  method: string;
  path: string;
  status: number;
  body: any;
  retryAfter: string | null;
}

/**
 * The test's API client behaves like `rts ci run`: 429 and 5xx are retried (POSTs only with an Idempotency-Key,
 * which stays the same), up to `tries` times; every answer is recorded.
 */
function recordingClient(svc: TestService, seen: Seen[], tries = 10) {
  return async function call<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    for (let i = 1; ; i++) {
      const res = await svc.api<T>(method, path, body, headers);
      seen.push({ method, path, status: res.status, body: res.body, retryAfter: res.headers.get('retry-after') });
      const transient = res.status === 429 || res.status >= 500;
      if (!transient || i >= tries || (method === 'POST' && !headers['Idempotency-Key'])) return res;
      await sleep(Math.min(1000, 100 * 2 ** i));
    }
  };
}

/** Stores the traces through the core service (setup, not under test: faster than 200 HTTP uploads). */
async function seedTraces(projectId: string, traces: ReturnType<typeof passingTrace>[]): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < traces.length; i += 50) {
    const created = await Promise.all(traces.slice(i, i + 50).map((t) => uploadTrace(getDeps(), projectId, traceInputSchema.parse(t))));
    ids.push(...created.map((c) => c.body.trace_id));
  }
  return ids;
}

/** 200 traces, every 10th one failing the recorded campaign's output criterion: the exact verdict is known. */
async function seedBatch(svc: TestService) {
  const traces = Array.from({ length: TRACES }, (_, i) => (i % FAILING_EVERY === 0 ? failingTrace(`fail ${i}`) : passingTrace(`pass ${i}`)));
  const traceIds = await seedTraces(svc.projectId, traces);
  const failing = new Set(traceIds.filter((_, i) => i % FAILING_EVERY === 0));
  const campaignId = await createCampaign(svc);
  await setEvalSet(svc, campaignId, traceIds, TRACES);
  return { traceIds, failing, campaignId };
}

/** A webhook on a real HTTPS receiver, subscribed to run completions and CI decisions. */
async function subscribe(svc: TestService, receiver: HttpsReceiver, events = ['run.completed', ...DECISION_TYPES]): Promise<string> {
  const res = await svc.api('POST', '/v1/webhooks', { url: receiver.url, events });
  if (res.status !== 201) throw new Error(`webhook creation failed: ${res.status} ${res.text}`);
  return res.body.webhook_id;
}

interface Delivered {
  webhookId: string;
  eventType: string;
  envelope: any;
}

function deliveries(receiver: HttpsReceiver): Delivered[] {
  return receiver.requests.map((r) => ({
    webhookId: String(r.headers['x-service-webhook-id']),
    eventType: String(r.headers['x-service-event']),
    envelope: JSON.parse(r.rawBody.toString('utf8')),
  }));
}

/** How often each key occurs. */
function counts(values: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
  return m;
}

/** The batch's exact expected aggregate, from which traces fail. */
function expectExactBatch(batch: any, runIds: string[], traceOf: Map<string, string>, failing: Set<string>) {
  const failingRuns = runIds.filter((r) => failing.has(traceOf.get(r)!)).sort();
  expect(failingRuns).toHaveLength(TRACES / FAILING_EVERY);
  expectExactFailingBatch(
    batch,
    TRACES,
    failingRuns,
    runIds.filter((r) => !failing.has(traceOf.get(r)!)),
  );
}

describe("the service's DynamoDB client behind the fault proxy", () => {
  let store: Store;
  let proxy: FaultProxy;
  const savedTimeout = process.env.DYNAMODB_REQUEST_TIMEOUT_MS;
  const savedEnv = { endpoint: process.env.DYNAMODB_ENDPOINT, table: process.env.TABLE_NAME, secret: process.env.RTS_STORE_SECRET };

  beforeAll(async () => {
    store = await startStore();
    // A stalled answer here never comes in practice (a minute): the store stopped answering.
    proxy = await startFaultProxy({ target: store.endpoint, seed: 7, stallMs: 60_000 });
    process.env.DYNAMODB_ENDPOINT = proxy.url;
    if (store.secret) process.env.RTS_STORE_SECRET = store.secret;
    process.env.TABLE_NAME = store.tableName;
    process.env.AWS_REGION ??= 'local';
    process.env.DYNAMODB_REQUEST_TIMEOUT_MS = String(REQUEST_TIMEOUT_MS);
    resetAwsClients();
  }, 30000);
  afterAll(async () => {
    dynamoDocClient().destroy();
    if (savedTimeout === undefined) delete process.env.DYNAMODB_REQUEST_TIMEOUT_MS;
    else process.env.DYNAMODB_REQUEST_TIMEOUT_MS = savedTimeout;
    process.env.DYNAMODB_ENDPOINT = savedEnv.endpoint;
    process.env.TABLE_NAME = savedEnv.table;
    if (savedEnv.endpoint === undefined) delete process.env.DYNAMODB_ENDPOINT;
    if (savedEnv.table === undefined) delete process.env.TABLE_NAME;
    if (savedEnv.secret === undefined) delete process.env.RTS_STORE_SECRET;
    else process.env.RTS_STORE_SECRET = savedEnv.secret;
    resetAwsClients();
    await proxy.close();
    await store.close();
  });

  const item = () => ({ pk: `FAULT#${randomUUID()}`, sk: 'X', n: 1 });
  const put = (Item: Record<string, unknown>) => dynamoDocClient().send(new PutCommand({ TableName: store.tableName, Item }));
  const onKey = (pk: string) => (r: Parameters<Parameters<FaultProxy['inject']>[1]>[0]) => requestKey(r)?.startsWith(`${pk}|`) === true;

  it.each(['throttle', 'internal', 'stall'] as const)(
    'makes the SDK retry a call answered with %s, which then succeeds',
    async (kind) => {
      // Prepare
      const rec = item();
      const fired = proxy.inject(kind, onKey(rec.pk), 2);

      // Act
      const started = Date.now();
      const res = await put(rec);

      // Assess: two faulty tries, the third went through; a stall cost one request timeout per try, not a hang.
      expect((await fired).kind).toBe(kind);
      expect(res.$metadata).toMatchObject({ httpStatusCode: 200, attempts: 3 });
      if (kind === 'stall') expect(Date.now() - started).toBeGreaterThanOrEqual(2 * REQUEST_TIMEOUT_MS);
      expect(Date.now() - started).toBeLessThan(2 * REQUEST_TIMEOUT_MS + 5000);
    },
    20000,
  );

  it('answers throttling and server errors in DynamoDB JSON 1.0 shape, and a store that stops answering costs a TimeoutError, not a hang', async () => {
    // Prepare: every try fails, so the final error surfaces.
    const [throttled, failed, stalled] = [item(), item(), item()];
    void proxy.inject('throttle', onKey(throttled.pk), 5);
    void proxy.inject('internal', onKey(failed.pk), 5);
    void proxy.inject('stall', onKey(stalled.pk), 5);

    // Act
    const started = Date.now();
    const [t, i, s] = await Promise.all([throttled, failed, stalled].map((x) => put(x).catch((e: unknown) => e)));

    // Assess: named from `__type` and retried (a 400 that is not throttling would not be: attempts would be 1); the
    // stalled calls gave up after the request timeout of each try instead of waiting for the store.
    expect(t).toMatchObject({ name: 'ThrottlingException', $fault: 'client', $metadata: { httpStatusCode: 400, attempts: 5 } });
    expect(i).toMatchObject({ name: 'InternalServerError', $fault: 'server', $metadata: { httpStatusCode: 500, attempts: 5 } });
    expect(s).toMatchObject({ name: 'TimeoutError', $metadata: { attempts: 5 } });
    expect(Date.now() - started).toBeLessThan(30000);
  }, 60000);

  it('applies a write whose answer it loses, so the retried conditional put meets its own write', async () => {
    // Prepare
    const rec = item();
    const fired = proxy.inject('lost_response', onKey(rec.pk));

    // Act
    const err = await dynamoDocClient()
      .send(new PutCommand({ TableName: store.tableName, Item: rec, ConditionExpression: 'attribute_not_exists(pk)' }))
      .catch((e: unknown) => e);

    // Assess
    expect(await fired).toMatchObject({ kind: 'lost_response', operation: 'PutItem', applied: true });
    expect(err).toMatchObject({ name: 'ConditionalCheckFailedException', $metadata: { attempts: 2 } });
    const stored = await dynamoDocClient().send(new GetCommand({ TableName: store.tableName, Key: { pk: rec.pk, sk: 'X' } }));
    expect(stored.Item).toEqual(rec);
  });
});

describe('a 200-run CI batch with 5 % of the store calls failing', () => {
  let store: Store;
  let proxy: FaultProxy;
  let svc: TestService;
  let receiver: HttpsReceiver;
  const events: BusEvent[] = [];
  const seen: Seen[] = [];
  const savedTimeout = process.env.DYNAMODB_REQUEST_TIMEOUT_MS;

  beforeAll(async () => {
    store = await startStore();
    proxy = await startFaultProxy({ target: store.endpoint, seed: 20261121, stallMs: STALL_MS });
    process.env.DYNAMODB_REQUEST_TIMEOUT_MS = String(REQUEST_TIMEOUT_MS);
    // The service reaches the store through the proxy with the store's secret (restored when the service stops).
    if (store.secret) process.env.RTS_STORE_SECRET = store.secret;
    svc = await startTestService({ dynamodbEndpoint: proxy.url, tableName: store.tableName });
    svc.bus.onEvent((e) => events.push(e));
    receiver = await startHttpsReceiver();
    configureDeps({ http: createGuardedSender({ allowPrivate: true, ca: testCertificates().ca }) });
  }, 60000);
  afterAll(async () => {
    proxy?.setRate(0);
    configureDeps({ http: undefined, sleep: undefined });
    await svc?.stop();
    if (savedTimeout === undefined) delete process.env.DYNAMODB_REQUEST_TIMEOUT_MS;
    else process.env.DYNAMODB_REQUEST_TIMEOUT_MS = savedTimeout;
    await receiver?.close();
    await proxy?.close();
    await store?.close();
  });

  it('reaches done once with exact counts, one decision event, one delivery per event and webhook, and only retryable errors', async () => {
    // Prepare (no faults yet)
    const { traceIds, failing, campaignId } = await seedBatch(svc);
    const webhookId = await subscribe(svc, receiver);
    const call = recordingClient(svc, seen);
    const key = `gh:acme/agent:${randomUUID()}:1:gate:${campaignId}`;
    const submission = { campaign_id: campaignId, thresholds: { min_pass_rate: 0.9, max_unsafe: 0, max_failures: 0 } };
    await svc.idle(); // the setup's events are delivered: from here on the store sees only the CI pipeline's calls
    const started = Date.now();

    // Act: 5 % of the store calls from here on fail, in all four ways.
    proxy.setRate(0.05);
    const sub = await call('POST', '/v1/ci/runs', submission, { 'Idempotency-Key': key });
    expect(sub.status).toBe(202);
    const batchId: string = sub.body.ci_batch_id;
    let batch: any;
    for (;;) {
      const res = await call('GET', `/v1/ci/batch/${batchId}`);
      if (res.status === 200 && res.body.status === 'done') {
        batch = res.body;
        break;
      }
      if (Date.now() - started > 150000) throw new Error(`batch not done after 150 s: ${res.text.slice(0, 300)}`);
      await sleep(250);
    }
    await svc.idle();
    await receiver.waitForRequests(TRACES + 1, 20000).catch(() => undefined);
    const again = await call('POST', '/v1/ci/runs', submission, { 'Idempotency-Key': key });
    const elapsed = Date.now() - started;
    proxy.setRate(0);

    // Assess: the faults happened, in every kind.
    const { stats } = proxy;
    for (const kind of ['throttle', 'internal', 'stall', 'lost_response'] as const)
      expect({ kind, injected: stats.injected[kind] > 0 }).toEqual({ kind, injected: true });
    // One batch, done once, with the exact aggregate.
    const runIds: string[] = sub.body.run_ids;
    expect(new Set(runIds).size).toBe(TRACES);
    // Read 10 at a time: these reads still go through the proxy with its 1 s request timeout, which 200 at once on a
    // loaded machine can pass.
    const runs: Awaited<ReturnType<ReturnType<typeof getDeps>['runs']['get']>>[] = [];
    for (let i = 0; i < runIds.length; i += 10) {
      runs.push(...(await Promise.all(runIds.slice(i, i + 10).map((r) => getDeps().runs.get(svc.projectId, r)))));
    }
    const traceOf = new Map(runs.map((r) => [r!.run_id, r!.trace_id]));
    expect(new Set(traceOf.values())).toEqual(new Set(traceIds));
    expectExactBatch(batch, runIds, traceOf, failing);
    const markers = await getDeps().batches.listMarkers(svc.projectId, batchId);
    expect(markers.map((m) => m.run_id).sort()).toEqual([...runIds].sort());
    // Every run terminal once: its marker, its stored state and its one run.completed (one bus id, one envelope,
    // created at the run's completion time) tell the same end.
    const completedAt = new Map(runs.map((r) => [r!.run_id, r!.completed_at]));
    expect(markers.filter((m) => m.completed_at !== completedAt.get(m.run_id) || m.status !== 'completed')).toEqual([]);
    expect(runs.map((r) => r!.status)).toEqual(runIds.map(() => 'completed'));
    expect(runs.filter((r) => r!.summary.attempt_count !== 1).map((r) => r!.run_id)).toEqual([]);
    const unpublished: string[] = [];
    for (const r of runs) if (!(await getDeps().runs.isPublished(svc.projectId, r!.run_id))) unpublished.push(r!.run_id);
    expect(unpublished).toEqual([]);
    const completed = events.filter((e) => e.envelope.event_type === 'run.completed');
    expect(new Set(completed.map((e) => e.id))).toEqual(new Set(runIds.map((r) => `run.completed:${r}`)));
    for (const [id, n] of counts(completed.map((e) => JSON.stringify(e)))) expect({ id, n }).toEqual({ id, n: 1 });
    expect(completed.filter((e) => e.envelope.created_at !== completedAt.get(e.envelope.data.run_id as string))).toEqual([]);
    // Exactly one decision event on the bus, and the batch marked published.
    const decisions = events.filter((e) => DECISION_TYPES.includes(e.envelope.event_type));
    expect(decisions).toHaveLength(1);
    expect(decisions[0]).toMatchObject({
      id: `ci.decision:${batchId}`,
      envelope: { event_type: 'ci.decision.fail', data: { ci_batch_id: batchId, pass_rate: batch.pass_rate } },
    });
    expect(await getDeps().batches.get(svc.projectId, batchId)).toMatchObject({ status: 'done', decision_published: true });
    // The webhook got each event exactly once.
    const got = deliveries(receiver);
    expect([...new Set(got.map((d) => d.webhookId))]).toEqual([webhookId]);
    const ids = got.map((d) => (d.eventType === 'run.completed' ? d.envelope.data.run_id : `decision ${d.envelope.data.ci_batch_id}`));
    expect(counts(ids)).toEqual(new Map([...runIds.map((r) => [r, 1] as const), [`decision ${batchId}`, 1]]));
    // No key left stuck: the same submission answers the same.
    expect(again.status).toBe(202);
    expect(again.body).toEqual(sub.body);
    // Every failure the client saw was retryable, with the API's error body.
    const failures = seen.filter((s) => s.status >= 300);
    for (const f of failures) {
      expect([429, 500, 503]).toContain(f.status);
      expect(f.body).toEqual({ error: { code: expect.any(String), message: expect.any(String), request_id: expect.any(String) } });
      if (f.status !== 500) expect(f.retryAfter).toMatch(/^\d+$/);
    }
    // What was measured (read in the test output with --verbose).
    console.info(
      JSON.stringify({
        elapsed_ms: elapsed,
        store_requests: stats.requests,
        injected: stats.injected,
        by_operation: stats.byOperation,
        client_failures: failures.map((f) => `${f.status} ${f.method} ${f.path}`),
      }),
    );
  }, 200000);

  /** A few traces in a fresh campaign's eval-set (or none: a campaign for single CI runs). */
  async function smallCampaign(size: number): Promise<{ campaignId: string; traceIds: string[] }> {
    const traceIds = await seedTraces(
      svc.projectId,
      Array.from({ length: Math.max(size, 1) }, (_, i) => passingTrace(`small ${i}`)),
    );
    const campaignId = await createCampaign(svc);
    if (size > 0) await setEvalSet(svc, campaignId, traceIds, size);
    return { campaignId, traceIds };
  }

  const onItem = (operation: string, pkPrefix: string, sk?: string | RegExp) => (r: Parameters<Parameters<FaultProxy['inject']>[1]>[0]) => {
    const key = requestKey(r);
    if (r.operation !== operation || !key?.startsWith(pkPrefix)) return false;
    const itemSk = key.slice(key.indexOf('|') + 1);
    return sk === undefined || (typeof sk === 'string' ? itemSk === sk : sk.test(itemSk));
  };

  async function batchDone(batchId: string, timeoutMs = 20000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await svc.api('GET', `/v1/ci/batch/${batchId}`);
      if (res.status === 200 && res.body.status === 'done') return res.body;
      if (Date.now() > deadline) throw new Error(`batch ${batchId} not done: ${res.text.slice(0, 300)}`);
      await sleep(100);
    }
  }

  const decisionsOf = (id: string) => events.filter((e) => DECISION_TYPES.includes(e.envelope.event_type) && e.id === `ci.decision:${id}`);

  it('accepts a batch once when the answer to its META put is lost', async () => {
    // Prepare
    const { campaignId } = await smallCampaign(3);
    const fired = proxy.inject('lost_response', onItem('PutItem', 'BATCH#', 'META'));

    // Act
    const sub = await svc.api('POST', '/v1/ci/runs', { campaign_id: campaignId }, { 'Idempotency-Key': randomUUID() });

    // Assess: the first answer is the 202 (the put was this request's own), and that batch is decided once.
    expect(await fired).toMatchObject({ kind: 'lost_response', applied: true });
    expect(sub.status).toBe(202);
    expect(await batchDone(sub.body.ci_batch_id)).toMatchObject({ decision: 'pass', completed_count: 3 });
    await svc.idle();
    expect(decisionsOf(sub.body.ci_batch_id)).toHaveLength(1);
  });

  it("finishes a batch when the answer to a run's completion marker put is lost", async () => {
    // Prepare
    const { campaignId } = await smallCampaign(5);
    const fired = proxy.inject('lost_response', onItem('PutItem', 'BATCH#', /^DONE#/));

    // Act
    const sub = await svc.api('POST', '/v1/ci/runs', { campaign_id: campaignId });
    const batch = await batchDone(sub.body.ci_batch_id);
    await svc.idle();

    // Assess
    expect(await fired).toMatchObject({ kind: 'lost_response', applied: true });
    expect(batch).toMatchObject({ decision: 'pass', completed_count: 5, scenario_coverage_pct: 100 });
    expect(decisionsOf(sub.body.ci_batch_id)).toHaveLength(1);
  });

  it('delivers an event once when the answer to its webhook delivery claim is lost', async () => {
    // Prepare: a webhook of its own, for decisions only.
    const own = await startHttpsReceiver();
    try {
      const webhookId = await subscribe(svc, own, DECISION_TYPES);
      const { campaignId } = await smallCampaign(2);
      const fired = proxy.inject('lost_response', onItem('PutItem', `WHDEDUP#${webhookId}#`));

      // Act
      const sub = await svc.api('POST', '/v1/ci/runs', { campaign_id: campaignId });
      await batchDone(sub.body.ci_batch_id);
      await svc.idle();

      // Assess: claimed (the lost answer was its own claim), sent once.
      expect(await fired).toMatchObject({ kind: 'lost_response', applied: true });
      const got = deliveries(own);
      expect(got.map((d) => [d.eventType, d.envelope.data.ci_batch_id])).toEqual([['ci.decision.pass', sub.body.ci_batch_id]]);
    } finally {
      await own.close();
    }
  });

  it('creates, runs and decides a single CI run once when the answers to its put and its completion are lost', async () => {
    // Prepare: no eval-set, so the submission is a single run.
    const { campaignId, traceIds } = await smallCampaign(0);
    const created = proxy.inject('lost_response', onItem('PutItem', 'RUN#', 'META'));
    const ended = proxy.inject('lost_response', (r) => onItem('UpdateItem', 'RUN#', 'META')(r) && r.text.includes('"completed"'));

    // Act
    const sub = await svc.api('POST', '/v1/ci/runs', { campaign_id: campaignId, trace_id: traceIds[0] }, { 'Idempotency-Key': randomUUID() });
    expect(sub.status).toBe(202);
    const deadline = Date.now() + 20000;
    let run: any;
    do {
      await sleep(100);
      run = (await svc.api('GET', `/v1/ci/runs/${sub.body.run_id}`)).body;
    } while (run.decision === 'pending' && Date.now() < deadline);
    await svc.idle();

    // Assess
    expect(await created).toMatchObject({ kind: 'lost_response', applied: true });
    expect(await ended).toMatchObject({ kind: 'lost_response', applied: true });
    expect(run).toMatchObject({ status: 'completed', decision: 'pass' });
    expect(decisionsOf(sub.body.run_id)).toHaveLength(1);
    expect(events.filter((e) => e.id === `run.completed:${sub.body.run_id}`)).toHaveLength(1);
  });

  it('answers 503 or 429 with Retry-After and the error body when every try of a store call fails', async () => {
    // Prepare: the first store call of GET /v1/ci/batch/{id} (the batch META read) fails on all 5 tries.
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    const kinds = ['internal', 'stall', 'throttle'] as const;
    kinds.forEach((kind, i) => void proxy.inject(kind, onItem('GetItem', `BATCH#${svc.projectId}#${ids[i]}`, 'META'), 5));

    // Act
    const answers = await Promise.all(ids.map((id) => svc.api('GET', `/v1/ci/batch/${id}`)));

    // Assess: a store fault is the client's cue to retry, never a 500 or a hang.
    const shape = (status: number, code: string) => ({ status, code, retryAfter: expect.stringMatching(/^\d+$/) });
    expect(answers.map((a) => ({ status: a.status, code: a.body?.error?.code, retryAfter: a.headers.get('retry-after') }))).toEqual([
      shape(503, 'service_unavailable'),
      shape(503, 'service_unavailable'),
      shape(429, 'rate_limited'),
    ]);
    for (const a of answers)
      expect(a.body).toEqual({ error: { code: expect.any(String), message: expect.any(String), request_id: expect.any(String) } });
  }, 60000);

  it('answers a submission whose idempotency claim lost its answer with the 202, not a 409', async () => {
    // Prepare
    const { campaignId } = await smallCampaign(2);
    const key = randomUUID();
    const fired = proxy.inject('lost_response', onItem('PutItem', 'IDEM#'));
    const seenHere: Seen[] = [];
    const call = recordingClient(svc, seenHere);

    // Act: the claim is stored, its answer lost; the SDK's retry meets the request's own claim.
    const sub = await call('POST', '/v1/ci/runs', { campaign_id: campaignId }, { 'Idempotency-Key': key });
    const again = await call('POST', '/v1/ci/runs', { campaign_id: campaignId }, { 'Idempotency-Key': key });

    // Assess: one batch, and the key replays it (it is not stuck "in progress").
    expect(await fired).toMatchObject({ kind: 'lost_response', applied: true });
    expect(seenHere.map((x) => x.status)).toEqual([202, 202]);
    expect(again.body).toEqual(sub.body);
  });
});

type SqsHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;
type BusHandler = (event: EventBridgeEvent<string, BusEvent>, context: Context) => Promise<unknown>;

class Crash extends Error {
  constructor(point: string) {
    super(`injected crash: ${point}`);
  }
}

/** Picks about one run in `every` from its id (deterministic for a given run). */
const picked = (runId: string, every: number, slot: number) => parseInt(runId.slice(0, 6), 16) % every === slot;

describe('a 200-run CI batch with every replay message and bus event delivered twice, and workers dying part-way', () => {
  const REPEATS = 4;
  let svc: TestService;
  let queue: InProcessQueue;
  let bus: InProcessBus;
  const receivers: HttpsReceiver[] = [];
  const events: BusEvent[] = [];
  const injected = { duplicateMessages: 0, diedAfterAttempts: 0, diedAfterTerminal: 0, busDuplicates: 0, busLateDuplicates: 0 };
  /** Runs whose terminal transition was won (returned the run), by run id. */
  const terminalWins = new Map<string, number>();

  /** The real runs repository, dying right after some of its writes (the write stands, the worker never learns). */
  function dyingRuns(real: RunsRepo): RunsRepo {
    const diedAtAttempt = new Set<string>();
    const diedAtEnd = new Set<string>();
    const stored = new Map<string, number>();
    const runs = Object.create(real) as RunsRepo;
    runs.putAttempt = async (pid, attempt) => {
      const created = await real.putAttempt(pid, attempt);
      const rid = attempt.run_id;
      if (created) stored.set(rid, (stored.get(rid) ?? 0) + 1);
      // About one run in 5 dies once right after its second stored attempt: the redelivery resumes with the rest.
      if (created && stored.get(rid) === 2 && picked(rid, 5, 1) && !diedAtAttempt.has(rid)) {
        diedAtAttempt.add(rid);
        injected.diedAfterAttempts++;
        throw new Crash('after 2 attempts were stored');
      }
      return created;
    };
    runs.transition = async (pid, rid, from, patch) => {
      const run = await real.transition(pid, rid, from, patch);
      if (run && (patch.status === 'completed' || patch.status === 'failed')) {
        terminalWins.set(rid, (terminalWins.get(rid) ?? 0) + 1);
        // About one run in 7 dies right after it became terminal, before aggregation and run.completed.
        if (picked(rid, 7, 3) && !diedAtEnd.has(rid)) {
          diedAtEnd.add(rid);
          injected.diedAfterTerminal++;
          throw new Crash('after the terminal transition');
        }
      }
      return run;
    };
    return runs;
  }

  /** The webhook delivery handler as an at-least-once bus calls it: every event twice at once, some a third time later (new EventBridge ids, same BusEvent). */
  function twiceDelivered(handler: BusHandler): BusHandler {
    let n = 0;
    return async (event, context) => {
      const late = n++ % 5 === 0;
      injected.busDuplicates++;
      await Promise.all([handler(event, context), handler({ ...event, id: randomUUID() }, context)]);
      if (late) {
        injected.busLateDuplicates++;
        await sleep(20);
        await handler({ ...event, id: randomUUID() }, context);
      }
    };
  }

  beforeAll(async () => {
    svc = await startTestService({ deliverWebhooks: false, storeInChildProcess: true });
    configureDeps({ http: createGuardedSender({ allowPrivate: true, ca: testCertificates().ca }) });
    const worker: SqsHandler = replayWorker;
    queue = new InProcessQueue({ worker: () => worker, deadLetter: () => deadLetter, concurrency: 8, maxReceives: 10, redeliveryDelayMs: 20 });
    const deliverTwice = twiceDelivered(webhookDelivery);
    bus = new InProcessBus({ target: () => deliverTwice, concurrency: 8 });
    bus.onEvent((e) => events.push(e));
    // Every replay message goes on the queue twice (SQS standard queues deliver at least once).
    const doubled: Deps['queue'] = {
      async sendReplay(messages) {
        injected.duplicateMessages += messages.length;
        await queue.sendReplay(messages);
        await queue.sendReplay(messages);
      },
    };
    configureDeps({ queue: doubled, events: bus, runs: dyingRuns(getDeps().runs) });
    for (let i = 0; i < 2; i++) receivers.push(await startHttpsReceiver());
  }, 60000);
  afterAll(async () => {
    configureDeps({ http: undefined, sleep: undefined });
    await queue?.close();
    await bus?.close();
    await svc?.stop();
    await Promise.all(receivers.map((r) => r.close()));
  });

  it('counts each run once, flips the batch once, and delivers every event once per webhook', async () => {
    // Prepare: 4 attempts per run (repeats), so a worker can die between attempts; two webhooks.
    const traces = Array.from({ length: TRACES }, (_, i) => (i % FAILING_EVERY === 0 ? failingTrace(`fail ${i}`) : passingTrace(`pass ${i}`)));
    const traceIds = await seedTraces(svc.projectId, traces);
    const failing = new Set(traceIds.filter((_, i) => i % FAILING_EVERY === 0));
    const campaignId = await createCampaign(svc, { repeats: REPEATS });
    await setEvalSet(svc, campaignId, traceIds, TRACES);
    const all = await subscribe(svc, receivers[0], ['*']);
    const gates = await subscribe(svc, receivers[1]);
    for (let i = 0; i < 3; i++) {
      await queue.drain();
      await bus.drain();
    }
    for (const r of receivers) r.requests.splice(0);
    const since = events.length;
    const started = Date.now();

    // Act
    const sub = await svc.api('POST', '/v1/ci/runs', { campaign_id: campaignId }, { 'Idempotency-Key': randomUUID() });
    expect(sub.status).toBe(202);
    const batchId: string = sub.body.ci_batch_id;
    for (;;) {
      const res = await svc.api('GET', `/v1/ci/batch/${batchId}`);
      if (res.body.status === 'done') break;
      if (Date.now() - started > 150000) throw new Error(`batch not done after 150 s: ${res.text.slice(0, 300)}`);
      await sleep(250);
    }
    for (let i = 0; i < 3; i++) {
      await queue.drain();
      await bus.drain();
    }
    const batch = (await svc.api('GET', `/v1/ci/batch/${batchId}`)).body;
    const elapsed = Date.now() - started;

    // Assess: the faults happened.
    for (const [point, count] of Object.entries(injected)) expect({ point, happened: count > 0 }).toEqual({ point, happened: true });
    // The exact aggregate; every run terminal once, with exactly its 4 attempts.
    const runIds: string[] = sub.body.run_ids;
    // Read 10 at a time: these reads still go through the proxy with its 1 s request timeout, which 200 at once on a
    // loaded machine can pass.
    const runs: Awaited<ReturnType<ReturnType<typeof getDeps>['runs']['get']>>[] = [];
    for (let i = 0; i < runIds.length; i += 10) {
      runs.push(...(await Promise.all(runIds.slice(i, i + 10).map((r) => getDeps().runs.get(svc.projectId, r)))));
    }
    const traceOf = new Map(runs.map((r) => [r!.run_id, r!.trace_id]));
    expectExactBatch(batch, runIds, traceOf, failing);
    expect(runs.map((r) => r!.status)).toEqual(runIds.map(() => 'completed'));
    expect(runIds.map((r) => terminalWins.get(r) ?? 0)).toEqual(runIds.map(() => 1));
    const attempts = await Promise.all(runIds.map((r) => getDeps().runs.listAttempts(svc.projectId, r, { transcripts: false })));
    expect(attempts.map((a) => a.map((x) => x.attempt).join(','))).toEqual(runIds.map(() => '1,2,3,4'));
    for (const [i, r] of runs.entries()) {
      const passed = failing.has(r!.trace_id) ? 0 : REPEATS;
      expect(r!.summary).toMatchObject({ attempt_count: REPEATS, passed_count: passed, failed_count: REPEATS - passed });
      expect(attempts[i].filter((a) => a.status === 'passed')).toHaveLength(passed);
    }
    // The bus may carry a re-published copy (same id, same envelope); receivers get each event once per webhook.
    const mine = events.slice(since);
    const byId = new Map<string, Set<string>>();
    for (const e of mine) byId.set(e.id, (byId.get(e.id) ?? new Set()).add(JSON.stringify(e.envelope)));
    for (const [id, envelopes] of byId) expect({ id, copies: envelopes.size }).toEqual({ id, copies: 1 });
    const decisionIds = mine.filter((e) => DECISION_TYPES.includes(e.envelope.event_type)).map((e) => e.id);
    expect(new Set(decisionIds)).toEqual(new Set([`ci.decision:${batchId}`]));
    const identity = (d: Delivered) => `${d.eventType} ${d.envelope.data.run_id ?? ''} ${d.envelope.data.ci_batch_id ?? ''}`;
    const gotAll = deliveries(receivers[0]);
    expect([...new Set(gotAll.map((d) => d.webhookId))]).toEqual([all]);
    const allCounts = counts(gotAll.map((element) => identity(element)));
    expect([...allCounts].filter(([, n]) => n !== 1)).toEqual([]);
    // run.created, run.queued and run.completed of each run, and the decision.
    expect(allCounts.size).toBe(3 * TRACES + 1);
    for (const r of runIds) for (const t of ['run.created', 'run.queued', 'run.completed']) expect(allCounts.get(`${t} ${r} `)).toBe(1);
    const gotGates = deliveries(receivers[1]);
    expect([...new Set(gotGates.map((d) => d.webhookId))]).toEqual([gates]);
    const gateCounts = counts(gotGates.map((element) => identity(element)));
    expect([...gateCounts].filter(([, n]) => n !== 1)).toEqual([]);
    expect(gateCounts.size).toBe(TRACES + 1);
    expect(gotGates.filter((d) => DECISION_TYPES.includes(d.eventType)).map((d) => d.envelope.data)).toEqual([
      expect.objectContaining({ ci_batch_id: batchId, decision: 'fail', pass_rate: batch.pass_rate, scenario_coverage_pct: 100 }),
    ]);
    const stored = await getDeps().batches.get(svc.projectId, batchId);
    expect(stored).toMatchObject({ status: 'done', decision_published: true });
    console.info(
      JSON.stringify({ elapsed_ms: elapsed, injected, queue: queue.stats, bus_events: mine.length, deliveries: [gotAll.length, gotGates.length] }),
    );
  }, 200000);
});

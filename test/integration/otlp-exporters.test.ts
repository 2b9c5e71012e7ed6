// POST /v1/traces as an OTLP/HTTP receiver for the official OpenTelemetry JS exporters (JSON and protobuf, gzip on and
// off): GenAI spans in the attribute and the event form, split across exports by the span processors, retried, mixed
// with HTTP spans, become exactly the rts traces the spans describe, one per OTel trace, joined and never duplicated.
// The instrumented app (otlp-exporter-app.ts) runs in a child process: see its header.
import { execFile } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { BusEvent } from '../../functions/core/events';
import { otlpTraceUuid } from '../../functions/core/traces/otlp/merge';
import { startTestService, type TestService } from '../helpers/local-service';
import { CALL, FINAL, RESULT, SYSTEM, USER, type Recorded, type Scenario } from './otlp-exporter-app';

const APP = join(__dirname, 'otlp-exporter-app.ts');

let svc: TestService;
const events: BusEvent[] = [];
const posts: { status: number; ms: number }[] = [];

/** Runs the instrumented app on these scenarios (in order), with extra environment variables. */
function runApp(scenarios: Scenario[], env: Record<string, string> = {}): Promise<Recorded[]> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--require', 'tsx/cjs', APP, JSON.stringify(scenarios)],
      { env: { ...process.env, ...env }, timeout: 60_000 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`${err.message}\n${stderr}`));
        else
          resolve(
            stdout
              .trim()
              .split('\n')
              .map((l) => JSON.parse(l) as Recorded),
          );
      },
    );
  });
}

beforeAll(async () => {
  svc = await startTestService({
    deliverWebhooks: false,
    gateway: { onRequest: (r) => void (r.method === 'POST' && r.path === '/v1/traces' && posts.push({ status: r.status, ms: r.ms })) },
  });
  svc.bus.onEvent((e) => events.push(e));
});
afterAll(async () => {
  await svc.stop();
});

const target = (url = `${svc.url}/v1/traces`) => ({ url, apiKey: svc.apiKey, projectId: svc.projectId });

/** The rts trace the spans of one recorded agent run describe, whatever the encoding, form, compression or split. */
function expectedTrace(otelTraceId: string, conversation: string) {
  return {
    trace_id: otlpTraceUuid(svc.projectId, otelTraceId),
    name: 'invoke_agent support-bot',
    agent: { name: 'support-bot', version: '3.1.0' },
    model: { provider: 'openai', name: 'gpt-4o-mini' },
    tools: [{ name: 'lookup_order' }],
    steps: [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: USER },
      { role: 'assistant', content: null, tool_calls: [CALL] },
      { role: 'tool', tool_call_id: CALL.id, name: CALL.name, content: RESULT, duration_ms: 120 },
      { role: 'assistant', content: FINAL },
    ],
    metadata: { otlp_trace_id: otelTraceId, source: 'otlp', conversation_id: conversation },
    tags: ['otlp'],
    step_count: 5,
    tool_call_count: 1,
  };
}

const eventsOf = (type: string, traceId: string) => events.filter((e) => e.envelope.event_type === type && e.envelope.data.trace_id === traceId);
const getTrace = (otelTraceId: string) => svc.api('GET', `/v1/traces/${otlpTraceUuid(svc.projectId, otelTraceId)}`);

/** Created once, then one trace.updated per version, whatever order concurrent exports were merged in. */
function expectVersionsFromEvents(stored: { trace_id: string; version: number }) {
  const updates = eventsOf('trace.updated', stored.trace_id).map((e) => e.envelope.data.version);
  expect(eventsOf('trace.created', stored.trace_id)).toHaveLength(1);
  expect(updates).toEqual(Array.from({ length: updates.length }, (_, i) => i + 2));
  expect(stored.version).toBe(updates.length + 1);
}

describe('POST /v1/traces with the official OTLP exporters', () => {
  const MATRIX: [Scenario['encoding'], boolean, Scenario['form']][] = [
    ['json', false, 'attributes'],
    ['json', true, 'events'],
    ['protobuf', false, 'events'],
    ['protobuf', true, 'attributes'],
    ['protobuf', false, 'indexed'],
    ['json', true, 'indexed'],
  ];
  const scenarios = (batch: Scenario['batch']): Scenario[] =>
    MATRIX.map(([encoding, gzip, form]) => ({
      encoding,
      gzip,
      form,
      batch,
      conversation: `conv-${batch}-${encoding}-${gzip}-${form}`,
      target: target(),
    }));
  let simple: Recorded[];
  let batched: Recorded[];
  let postsSimple: number;
  let postsBatched: number;

  beforeAll(async () => {
    // One app process per processor kind: an agent run each per encoding, compression and message form.
    let before = posts.length;
    simple = await runApp(scenarios('simple'));
    postsSimple = posts.length - before;
    before = posts.length;
    batched = await runApp(scenarios(2));
    postsBatched = posts.length - before;
    await svc.idle();
  }, 120_000);

  it('answers every export 200: a span per export, and two spans per export', () => {
    // Six spans per scenario (five of the agent run, one health check).
    expect(postsSimple).toBe(MATRIX.length * 6);
    expect(postsBatched).toBeGreaterThanOrEqual(MATRIX.length * 3);
    expect(posts.filter((p) => p.status !== 200)).toEqual([]);
  });

  it.each(MATRIX.map((m, i) => [...m, i] as const))(
    '%s (gzip %s), %s form, a span per export: one trace joined export by export, HTTP spans and the health check skipped',
    async (encoding, gzip, form, i) => {
      const { traceId, healthTraceId } = simple[i];

      const stored = await getTrace(traceId);

      expect(stored.status).toBe(200);
      expect(stored.body).toMatchObject(expectedTrace(traceId, `conv-simple-${encoding}-${gzip}-${form}`));
      expect(stored.body.steps).toEqual(expectedTrace(traceId, '').steps);
      expectVersionsFromEvents(stored.body);
      expect((await getTrace(healthTraceId)).status).toBe(404);
    },
  );

  it.each(MATRIX.map((m, i) => [...m, i] as const))(
    '%s (gzip %s), %s form, batched two spans per export: the same trace',
    async (encoding, gzip, form, i) => {
      const { traceId, healthTraceId } = batched[i];

      const stored = await getTrace(traceId);

      expect(stored.body).toMatchObject(expectedTrace(traceId, `conv-2-${encoding}-${gzip}-${form}`));
      expect(stored.body.steps).toEqual(expectedTrace(traceId, '').steps);
      expectVersionsFromEvents(stored.body);
      expect((await getTrace(healthTraceId)).status).toBe(404);
    },
  );

  it('keeps the HTTP spans of an agent run and health checks out of the listing: one rts trace per agent run', async () => {
    const listed = await svc.api('GET', '/v1/traces?limit=100');

    const mine = new Set([...simple, ...batched].map((r) => otlpTraceUuid(svc.projectId, r.traceId)));
    expect(listed.body.items.filter((t: { trace_id: string }) => mine.has(t.trace_id))).toHaveLength(MATRIX.length * 2);
    expect(listed.body.items.filter((t: { metadata: { source?: string } }) => t.metadata.source === 'otlp')).toHaveLength(MATRIX.length * 2);
  });

  it('stores a retried export once: the first answer is lost after the spans were stored, the retry changes nothing', async () => {
    // Prepare: a proxy that forwards every export but answers the first one 503, as a load balancer in trouble would.
    let seen = 0;
    const proxy: Server = createServer((req, res) => {
      seen += 1;
      const first = seen === 1;
      const upstream = request(`${svc.url}${req.url}`, { method: req.method, headers: req.headers }, (up) => {
        if (first) {
          up.resume();
          up.on('end', () => res.writeHead(503, { 'Retry-After': '0' }).end());
          return;
        }
        res.writeHead(up.statusCode ?? 500, up.headers);
        up.pipe(res);
      });
      req.pipe(upstream);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v1/traces`;

    // Act
    const [run] = await runApp([
      { encoding: 'protobuf', gzip: true, form: 'attributes', batch: 512, conversation: 'conv-retry', target: target(url) },
    ]);
    await svc.idle();
    await new Promise<void>((r) => proxy.close(() => r()));

    // Assess: two deliveries of one export, one trace, created once, never updated.
    expect(seen).toBe(2);
    const stored = await getTrace(run.traceId);
    expect(stored.body).toMatchObject({ ...expectedTrace(run.traceId, 'conv-retry'), version: 1 });
    expect(eventsOf('trace.created', stored.body.trace_id)).toHaveLength(1);
    expect(eventsOf('trace.updated', stored.body.trace_id)).toHaveLength(0);
  });

  it('answers an export sent again, in the other encoding, with the same trace: no new event, no new version', async () => {
    // Act: JSON span by span, then every span again in one protobuf export.
    const [run] = await runApp([
      { encoding: 'json', gzip: false, form: 'events', batch: 'simple', conversation: 'conv-again', target: target(), resend: 'protobuf' },
    ]);
    await svc.idle();

    // Assess
    expect(run.resendCode).toBe(0);
    const stored = await getTrace(run.traceId);
    expect(stored.body).toMatchObject(expectedTrace(run.traceId, 'conv-again'));
    expectVersionsFromEvents(stored.body);
  });

  it('takes its settings from OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_HEADERS and OTEL_EXPORTER_OTLP_COMPRESSION', async () => {
    // Act
    const [run] = await runApp([{ encoding: 'protobuf', gzip: true, form: 'attributes', batch: 512, conversation: 'conv-env' }], {
      OTEL_EXPORTER_OTLP_ENDPOINT: svc.url,
      OTEL_EXPORTER_OTLP_HEADERS: `x-api-key=${svc.apiKey},x-project-id=${svc.projectId}`,
      OTEL_EXPORTER_OTLP_COMPRESSION: 'gzip',
    });
    await svc.idle();

    // Assess
    expect((await getTrace(run.traceId)).body).toMatchObject({ ...expectedTrace(run.traceId, 'conv-env'), version: 1 });
  });
});

// POST /v1/traces over HTTP through the local gateway, as an OTLP/HTTP receiver: partial success in the request's
// encoding, the summary in JSON, limits after decompression (a gzip bomb is a 413), the 400/415 of unreadable or
// unsupported bodies, Idempotency-Key with a binary answer, and the native format unchanged (gzip aside).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Root, type INamespace, type Type } from 'protobufjs';
import { buildDescriptor } from '../../functions/core/traces/otlp/proto/generate';
import { otlpTraceUuid } from '../../functions/core/traces/otlp/merge';
import { sampleTrace } from '../helpers/fixtures';
import { startTestService, type TestService } from '../helpers/local-service';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ deliverWebhooks: false });
});
afterAll(async () => {
  await svc.stop();
});

const root = Root.fromJSON(buildDescriptor() as INamespace);
const REQUEST: Type = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
const RESPONSE: Type = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse');

const s = (key: string, value: string) => ({ key, value: { stringValue: value } });
let counter = 0;
/** A fresh trace id, and a chat span of it that makes a valid trace on its own. */
function chatSpan(traceId = (++counter).toString(16).padStart(32, 'a')) {
  return {
    traceId,
    spanId: 'cd'.repeat(8),
    name: 'chat gpt-4o',
    startTimeUnixNano: '1732233600000000000',
    endTimeUnixNano: '1732233601000000000',
    attributes: [
      s('gen_ai.operation.name', 'chat'),
      s('gen_ai.input.messages', JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'hi' }] }])),
      s('gen_ai.output.messages', JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'Hello.' }] }])),
    ],
  };
}
const jsonExport = (...spans: unknown[]) => ({ resourceSpans: [{ resource: { attributes: [s('service.name', 'bot')] }, scopeSpans: [{ spans }] }] });

/** The same spans as a protobuf ExportTraceServiceRequest (hex ids become bytes). */
function protobufExport(...spans: Record<string, unknown>[]): Buffer {
  const bytesOf = (hex: unknown) => (typeof hex === 'string' ? Buffer.from(hex, 'hex') : undefined);
  const message = REQUEST.fromObject({
    resourceSpans: [{ scopeSpans: [{ spans: spans.map((x) => ({ ...x, traceId: bytesOf(x.traceId), spanId: bytesOf(x.spanId) })) }] }],
  });
  return Buffer.from(REQUEST.encode(message).finish());
}

async function post(body: Buffer | string, headers: Record<string, string>) {
  const res = await fetch(`${svc.url}/v1/traces`, { method: 'POST', body, headers: { ...svc.authHeaders, ...headers } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}
const jsonOf = (r: { bytes: Buffer }) => JSON.parse(r.bytes.toString('utf8'));
const PROTOBUF = { 'Content-Type': 'application/x-protobuf' };
const JSON_TYPE = { 'Content-Type': 'application/json' };

describe('POST /v1/traces, OTLP responses', () => {
  it('answers a protobuf export 200 with an empty ExportTraceServiceResponse when every span was taken', async () => {
    const res = await post(protobufExport(chatSpan()), PROTOBUF);

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-protobuf');
    expect(res.bytes).toHaveLength(0);
  });

  it('answers partial success in protobuf: unreadable spans rejected, the rest stored', async () => {
    // Prepare
    const good = chatSpan();
    const noSpanId = { ...chatSpan(), spanId: undefined };

    // Act
    const res = await post(gzipSync(protobufExport(good, noSpanId)), { ...PROTOBUF, 'Content-Encoding': 'gzip' });

    // Assess
    expect(res.status).toBe(200);
    expect(RESPONSE.toObject(RESPONSE.decode(res.bytes), { longs: Number })).toEqual({
      partialSuccess: { rejectedSpans: 1, errorMessage: '1 span(s) without a valid trace id or span id' },
    });
    expect((await svc.api('GET', `/v1/traces/${otlpTraceUuid(svc.projectId, good.traceId)}`)).status).toBe(200);
  });

  it('answers JSON with partialSuccess (int64 as a string) and the summary: rts trace ids created and updated, span counts', async () => {
    // Prepare
    const first = chatSpan();
    await post(JSON.stringify(jsonExport(first)), JSON_TYPE);
    const next = { ...chatSpan(first.traceId), spanId: 'ef'.repeat(8), startTimeUnixNano: '1732233602000000000' };
    const fresh = chatSpan();
    const health = { traceId: 'ee'.repeat(16), spanId: '01'.repeat(8), name: 'GET /health', attributes: [s('http.route', '/health')] };

    // Act
    const res = await post(JSON.stringify(jsonExport(next, fresh, health, { name: 'no ids' })), JSON_TYPE);

    // Assess
    const body = jsonOf(res);
    const [updated, created] = [otlpTraceUuid(svc.projectId, first.traceId), otlpTraceUuid(svc.projectId, fresh.traceId)];
    expect(res.status).toBe(200);
    expect(body).toMatchObject({
      partialSuccess: { rejectedSpans: '1', errorMessage: '1 span(s) without a valid trace id or span id' },
      created: [created],
      updated: [updated],
      accepted_spans: 2,
      skipped_spans: 1,
      rejected_spans: 1,
    });
    expect(body.traces).toEqual([
      expect.objectContaining({ trace_id: updated, otlp_trace_id: first.traceId, result: 'updated', version: 2, step_count: 3, added_span_count: 1 }),
      expect.objectContaining({ trace_id: created, otlp_trace_id: fresh.traceId, result: 'created', version: 1, step_count: 2 }),
    ]);
    const stored = await svc.api('GET', `/v1/traces/${updated}`);
    expect(stored.body).toMatchObject({ version: 2, updated_at: expect.any(String), tags: ['otlp'] });
  });

  it('converts the OTLP/JSON fixtures it always took, now answering 200 with one entry per trace', async () => {
    const body = readFileSync(join(__dirname, '..', 'fixtures', 'otlp', 'two-traces.json'), 'utf8');

    const res = await post(body, JSON_TYPE);

    expect(res.status).toBe(200);
    expect(jsonOf(res).traces.map((t: { result: string }) => t.result)).toEqual(['created', 'created']);
    expect(jsonOf(res)).not.toHaveProperty('partialSuccess');
  });
});

describe('POST /v1/traces, unreadable, unsupported and oversized bodies', () => {
  it('answers a gzip bomb 413 payload_too_large, the limit counted after decompression', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });

    const res = await post(bomb, { ...PROTOBUF, 'Content-Encoding': 'gzip' });

    expect(bomb.length).toBeLessThan(100 * 1024);
    expect(res.status).toBe(413);
    expect(jsonOf(res).error).toMatchObject({ code: 'payload_too_large', message: expect.stringMatching(/after decompression/) });
  });

  it('answers 400 to a body that cannot be read at all: not protobuf, not gzip, not JSON', async () => {
    const notProto = await post(Buffer.from([0x0a, 0xff, 0xff, 0xff]), PROTOBUF);
    const notGzip = await post(Buffer.from([0x1f, 0x8b, 8, 0, 9, 9, 9]), { ...JSON_TYPE, 'Content-Encoding': 'gzip' });
    const notJson = await post(gzipSync('{"resourceSpans": ['), { ...JSON_TYPE, 'Content-Encoding': 'gzip' });

    expect([notProto.status, jsonOf(notProto).error.code]).toEqual([400, 'invalid_protobuf']);
    expect([notGzip.status, jsonOf(notGzip).error.code]).toEqual([400, 'invalid_json']);
    expect([notJson.status, jsonOf(notJson).error.code]).toEqual([400, 'invalid_json']);
  });

  it('answers 415 to other content types and content encodings, naming what it takes', async () => {
    const text = await post(JSON.stringify(jsonExport(chatSpan())), { 'Content-Type': 'text/plain' });
    const brotli = await post(JSON.stringify(jsonExport(chatSpan())), { ...JSON_TYPE, 'Content-Encoding': 'br' });

    expect([text.status, jsonOf(text).error.code]).toEqual([415, 'unsupported_media_type']);
    expect(jsonOf(text).error.message).toMatch(/application\/json or application\/x-protobuf/);
    expect([brotli.status, jsonOf(brotli).error.code]).toEqual([415, 'unsupported_media_type']);
  });
});

describe('POST /v1/traces, idempotency and the native format', () => {
  it('replays a protobuf answer byte for byte for the same Idempotency-Key', async () => {
    const body = protobufExport(chatSpan(), { ...chatSpan(), spanId: undefined });
    const headers = { ...PROTOBUF, 'Idempotency-Key': `otlp-${counter}` };

    const first = await post(body, headers);
    const again = await post(body, headers);

    expect(RESPONSE.toObject(RESPONSE.decode(first.bytes), { longs: Number })).toEqual({
      partialSuccess: { rejectedSpans: 1, errorMessage: '1 span(s) without a valid trace id or span id' },
    });
    expect(again).toMatchObject({ status: 200, bytes: first.bytes });
    expect(again.headers.get('content-type')).toBe('application/x-protobuf');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('still stores a native trace with 201, and takes it gzip-compressed too', async () => {
    const plain = await post(JSON.stringify(sampleTrace({ name: 'plain' })), JSON_TYPE);
    const gzipped = await post(gzipSync(JSON.stringify(sampleTrace({ name: 'gzipped' }))), { ...JSON_TYPE, 'Content-Encoding': 'gzip' });

    expect([plain.status, jsonOf(plain).name]).toEqual([201, 'plain']);
    expect([gzipped.status, jsonOf(gzipped).name]).toEqual([201, 'gzipped']);
  });
});

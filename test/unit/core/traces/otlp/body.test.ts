// The OTLP/HTTP body of POST /v1/traces: JSON or protobuf, gzip or not, the limit applied after decompression (a gzip
// bomb is a 413 decided within the limit, not an exhausted memory), and the 400/415 of the error model
// (docs/api.md#errors).
import { gzipSync } from 'node:zlib';
import { Root, type INamespace } from 'protobufjs';
import { AppError } from '../../../../../functions/core/errors';
import { bodyEncoding, readTraceBody } from '../../../../../functions/core/traces/otlp/body';
import { buildDescriptor } from '../../../../../functions/core/traces/otlp/proto/generate';

const LIMIT = 64 * 1024;
const EXPORT = { resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8), name: 'chat' }] }] }] };

function errorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('did not throw');
}

function protobufExport(): Buffer {
  const request = Root.fromJSON(buildDescriptor() as INamespace).lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
  const message = request.fromObject({
    resourceSpans: [
      { scopeSpans: [{ spans: [{ traceId: Buffer.from('ab'.repeat(16), 'hex'), spanId: Buffer.from('cd'.repeat(8), 'hex'), name: 'chat' }] }] },
    ],
  });
  return Buffer.from(request.encode(message).finish());
}

describe('bodyEncoding', () => {
  it('reads JSON and protobuf content types, parameters and case aside', () => {
    expect(bodyEncoding('application/json')).toBe('json');
    expect(bodyEncoding('Application/JSON; charset=utf-8')).toBe('json');
    expect(bodyEncoding('application/vnd.otlp+json')).toBe('json');
    expect(bodyEncoding('application/x-protobuf')).toBe('protobuf');
    expect(bodyEncoding('application/protobuf')).toBe('protobuf');
    expect(bodyEncoding('text/plain')).toBeNull();
    expect(bodyEncoding(undefined)).toBeNull();
  });
});

describe('readTraceBody', () => {
  it('parses JSON, plain or gzip-compressed, to the same body', () => {
    const raw = Buffer.from(JSON.stringify(EXPORT));

    expect(readTraceBody(raw, { 'content-type': 'application/json' }, LIMIT)).toEqual(EXPORT);
    expect(readTraceBody(gzipSync(raw), { 'content-type': 'application/json', 'content-encoding': 'gzip' }, LIMIT)).toEqual(EXPORT);
  });

  it('decodes protobuf, plain or gzip-compressed, into the OTLP/JSON shape', () => {
    const expected = {
      resourceSpans: [
        {
          resource: { attributes: [] },
          scopeSpans: [{ spans: [{ ...EXPORT.resourceSpans[0].scopeSpans[0].spans[0], attributes: [], events: [] }] }],
        },
      ],
    };

    expect(readTraceBody(protobufExport(), { 'content-type': 'application/x-protobuf' }, LIMIT)).toEqual(expected);
    expect(readTraceBody(gzipSync(protobufExport()), { 'content-type': 'application/x-protobuf', 'content-encoding': 'GZIP' }, LIMIT)).toEqual(
      expected,
    );
  });

  it('takes a body API Gateway already decompressed: Content-Encoding gzip on bytes without the gzip magic number', () => {
    expect(readTraceBody(Buffer.from(JSON.stringify(EXPORT)), { 'content-type': 'application/json', 'content-encoding': 'gzip' }, LIMIT)).toEqual(
      EXPORT,
    );
  });

  it('answers a gzip bomb with 413 once the output passes the limit, without inflating the rest', () => {
    // Prepare: 64 MiB of zeros in about 64 KiB of gzip.
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
    const rssBefore = process.memoryUsage().rss;

    // Act
    const err = errorOf(() => readTraceBody(bomb, { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' }, LIMIT));

    // Assess
    expect(bomb.length).toBeLessThan(LIMIT * 2);
    expect(err).toMatchObject({ status: 413, code: 'payload_too_large' });
    expect(err.message).toMatch(/after decompression/);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(32 * 1024 * 1024);
  });

  it('accepts a decompressed body of exactly the limit', () => {
    const raw = Buffer.from(JSON.stringify({ resourceSpans: [], pad: 'x'.repeat(LIMIT - 32) }));
    const exact = Buffer.concat([raw, Buffer.alloc(LIMIT - raw.length, ' ')]);

    expect(readTraceBody(gzipSync(exact), { 'content-type': 'application/json', 'content-encoding': 'gzip' }, LIMIT)).toMatchObject({
      resourceSpans: [],
    });
    expect(
      errorOf(() =>
        readTraceBody(gzipSync(Buffer.concat([exact, Buffer.from(' ')])), { 'content-type': 'application/json', 'content-encoding': 'gzip' }, LIMIT),
      ).status,
    ).toBe(413);
  });

  it('answers a broken gzip stream with the 400 of its content type', () => {
    const broken = Buffer.from([0x1f, 0x8b, 8, 0, 1, 2, 3, 4]);

    expect(errorOf(() => readTraceBody(broken, { 'content-type': 'application/json', 'content-encoding': 'gzip' }, LIMIT))).toMatchObject({
      status: 400,
      code: 'invalid_json',
    });
    expect(errorOf(() => readTraceBody(broken, { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' }, LIMIT))).toMatchObject({
      status: 400,
      code: 'invalid_protobuf',
    });
  });

  it('answers an unreadable body with 400: bad JSON, no JSON at all, bytes that are no export', () => {
    expect(errorOf(() => readTraceBody(Buffer.from('{"resourceSpans": ['), { 'content-type': 'application/json' }, LIMIT))).toMatchObject({
      status: 400,
      code: 'invalid_json',
    });
    expect(errorOf(() => readTraceBody(Buffer.alloc(0), { 'content-type': 'application/json' }, LIMIT))).toMatchObject({
      status: 400,
      code: 'invalid_json',
    });
    expect(errorOf(() => readTraceBody(Buffer.from([0x0a, 0xff, 0xff]), { 'content-type': 'application/x-protobuf' }, LIMIT))).toMatchObject({
      status: 400,
      code: 'invalid_protobuf',
    });
  });

  it('reads an empty protobuf body as an empty export', () => {
    expect(readTraceBody(Buffer.alloc(0), { 'content-type': 'application/x-protobuf' }, LIMIT)).toEqual({ resourceSpans: [] });
  });

  it('answers other content types and content encodings with 415', () => {
    const raw = Buffer.from(JSON.stringify(EXPORT));

    expect(errorOf(() => readTraceBody(raw, { 'content-type': 'text/plain' }, LIMIT))).toMatchObject({ status: 415, code: 'unsupported_media_type' });
    expect(errorOf(() => readTraceBody(raw, {}, LIMIT))).toMatchObject({ status: 415, code: 'unsupported_media_type' });
    expect(errorOf(() => readTraceBody(raw, { 'content-type': 'application/json', 'content-encoding': 'br' }, LIMIT))).toMatchObject({ status: 415 });
    expect(errorOf(() => readTraceBody(raw, { 'content-type': 'application/json', 'content-encoding': 'gzip, gzip' }, LIMIT))).toMatchObject({
      status: 415,
    });
    expect(readTraceBody(raw, { 'content-type': 'application/json', 'content-encoding': 'identity' }, LIMIT)).toEqual(EXPORT);
  });
});

describe('readTraceBody: doubles beyond the store range', () => {
  const exportWith = (doubleValue: number) =>
    JSON.stringify({
      resourceSpans: [{ scopeSpans: [{ spans: [{ attributes: [{ key: 'x', value: { arrayValue: { values: [{ doubleValue }] } } }] }] }] }],
    });
  const valueOf = (body: any) => body.resourceSpans[0].scopeSpans[0].spans[0].attributes[0].value.arrayValue.values[0].doubleValue;

  it.each([
    [1e126, '1e+126'],
    [-1e200, '-1e+200'],
    [1e-300, '1e-300'],
    [0.25, 0.25],
    [0, 0],
  ])('reads %p in OTLP/JSON as the protobuf reader does: %p', (d, expected) => {
    const body = readTraceBody(Buffer.from(exportWith(d)), { 'content-type': 'application/json' }, 1 << 20);
    expect(valueOf(body)).toBe(expected);
  });

  it('leaves a native trace upload alone', () => {
    const body = readTraceBody(Buffer.from(JSON.stringify({ name: 't', doubleValue: 1e126 })), { 'content-type': 'application/json' }, 1 << 20);
    expect(body).toEqual({ name: 't', doubleValue: 1e126 });
  });
});

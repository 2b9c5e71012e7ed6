// OTLP protobuf: the checked-in descriptor is the vendored .proto files compiled; requests decode into the OTLP/JSON
// shape exactly (ids in hex, int64 and nanoseconds as decimal strings, bytes in base64); responses encode partial success.
import { Root, type INamespace, type Type } from 'protobufjs';
import descriptor from '../../../../../functions/core/traces/otlp/proto/trace-service.json';
import { buildDescriptor } from '../../../../../functions/core/traces/otlp/proto/generate';
import { decodeExportRequest, encodeExportResponse } from '../../../../../functions/core/traces/otlp/read-proto';
import { readExport } from '../../../../../functions/core/traces/otlp/read-json';

/** The request and response types compiled afresh from the .proto files (the full protobufjs, not the checked-in JSON). */
function fromProtoFiles(): { request: Type; response: Type } {
  const root = Root.fromJSON(buildDescriptor() as INamespace);
  return {
    request: root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest'),
    response: root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse'),
  };
}

const hex = (h: string) => Buffer.from(h, 'hex');
const TRACE = '5b8efff798038103d269b633813fc60c';

function sampleRequest(request: Type): Uint8Array {
  const message = request.fromObject({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'support-bot' } }] },
        scopeSpans: [
          {
            scope: { name: 'openai-instrumentation', version: '1.0' },
            spans: [
              {
                traceId: hex(TRACE),
                spanId: hex('eee19b7ec3c1b174'),
                parentSpanId: hex('aaaaaaaaaaaaaaaa'),
                name: 'chat gpt-4o',
                kind: 3,
                startTimeUnixNano: '1700000000000000123',
                endTimeUnixNano: '1700000000250000456',
                attributes: [
                  { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
                  { key: 'gen_ai.usage.input_tokens', value: { intValue: '9007199254740993' } },
                  { key: 'temperature', value: { doubleValue: 0.25 } },
                  { key: 'tiny', value: { doubleValue: 1e-300 } },
                  { key: 'stream', value: { boolValue: false } },
                  { key: 'stop', value: { arrayValue: { values: [{ stringValue: 'END' }, { intValue: '7' }] } } },
                  { key: 'extra', value: { kvlistValue: { values: [{ key: 'k', value: { stringValue: 'v' } }] } } },
                  { key: 'raw', value: { bytesValue: Buffer.from('hi') } },
                  { key: 'empty', value: {} },
                ],
                events: [
                  {
                    timeUnixNano: '1700000000100000000',
                    name: 'gen_ai.user.message',
                    attributes: [{ key: 'content', value: { stringValue: 'hello' } }],
                  },
                ],
                status: { code: 2, message: 'rate limited' },
              },
              { traceId: hex(TRACE), spanId: hex('0102030405060708'), name: 'no times' },
            ],
          },
        ],
      },
    ],
  });
  return request.encode(message).finish();
}

describe('the protobuf descriptor', () => {
  it('is what the vendored .proto files compile to (run proto/generate.ts after changing them)', () => {
    expect(JSON.parse(JSON.stringify(buildDescriptor()))).toEqual(descriptor);
  });
});

describe('decodeExportRequest', () => {
  it('decodes a request encoded from the .proto files into the OTLP/JSON shape', () => {
    // Prepare
    const bytes = sampleRequest(fromProtoFiles().request);

    // Act
    const decoded = decodeExportRequest(bytes);

    // Assess
    expect(decoded).toEqual({
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'support-bot' } }] },
          scopeSpans: [
            {
              spans: [
                {
                  traceId: TRACE,
                  spanId: 'eee19b7ec3c1b174',
                  parentSpanId: 'aaaaaaaaaaaaaaaa',
                  name: 'chat gpt-4o',
                  startTimeUnixNano: '1700000000000000123',
                  endTimeUnixNano: '1700000000250000456',
                  attributes: [
                    { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
                    { key: 'gen_ai.usage.input_tokens', value: { intValue: '9007199254740993' } },
                    { key: 'temperature', value: { doubleValue: 0.25 } },
                    { key: 'tiny', value: { doubleValue: '1e-300' } },
                    { key: 'stream', value: { boolValue: false } },
                    { key: 'stop', value: { arrayValue: { values: [{ stringValue: 'END' }, { intValue: '7' }] } } },
                    { key: 'extra', value: { kvlistValue: { values: [{ key: 'k', value: { stringValue: 'v' } }] } } },
                    { key: 'raw', value: { bytesValue: Buffer.from('hi').toString('base64') } },
                    { key: 'empty', value: {} },
                  ],
                  events: [
                    {
                      name: 'gen_ai.user.message',
                      timeUnixNano: '1700000000100000000',
                      attributes: [{ key: 'content', value: { stringValue: 'hello' } }],
                    },
                  ],
                  status: { code: 2, message: 'rate limited' },
                },
                { traceId: TRACE, spanId: '0102030405060708', name: 'no times', attributes: [], events: [] },
              ],
            },
          ],
        },
      ],
    });
  });

  it('reads into the same spans as the equivalent OTLP/JSON, nanoseconds exact', () => {
    // Act
    const { spans } = readExport(decodeExportRequest(sampleRequest(fromProtoFiles().request)));

    // Assess
    expect(spans[0]).toMatchObject({
      traceId: TRACE,
      spanId: 'eee19b7ec3c1b174',
      parentId: 'aaaaaaaaaaaaaaaa',
      start: '1700000000000000123',
      end: '1700000000250000456',
      isError: true,
      statusMessage: 'rate limited',
      resource: { 'service.name': 'support-bot' },
      attrs: { 'gen_ai.usage.input_tokens': '9007199254740993', temperature: 0.25, tiny: 1e-300, stop: ['END', 7], extra: { k: 'v' } },
    });
    expect(spans[1]).not.toHaveProperty('start');
    expect(spans[1]).not.toHaveProperty('parentId');
  });

  it('decodes an empty body as an export without spans', () => {
    expect(decodeExportRequest(new Uint8Array())).toEqual({ resourceSpans: [] });
  });

  it('throws on bytes that are not an ExportTraceServiceRequest', () => {
    expect(() => decodeExportRequest(Buffer.from('{"resourceSpans":[]}'))).toThrow();
    expect(() => decodeExportRequest(Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f]))).toThrow();
  });

  it('cuts attribute values nested past 20 levels (protobufjs refuses 100 message levels), so the body stays within the route depth limit', () => {
    // Prepare
    let value: Record<string, unknown> = { stringValue: 'leaf' };
    for (let i = 0; i < 25; i++) value = { kvlistValue: { values: [{ key: `k${i}`, value }] } };
    const { request } = fromProtoFiles();
    const bytes = request
      .encode(
        request.fromObject({
          resourceSpans: [
            { scopeSpans: [{ spans: [{ traceId: hex(TRACE), spanId: hex('0102030405060708'), attributes: [{ key: 'deep', value }] }] }] },
          ],
        }),
      )
      .finish();

    // Act
    const text = JSON.stringify(decodeExportRequest(bytes));

    // Assess
    expect(text).toContain('[nested too deep]');
    expect(text).not.toContain('leaf');
  });
});

describe('encodeExportResponse', () => {
  it('encodes partial success so that the .proto definitions read it back', () => {
    const bytes = encodeExportResponse({ rejectedSpans: 3, errorMessage: '3 spans without a span id' });

    const decoded = fromProtoFiles().response.toObject(fromProtoFiles().response.decode(bytes), { longs: Number });

    expect(decoded).toEqual({ partialSuccess: { rejectedSpans: 3, errorMessage: '3 spans without a span id' } });
  });

  it('is empty when everything was accepted (partial_success unset)', () => {
    expect(encodeExportResponse()).toHaveLength(0);
  });
});

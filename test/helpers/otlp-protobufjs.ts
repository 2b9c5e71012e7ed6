// The OTLP protobuf reader as it was with protobufjs (its light build and the checked-in descriptor): the reference
// the service's own wire reader (functions/core/traces/otlp/read-proto.ts) is compared with, byte for byte.
import { Root, type INamespace, type Message, type Type } from 'protobufjs/light';
import descriptor from '../../functions/core/traces/otlp/proto/trace-service.json';
import { MAX_VALUE_DEPTH, NESTED_TOO_DEEP, storableDouble } from '../../functions/core/traces/otlp/util';

const PACKAGE = 'opentelemetry.proto.collector.trace.v1';

let types: { request: Type; response: Type } | undefined;

function messageTypes(): { request: Type; response: Type } {
  if (!types) {
    const root = Root.fromJSON(descriptor as INamespace);
    types = { request: root.lookupType(`${PACKAGE}.ExportTraceServiceRequest`), response: root.lookupType(`${PACKAGE}.ExportTraceServiceResponse`) };
  }
  return types;
}

type Decoded = Message & Record<string, unknown>;
type Json = Record<string, unknown>;

/** Decodes a protobuf ExportTraceServiceRequest; throws (protobufjs's error) when the bytes are not one. */
export function decodeExportRequest(bytes: Uint8Array): { resourceSpans: Json[] } {
  const message = messageTypes().request.decode(bytes) as Decoded;
  return { resourceSpans: list(message.resourceSpans).map((element) => resourceSpans(element)) };
}

/** Encodes an ExportTraceServiceResponse; without rejections or a message it is empty (partial_success unset). */
export function encodeExportResponse(partial?: { rejectedSpans: number; errorMessage: string }): Uint8Array {
  const { response } = messageTypes();
  return response.encode(response.create(partial ? { partialSuccess: partial } : {})).finish();
}

function list(v: unknown): Decoded[] {
  return Array.isArray(v) ? (v as Decoded[]) : [];
}

function resourceSpans(rs: Decoded): Json {
  const resource = rs.resource as Decoded | null | undefined;
  return {
    resource: { attributes: list(resource?.attributes).map((kv) => keyValue(kv)) },
    scopeSpans: list(rs.scopeSpans).map((scope) => ({ spans: list(scope.spans).map((element) => span(element)) })),
  };
}

function span(s: Decoded): Json {
  const status = s.status as Decoded | null | undefined;
  return {
    traceId: hex(s.traceId),
    spanId: hex(s.spanId),
    ...(hex(s.parentSpanId) ? { parentSpanId: hex(s.parentSpanId) } : {}),
    name: typeof s.name === 'string' ? s.name : '',
    ...time('startTimeUnixNano', s.startTimeUnixNano),
    ...time('endTimeUnixNano', s.endTimeUnixNano),
    attributes: list(s.attributes).map((kv) => keyValue(kv)),
    events: list(s.events).map((e) => ({
      name: typeof e.name === 'string' ? e.name : '',
      ...time('timeUnixNano', e.timeUnixNano),
      attributes: list(e.attributes).map((kv) => keyValue(kv)),
    })),
    ...(status ? { status: { code: Number(status.code ?? 0), ...(status.message ? { message: status.message } : {}) } } : {}),
  };
}

function keyValue(kv: Decoded, depth = 0): Json {
  return { key: typeof kv.key === 'string' ? kv.key : '', value: anyValue(kv.value as Decoded | null | undefined, depth) };
}

/** AnyValue as OTLP/JSON writes it: int64 as a decimal string, bytes in base64, non-finite doubles as strings. */
function anyValue(v: Decoded | null | undefined, depth: number): Json {
  if (!v) return {};
  if (depth >= MAX_VALUE_DEPTH) return { stringValue: NESTED_TOO_DEEP };
  switch (v.value) {
    case 'stringValue':
      return { stringValue: v.stringValue };
    case 'boolValue':
      return { boolValue: v.boolValue };
    case 'intValue':
      return { intValue: String(v.intValue) };
    case 'doubleValue':
      return { doubleValue: storableDouble(Number(v.doubleValue)) };
    case 'arrayValue':
      return { arrayValue: { values: list((v.arrayValue as Decoded | null)?.values).map((x) => anyValue(x, depth + 1)) } };
    case 'kvlistValue':
      return { kvlistValue: { values: list((v.kvlistValue as Decoded | null)?.values).map((kv) => keyValue(kv, depth + 1)) } };
    case 'bytesValue':
      return { bytesValue: Buffer.from(v.bytesValue as Uint8Array).toString('base64') };
    default:
      return {};
  }
}

function hex(v: unknown): string {
  return v instanceof Uint8Array ? Buffer.from(v).toString('hex') : '';
}

/** fixed64 nanoseconds (a Long) as a decimal string; 0 is the protobuf default, i.e. not set. */
function time(key: string, v: unknown): Json {
  const text = v === undefined || v === null ? '0' : String(v);
  return text === '0' ? {} : { [key]: text };
}

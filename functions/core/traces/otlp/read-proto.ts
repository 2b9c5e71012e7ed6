// OTLP protobuf: decodes ExportTraceServiceRequest into the OTLP/JSON shape read-json.ts reads, and encodes responses.
// The messages are those of the official .proto files (proto/, the fields by number below, held to the vendored
// definitions by test/unit/core/traces/otlp/proto-wire.test.ts), read by the wire reader of proto-wire.ts: every
// declared field is read as its declared type, unknown ones skipped, as protobufjs's decoder does.
import { WireReader, writeVarint } from './proto-wire';
import { MAX_VALUE_DEPTH, NESTED_TOO_DEEP, storableDouble } from './util';

type Scalar = 'string' | 'bytes' | 'uint32' | 'int32' | 'int64' | 'fixed32' | 'fixed64' | 'double' | 'bool';
interface FieldDef {
  name: string;
  type: Scalar | MessageDef;
  repeated?: true;
}
/** A message's fields by number. */
type MessageDef = Record<number, FieldDef>;

const one = (name: string, type: FieldDef['type']): FieldDef => ({ name, type });
const many = (name: string, type: FieldDef['type']): FieldDef => ({ name, type, repeated: true });

const ANY_VALUE: MessageDef = {};
const KEY_VALUE: MessageDef = { 1: one('key', 'string'), 2: one('value', ANY_VALUE), 3: one('keyStrindex', 'int32') };
Object.assign(ANY_VALUE, {
  1: one('stringValue', 'string'),
  2: one('boolValue', 'bool'),
  3: one('intValue', 'int64'),
  4: one('doubleValue', 'double'),
  5: one('arrayValue', { 1: many('values', ANY_VALUE) }),
  6: one('kvlistValue', { 1: many('values', KEY_VALUE) }),
  7: one('bytesValue', 'bytes'),
  8: one('stringValueStrindex', 'int32'),
});
/** AnyValue's `value` oneof, in declaration order. */
const ANY_VALUE_ONEOF = new Set(Object.values(ANY_VALUE).map((f: FieldDef) => f.name));

const RESOURCE: MessageDef = {
  1: many('attributes', KEY_VALUE),
  2: one('droppedAttributesCount', 'uint32'),
  3: many('entityRefs', {
    1: one('schemaUrl', 'string'),
    2: one('type', 'string'),
    3: many('idKeys', 'string'),
    4: many('descriptionKeys', 'string'),
  }),
};
const SCOPE: MessageDef = {
  1: one('name', 'string'),
  2: one('version', 'string'),
  3: many('attributes', KEY_VALUE),
  4: one('droppedAttributesCount', 'uint32'),
};
const EVENT: MessageDef = {
  1: one('timeUnixNano', 'fixed64'),
  2: one('name', 'string'),
  3: many('attributes', KEY_VALUE),
  4: one('droppedAttributesCount', 'uint32'),
};
const LINK: MessageDef = {
  1: one('traceId', 'bytes'),
  2: one('spanId', 'bytes'),
  3: one('traceState', 'string'),
  4: many('attributes', KEY_VALUE),
  5: one('droppedAttributesCount', 'uint32'),
  6: one('flags', 'fixed32'),
};
const SPAN: MessageDef = {
  1: one('traceId', 'bytes'),
  2: one('spanId', 'bytes'),
  3: one('traceState', 'string'),
  4: one('parentSpanId', 'bytes'),
  16: one('flags', 'fixed32'),
  5: one('name', 'string'),
  6: one('kind', 'int32'),
  7: one('startTimeUnixNano', 'fixed64'),
  8: one('endTimeUnixNano', 'fixed64'),
  9: many('attributes', KEY_VALUE),
  10: one('droppedAttributesCount', 'uint32'),
  11: many('events', EVENT),
  12: one('droppedEventsCount', 'uint32'),
  13: many('links', LINK),
  14: one('droppedLinksCount', 'uint32'),
  15: one('status', { 2: one('message', 'string'), 3: one('code', 'int32') }),
};
const SCOPE_SPANS: MessageDef = { 1: one('scope', SCOPE), 2: many('spans', SPAN), 3: one('schemaUrl', 'string') };
const RESOURCE_SPANS: MessageDef = { 1: one('resource', RESOURCE), 2: many('scopeSpans', SCOPE_SPANS), 3: one('schemaUrl', 'string') };
/** ExportTraceServiceRequest (opentelemetry.proto.collector.trace.v1). */
export const EXPORT_REQUEST: MessageDef = { 1: many('resourceSpans', RESOURCE_SPANS) };

type Decoded = Record<string, unknown>;
type Json = Record<string, unknown>;

/** One message of `def` (`length` bytes, or the rest of the buffer at the top level), fields in the order read. */
function decodeMessage(r: WireReader, def: MessageDef, length: number | undefined, depth: number): Decoded {
  return r.message(
    (): Decoded => ({}),
    (m, id, tag, d) => {
      const f = def[id];
      if (!f) return r.skipType(tag & 7, d);
      const value = typeof f.type === 'string' ? r[f.type]() : decodeMessage(r, f.type, r.uint32(), d + 1);
      if (!f.repeated) m[f.name] = value;
      else if (Array.isArray(m[f.name])) (m[f.name] as unknown[]).push(value);
      else m[f.name] = [value];
    },
    length,
    depth,
  );
}

/** Decodes a protobuf ExportTraceServiceRequest; throws when the bytes are not one. */
export function decodeExportRequest(bytes: Uint8Array): { resourceSpans: Json[] } {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const message = decodeMessage(new WireReader(buf), EXPORT_REQUEST, undefined, 0);
  return { resourceSpans: list(message.resourceSpans).map((element) => resourceSpans(element)) };
}

/**
 * Encodes an ExportTraceServiceResponse; without rejections or a message it is empty (partial_success unset). The
 * partial success writes rejected_spans (1, int64) and error_message (2, string) when given, zeros included.
 */
export function encodeExportResponse(partial?: { rejectedSpans: number; errorMessage?: string }): Buffer {
  if (!partial) return Buffer.alloc(0);
  const inner: number[] = [];
  if (partial.rejectedSpans !== undefined && partial.rejectedSpans !== null) {
    inner.push(0x08);
    writeVarint(inner, partial.rejectedSpans);
  }
  const text = partial.errorMessage !== undefined && partial.errorMessage !== null ? utf8(partial.errorMessage) : undefined;
  if (text) {
    inner.push(0x12);
    writeVarint(inner, text.length);
  }
  const head = [0x0a];
  writeVarint(head, inner.length + (text?.length ?? 0));
  return Buffer.concat([Buffer.from(head), Buffer.from(inner), ...(text ? [text] : [])]);
}

/**
 * A string's UTF-8 bytes as protobufjs writes them: under 40 characters by its own encoder, which writes a lone
 * surrogate as its three bytes where Buffer writes U+FFFD (the same length).
 */
function utf8(text: string): Buffer {
  if (text.length >= 40) return Buffer.from(text, 'utf8');
  const out = Buffer.alloc(Buffer.byteLength(text));
  let o = 0;
  for (let i = 0; i < text.length; ++i) {
    let c = text.charCodeAt(i);
    if (c < 128) out[o++] = c;
    else if (c < 2048) {
      out[o++] = (c >> 6) | 192;
      out[o++] = (c & 63) | 128;
    } else if ((c & 0xfc00) === 0xd800 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      c = 0x10000 + ((c & 0x03ff) << 10) + (text.charCodeAt(++i) & 0x03ff);
      out[o++] = (c >> 18) | 240;
      out[o++] = ((c >> 12) & 63) | 128;
      out[o++] = ((c >> 6) & 63) | 128;
      out[o++] = (c & 63) | 128;
    } else {
      out[o++] = (c >> 12) | 224;
      out[o++] = ((c >> 6) & 63) | 128;
      out[o++] = (c & 63) | 128;
    }
  }
  return out;
}

/** The member of AnyValue's oneof that is set, as protobufjs's getter answers it: the last one added that is not null. */
function oneofCase(v: Decoded): string | undefined {
  const keys = Object.keys(v);
  for (let i = keys.length - 1; i > -1; --i) if (ANY_VALUE_ONEOF.has(keys[i]) && v[keys[i]] !== undefined && v[keys[i]] !== null) return keys[i];
  return undefined;
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
  switch (oneofCase(v)) {
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

/** fixed64 nanoseconds as a decimal string; 0 is the protobuf default, i.e. not set. */
function time(key: string, v: unknown): Json {
  const text = v === undefined || v === null ? '0' : String(v);
  return text === '0' ? {} : { [key]: text };
}

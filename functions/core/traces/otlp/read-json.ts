// Reading OTLP/JSON (and protobuf exports already turned into the same shape by read-proto.ts) into Span records.
import type { Attrs, Span } from './types';
import { MAX_VALUE_DEPTH, NESTED_TOO_DEEP, arr, isObj, scalarNumber, scalarText, str } from './util';

/** The resource attributes the converter reads; the others are not kept with the spans. */
const RESOURCE_KEYS = ['service.name', 'service.version'];

/** True when a request body is an OTLP trace export (`{"resourceSpans": [...]}`) rather than a native trace. */
export function isOtlpExport(body: unknown): body is { resourceSpans: unknown[] } {
  return isObj(body) && Array.isArray(body.resourceSpans);
}

/** The spans of an export, in export order, and how many span entries could not be read at all (no trace id). */
export function readExport(body: { resourceSpans: unknown[] }): { spans: Span[]; unreadable: number } {
  const spans: Span[] = [];
  let unreadable = 0;
  for (const rs of body.resourceSpans) {
    if (!isObj(rs)) continue;
    const all = decodeAttrs(isObj(rs.resource) ? rs.resource.attributes : undefined);
    const resource: Attrs = {};
    for (const key of RESOURCE_KEYS) if (all[key] !== undefined) resource[key] = all[key];
    // instrumentationLibrarySpans is the pre-1.0 OTLP name of scopeSpans; old collectors still send it.
    const scopes = [...arr(rs.scopeSpans), ...arr(rs.instrumentationLibrarySpans)];
    for (const scope of scopes) {
      if (!isObj(scope)) continue;
      for (const raw of arr(scope.spans)) {
        const span = readSpan(raw, resource);
        if (span) spans.push(span);
        else unreadable += 1;
      }
    }
  }
  return { spans, unreadable };
}

function readSpan(raw: unknown, resource: Attrs): Span | undefined {
  if (!isObj(raw)) return undefined;
  const traceId = hexId(raw.traceId);
  if (!traceId) return undefined;
  const status = isObj(raw.status) ? raw.status : {};
  const code = status.code;
  const span: Span = {
    traceId,
    name: typeof raw.name === 'string' ? raw.name : '',
    attrs: decodeAttrs(raw.attributes),
    resource,
    events: arr(raw.events)
      .filter((element) => isObj(element))
      .map((e) => {
        const body = decodeValue(e.body, 0);
        return { name: str(e.name) ?? '', ...opt('time', nanos(e.timeUnixNano)), attrs: decodeAttrs(e.attributes), ...opt('body', body) };
      }),
    isError: code === 2 || code === '2' || code === 'STATUS_CODE_ERROR' || code === 'ERROR',
    ...opt('spanId', hexId(raw.spanId)),
    ...opt('parentId', hexId(raw.parentSpanId)),
    ...opt('start', nanos(raw.startTimeUnixNano)),
    ...opt('end', nanos(raw.endTimeUnixNano)),
    ...opt('statusMessage', str(status.message)),
  };
  return span;
}

/** `{[key]: value}` when the value is defined, else nothing: stored spans carry no undefined fields. */
function opt<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** Ids are hex in OTLP/JSON; hex is compared lowercase. Anything else non-blank is kept as it is. */
function hexId(v: unknown): string | undefined {
  const s = str(v)?.trim();
  if (!s) return undefined;
  return /^[0-9a-f]+$/i.test(s) ? s.toLowerCase() : s;
}

/** OTLP attributes are `[{key, value: AnyValue}]`; a plain object map is accepted too. */
export function decodeAttrs(raw: unknown): Attrs {
  return attrsAt(raw, 0);
}

/** Attributes whose values sit `depth` AnyValue levels deep (0 for a span's own). */
function attrsAt(raw: unknown, depth: number): Attrs {
  const out: Attrs = {};
  if (Array.isArray(raw)) {
    for (const kv of raw) if (isObj(kv) && typeof kv.key === 'string') out[kv.key] = decodeValue(kv.value, depth);
  } else if (isObj(raw)) {
    for (const [key, value] of Object.entries(raw)) out[key] = decodeValue(value, depth);
  }
  return out;
}

function decodeValue(v: unknown, depth: number): unknown {
  if (!isObj(v)) return v;
  if (depth >= MAX_VALUE_DEPTH) return NESTED_TOO_DEEP;
  // Values of the wrong type are read without running any of their code (scalarText, scalarNumber): an export is data.
  if ('stringValue' in v) return scalarText(v.stringValue);
  if ('boolValue' in v) return v.boolValue === true || v.boolValue === 'true';
  if ('intValue' in v) {
    // int64 arrives as a JSON string; keep the string when a number would lose precision.
    const n = scalarNumber(v.intValue);
    return Number.isSafeInteger(n) ? n : scalarText(v.intValue);
  }
  if ('doubleValue' in v) return scalarNumber(v.doubleValue);
  if ('arrayValue' in v) return arr(isObj(v.arrayValue) ? v.arrayValue.values : undefined).map((x) => decodeValue(x, depth + 1));
  if ('kvlistValue' in v) return attrsAt(isObj(v.kvlistValue) ? v.kvlistValue.values : undefined, depth + 1);
  if ('bytesValue' in v) return str(v.bytesValue);
  return v;
}

/** Nanosecond timestamps as decimal strings (they exceed 2^53). */
function nanos(v: unknown): string | undefined {
  if (typeof v === 'string' && /^\d+$/.test(v.trim())) return BigInt(v.trim()).toString();
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return BigInt(Math.round(v)).toString();
  return undefined;
}

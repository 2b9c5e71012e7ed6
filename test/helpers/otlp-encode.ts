// OTLP/JSON exports encoded as protobuf the way an exporter does, with the message definitions compiled from the
// vendored .proto files by the full protobufjs (not the service's decoder): what an `application/x-protobuf` client sends.
import { Root, type INamespace, type Type } from 'protobufjs';
import { buildDescriptor } from '../../functions/core/traces/otlp/proto/generate';

let request: Type | undefined;

function requestType(): Type {
  request ??= Root.fromJSON(buildDescriptor() as INamespace).lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
  return request;
}

/** OTLP/JSON ids are hex; protobuf carries the bytes. Everything else in OTLP/JSON is protobuf's own JSON mapping. */
function idsAsBytes(node: unknown, key = ''): unknown {
  if (Array.isArray(node)) return node.map((v) => idsAsBytes(v));
  if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, idsAsBytes(v, k)]));
  if (typeof node === 'string' && ['traceId', 'spanId', 'parentSpanId'].includes(key)) return Buffer.from(node, 'hex');
  return node;
}

/** The protobuf bytes of an OTLP/JSON ExportTraceServiceRequest. */
export function encodeOtlpJson(body: { resourceSpans: unknown[] }): Uint8Array {
  const type = requestType();
  return type.encode(type.fromObject(idsAsBytes(body) as Record<string, unknown>)).finish();
}

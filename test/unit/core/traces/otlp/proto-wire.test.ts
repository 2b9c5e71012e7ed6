// The service's own protobuf reader against protobufjs (the reader it replaced, test/helpers/otlp-protobufjs.ts): its
// message table is the vendored descriptor's, and any export, whole, damaged or random bytes, decodes to the same
// JSON text or fails in both; responses encode to the same bytes.
import fc from 'fast-check';
import descriptor from '../../../../../functions/core/traces/otlp/proto/trace-service.json';
import { EXPORT_REQUEST, decodeExportRequest, encodeExportResponse } from '../../../../../functions/core/traces/otlp/read-proto';
import * as reference from '../../../../helpers/otlp-protobufjs';
import { encodeOtlpJson } from '../../../../helpers/otlp-encode';
import { openLlmetryExport, otlpExport } from '../../../../helpers/otlp-arbitraries';

interface DescField {
  rule?: string;
  type: string;
  id: number;
}
interface DescNode {
  nested?: Record<string, DescNode>;
  fields?: Record<string, DescField>;
  values?: Record<string, number>;
}

/** The descriptor node of a type name as written in `scope` (protobuf's lookup: innermost scope outwards). */
function resolve(scope: string[], name: string): { path: string[]; node: DescNode } {
  for (let i = scope.length; i >= 0; i--) {
    const path = [...scope.slice(0, i), ...name.split('.')];
    let node: DescNode | undefined = descriptor as DescNode;
    for (const part of path) node = node?.nested?.[part];
    if (node) return { path, node };
  }
  throw new Error(`unresolved ${name} in ${scope.join('.')}`);
}

const SCALARS = new Set(['string', 'bytes', 'uint32', 'int32', 'int64', 'fixed32', 'fixed64', 'double', 'bool']);

/** A message of the descriptor as the reader's table writes it: number -> [name, type, repeated], messages nested. */
function fromDescriptor(path: string[], node: DescNode, seen: Map<DescNode, unknown>): unknown {
  if (seen.has(node)) return seen.get(node);
  const out: Record<number, unknown> = {};
  seen.set(node, out);
  for (const [name, f] of Object.entries(node.fields ?? {})) {
    const scalar = SCALARS.has(f.type);
    const target = scalar ? undefined : resolve(path, f.type);
    const type = scalar ? f.type : target!.node.values ? 'int32' : fromDescriptor(target!.path, target!.node, seen);
    out[f.id] = [name, type, f.rule === 'repeated'];
  }
  return out;
}

function fromTable(def: Record<number, { name: string; type: unknown; repeated?: true }>, seen: Map<object, unknown>): unknown {
  if (seen.has(def)) return seen.get(def);
  const out: Record<number, unknown> = {};
  seen.set(def, out);
  for (const [id, f] of Object.entries(def)) {
    out[Number(id)] = [f.name, typeof f.type === 'string' ? f.type : fromTable(f.type as typeof def, seen), f.repeated === true];
  }
  return out;
}

/** What each reader makes of the bytes: the JSON text of the decoded export, or `throws`. */
function outcome(read: (b: Uint8Array) => unknown, bytes: Buffer): string {
  try {
    return JSON.stringify(read(bytes));
  } catch {
    return 'throws';
  }
}

const sameAsProtobufjs = (bytes: Buffer) => expect(outcome(decodeExportRequest, bytes)).toBe(outcome(reference.decodeExportRequest, bytes));

describe('the protobuf message table', () => {
  it('is the vendored descriptor: every field of every message reached from ExportTraceServiceRequest, by number and type', () => {
    const path = ['opentelemetry', 'proto', 'collector', 'trace', 'v1'];
    const root = resolve(path, 'ExportTraceServiceRequest');
    expect(fromTable(EXPORT_REQUEST as never, new Map())).toEqual(fromDescriptor(root.path.slice(0, -1), root.node, new Map()));
  });
});

describe('decodeExportRequest reads as protobufjs read', () => {
  it('any generated export, whole', () => {
    fc.assert(
      fc.property(otlpExport(), (body) => sameAsProtobufjs(Buffer.from(encodeOtlpJson(body)))),
      { numRuns: 150 },
    );
  });

  it('any generated export damaged: bytes changed, cut or inserted', () => {
    const damage = fc.array(fc.tuple(fc.constantFrom('set', 'cut', 'insert'), fc.nat(), fc.integer({ min: 0, max: 255 })), {
      minLength: 1,
      maxLength: 4,
    });
    fc.assert(
      fc.property(otlpExport(), damage, (body, changes) => {
        let bytes = Buffer.from(encodeOtlpJson(body));
        for (const [kind, at, value] of changes) {
          const i = bytes.length ? at % bytes.length : 0;
          if (kind === 'set' && bytes.length) bytes[i] = value;
          else if (kind === 'cut') bytes = bytes.subarray(0, i);
          else bytes = Buffer.concat([bytes.subarray(0, i), Buffer.from([value]), bytes.subarray(i)]);
        }
        sameAsProtobufjs(bytes);
      }),
      { numRuns: 400 },
    );
  });

  it('random bytes, and messages built of valid tags with any wire type', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => sameAsProtobufjs(Buffer.from(bytes))),
      { numRuns: 500 },
    );
    const field = fc.tuple(fc.integer({ min: 1, max: 16 }), fc.integer({ min: 0, max: 7 }), fc.uint8Array({ maxLength: 12 }));
    fc.assert(
      fc.property(fc.array(field, { maxLength: 8 }), (fields) => {
        const parts = fields.map(([id, wire, payload]) => Buffer.concat([Buffer.from([(id << 3) | wire]), Buffer.from([payload.length]), payload]));
        sameAsProtobufjs(Buffer.concat([Buffer.from([0x0a, parts.reduce((n, p) => n + p.length, 0) & 0x7f]), ...parts]));
      }),
      { numRuns: 500 },
    );
  });

  it('an OpenLLMetry export, and one given as a Uint8Array rather than a Buffer', () => {
    const bytes = encodeOtlpJson(openLlmetryExport({ padding: 10, seed: 7 }));
    expect(outcome(decodeExportRequest, bytes as Buffer)).toBe(outcome(reference.decodeExportRequest, Buffer.from(bytes)));
    expect(JSON.stringify(decodeExportRequest(new Uint8Array(bytes)))).toBe(outcome(reference.decodeExportRequest, Buffer.from(bytes)));
  });
});

describe('encodeExportResponse writes as protobufjs wrote', () => {
  it('nothing, and any partial success (messages with lone surrogates, long and short)', () => {
    expect(Buffer.from(encodeExportResponse())).toEqual(Buffer.from(reference.encodeExportResponse()));
    fc.assert(
      fc.property(fc.nat({ max: 2 ** 40 }), fc.string({ unit: 'binary', maxLength: 60 }), (rejectedSpans, errorMessage) => {
        const partial = { rejectedSpans, errorMessage };
        expect(Buffer.from(encodeExportResponse(partial)).toString('hex')).toBe(Buffer.from(reference.encodeExportResponse(partial)).toString('hex'));
      }),
      { numRuns: 300 },
    );
  });
});

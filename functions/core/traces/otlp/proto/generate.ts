// Compiles the vendored OTLP .proto files into the protobufjs JSON descriptor that read-proto.ts imports (see README.md).
import { writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { Root } from 'protobufjs';

const PROTO_DIR = __dirname;
const ENTRY = 'opentelemetry/proto/collector/trace/v1/trace_service.proto';
export const DESCRIPTOR_FILE = join(PROTO_DIR, 'trace-service.json');

/** The descriptor of ExportTraceServiceRequest/Response and everything they reference, as protobufjs's `toJSON` gives it. */
export function buildDescriptor(): Record<string, unknown> {
  const root = new Root();
  // Imports name paths from the repository root of opentelemetry-proto, which is this folder.
  root.resolvePath = (_origin, target) => (isAbsolute(target) ? target : join(PROTO_DIR, target));
  root.loadSync(ENTRY, { keepCase: false });
  root.resolveAll();
  return root.toJSON({ keepComments: false }) as Record<string, unknown>;
}

if (require.main === module) {
  writeFileSync(DESCRIPTOR_FILE, `${JSON.stringify(buildDescriptor(), null, 2)}\n`);
  process.stdout.write(`wrote ${DESCRIPTOR_FILE}\n`);
}

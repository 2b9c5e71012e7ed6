// The OpenAPI document as GET /v1/openapi.json serves it. In a Lambda bundle it was generated at bundling and inlined
// compressed (lib/constructs/bundling.ts), so the function carries neither the schemas nor zod-to-openapi; from source
// (local service, tests) it is generated from the route table on first use.
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { servedAt } from '../core/openapi/servers';

/** Replaced at bundling with the encoded document (esbuild `define`); undeclared when running from source. */
declare const RTS_OPENAPI_DOCUMENT: string | undefined;

/** The global that bundling defines as the encoded document. */
export const OPENAPI_DOCUMENT_GLOBAL = 'RTS_OPENAPI_DOCUMENT';

/** How bundling inlines the document: minified JSON, brotli, base64. */
export function encodeOpenApiDocument(document: Record<string, unknown>): string {
  return brotliCompressSync(JSON.stringify(document)).toString('base64');
}

let document: Record<string, unknown> | undefined;

/** The document, with `serverUrl` (the base URL it was requested at) as its server when given. */
export function servedOpenApiDocument(serverUrl?: string): Record<string, unknown> {
  // Requires in a ternary, not imports: in a bundle esbuild folds the ternary and drops them with the dead branch.
  document ??=
    typeof RTS_OPENAPI_DOCUMENT === 'string'
      ? (JSON.parse(brotliDecompressSync(Buffer.from(RTS_OPENAPI_DOCUMENT, 'base64')).toString('utf8')) as Record<string, unknown>)
      : // eslint-disable-next-line @typescript-eslint/no-require-imports
        (require('../core/openapi/document') as typeof import('../core/openapi/document')).openApiDocument(
          // eslint-disable-next-line @typescript-eslint/no-require-imports
          (require('../../lib/routes') as typeof import('../../lib/routes')).routes,
        );
  return servedAt(document, serverUrl);
}

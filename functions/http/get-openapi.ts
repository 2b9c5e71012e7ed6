// GET /v1/openapi.json: the OpenAPI 3.1 document (no credentials), with the base URL it was requested at as its server.
// It reads nothing of the service's state: its bundle carries no AWS client.
import { GET_OPENAPI } from '../../lib/routes';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { storelessRoute } from '../http-chain/chain';
import { servedOpenApiDocument } from '../http-chain/openapi-document';

const DOCUMENT_PATH = '/v1/openapi.json';

/**
 * The API's base URL as this request reached it: the stage URL on an execute-api domain, the domain plus its base path
 * mapping on a custom domain, the Host header locally. Undefined when the request does not tell (the default stays).
 */
export function requestBaseUrl(event: APIGatewayProxyEvent): string | undefined {
  const headers = (event.headers ?? {}) as Record<string, string | undefined>;
  const host = headers.host;
  const ctx = event.requestContext;
  if (!ctx?.domainName || ctx.stage === 'local') return host && /^[A-Za-z0-9.:[\]-]+$/.test(host) ? `http://${host}` : undefined;
  if (/\.execute-api\./.test(ctx.domainName)) return `https://${ctx.domainName}/${ctx.stage}`;
  const prefix = event.path?.endsWith(DOCUMENT_PATH) ? event.path.slice(0, -DOCUMENT_PATH.length) : '';
  return `https://${ctx.domainName}${prefix}`;
}

export const handler = storelessRoute(GET_OPENAPI, async ({ event }) => ({
  status: 200,
  body: servedOpenApiDocument(requestBaseUrl(event)),
}));

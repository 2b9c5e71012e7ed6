// The dashboard function: serves the one self-contained HTML page for /dashboard, /dashboard/batches,
// /dashboard/webhooks, /dashboard/runs/{id}, /dashboard/batches/{id}, /dashboard/campaigns/{id} and
// /dashboard/webhooks/{id}; it reads no data and needs no credentials (the page calls the API with the user's).
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { MethodNotAllowedError, errorBody } from '../core/errors';
import { DASHBOARD_CSP, DASHBOARD_HTML } from './page';

/** Headers of every dashboard page response. */
export const DASHBOARD_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': DASHBOARD_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

/** The pages below /dashboard: home, the batches and webhooks lists, one run, CI batch, campaign or webhook (as browser/router.ts). */
const KNOWN_PAGE = /^(?:|batches|webhooks|(?:runs|batches|campaigns|webhooks)\/[^/]+)$/;

/** The path below /dashboard: the `{proxy+}` parameter when API Gateway gives one, else derived from the path. */
function subPath(event: APIGatewayProxyEvent): string {
  const proxy = event.pathParameters?.proxy;
  if (typeof proxy === 'string') return proxy.replace(/^\/+|\/+$/g, '');
  const path = event.path ?? '';
  const at = path.indexOf('/dashboard');
  return at < 0 ? '' : path.slice(at + '/dashboard'.length).replace(/^\/+|\/+$/g, '');
}

/**
 * Answers GET/HEAD with the dashboard page: 200 for the known pages, 404 (same page, which shows "not found") for
 * any other path below /dashboard; other methods get the API's 405 error body.
 */
export async function handler(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const method = (event.httpMethod ?? 'GET').toUpperCase();
  if (method !== 'GET' && method !== 'HEAD') {
    const requestId = event.requestContext?.requestId ?? randomUUID();
    const err = new MethodNotAllowedError(method, event.path ?? '/dashboard');
    return {
      statusCode: err.status,
      headers: { 'Content-Type': 'application/json', Allow: 'GET, HEAD', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' },
      body: JSON.stringify(errorBody(err, requestId)),
    };
  }
  return {
    statusCode: KNOWN_PAGE.test(subPath(event)) ? 200 : 404,
    headers: { ...DASHBOARD_HEADERS },
    body: method === 'HEAD' ? '' : DASHBOARD_HTML,
  };
}

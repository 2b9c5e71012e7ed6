// How the local gateway reads a request as API Gateway would: its target (path and query), its route in the route
// table, its header maps and the headers the gateway itself needs, and its body (bytes or base64).
import type { IncomingMessage } from 'node:http';
import { BINARY_MEDIA_TYPES } from '../../lib/routes';
import { PayloadTooLargeError } from '../core/errors';

const NO_BODY = Buffer.alloc(0);

/**
 * Reads the body, refusing (413) once more than `limit` bytes arrived, without buffering the rest (a declared length
 * past `limit` is refused earlier, on the headers, by refuseBodyIfLarger). A request that declares no body (no
 * Content-Length or 0, no Transfer-Encoding: most GETs) has none to wait for: Node discards what is left of it once the
 * response is sent.
 */
export function readBody(req: IncomingMessage, limit: number): Buffer | Promise<Buffer> {
  const length = req.headers['content-length'];
  if ((length === undefined || length === '0') && req.headers['transfer-encoding'] === undefined) return NO_BODY;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(new PayloadTooLargeError(limit));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Refuses (413) a body whose declared Content-Length is past `limit`, on the headers alone. */
export function refuseBodyIfLarger(req: IncomingMessage, limit: number): void {
  if (Number(req.headers['content-length'] ?? 0) > limit) throw new PayloadTooLargeError(limit);
}

/** The event's query maps, as API Gateway builds them: each name's last value, and all its values. */
export function splitQuery(params: URLSearchParams | undefined) {
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  if (!params) return { single, multi };
  for (const [k, v] of params) {
    single[k] = v;
    (multi[k] ??= []).push(v);
  }
  return { single, multi };
}

/**
 * The event's header maps as API Gateway builds them (names as sent; `headers` keeps a repeated name's last value), and,
 * from the same pass, the few headers the gateway reads: under any case, the value of the first name that matches.
 */
export function headerMaps(req: IncomingMessage) {
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  let apiKey: string | undefined;
  let projectId: string | undefined;
  let contentType: string | undefined;
  let contentEncoding: string | undefined;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const k = raw[i];
    const v = raw[i + 1];
    single[k] = v;
    const values = multi[k];
    if (values) {
      values.push(v);
      continue;
    }
    multi[k] = [v];
    // Only names of the lengths read below are lowercased: x-api-key, x-project-id / content-type, content-encoding.
    if (k.length !== 9 && k.length !== 12 && k.length !== 16) continue;
    const lower = k.toLowerCase();
    if (lower === 'x-api-key') apiKey ??= k;
    else if (lower === 'x-project-id') projectId ??= k;
    else if (lower === 'content-type') contentType ??= k;
    else if (lower === 'content-encoding') contentEncoding ??= k;
  }
  // The names were kept; the values are the maps' (a repeated name's last).
  const value = (name: string | undefined) => (name === undefined ? undefined : single[name]);
  return {
    single,
    multi,
    apiKey: value(apiKey),
    projectId: value(projectId),
    contentType: value(contentType),
    contentEncoding: value(contentEncoding),
  };
}

/**
 * Whether the body goes to the function as base64 bytes, as API Gateway does for the binary media types; here also for
 * a compressed body, which the function decompresses itself (in the cloud API Gateway may have done it already).
 */
export function isBinaryBody(contentType: string | undefined, contentEncoding: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  const encoding = (contentEncoding ?? '').trim().toLowerCase();
  return BINARY_MEDIA_TYPES.includes(type) || (encoding !== '' && encoding !== 'identity');
}

/** A request target that the URL parser would leave as it is: no query, no percent escapes, no `.`/`..` segments. */
const PLAIN_PATH = /^\/[A-Za-z0-9_~./-]*$/;
const DOT_SEGMENT = /(^|\/)\.\.?(\/|$)/;

/** The request's path (as the URL parser reads it) and query. */
export function parseTarget(target: string): { pathname: string; searchParams?: URLSearchParams } {
  if (PLAIN_PATH.test(target) && !DOT_SEGMENT.test(target)) return { pathname: target };
  // A path is never a host: `//v1/traces` stays the path `//v1/traces` (URL would read `v1` as the host).
  return new URL(`http://localhost${target.startsWith('/') ? '' : '/'}${target}`);
}

// The local API gateway: node:http requests -> API Gateway REST proxy events -> the same route handlers the cloud runs,
// with the REQUEST authorizer called first (and its result cached per header pair, as API Gateway does). The last part
// reads a request as API Gateway would: its target (path and query), header maps, and body (bytes or base64).
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent, APIGatewayProxyResult, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { BINARY_MEDIA_TYPES, ROUTE_TIMEOUT_S, workerHandlers, type RouteRow } from '../../lib/routes';
import { findRoute } from '../../lib/route-match';
import { DEFAULT_BODY_LIMIT } from '../core/limits';
import {
  AppError,
  MethodNotAllowedError,
  PayloadTooLargeError,
  RateLimitedError,
  RouteNotFoundError,
  ServiceUnavailableError,
  UnauthorizedError,
  errorBody,
} from '../core/errors';
import { errorResponse } from '../http-chain/chain';
import { logger } from '../wiring/logger';
import { lingerOnClose } from './linger';
import { lambdaContext, quietLocalTelemetry } from './queue';

type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
type AuthorizerHandler = (event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;

const ROOT = join(__dirname, '..', '..');
const modules = new Map<string, unknown>();
const fromSource = (modulePath: string): string => join(ROOT, modulePath);
let handlerFile = fromSource;

/**
 * Where loadHandler finds handler modules: `resolve` maps a repo-relative module path (`functions/http/get-health`)
 * to the file to require instead of its source, e.g. the bundle `cdk synth` wrote for it (test/infra/bundles-e2e.test.ts);
 * no argument restores the sources. A module-level hook, not a gateway option, because the local queue and bus load
 * the workers through loadHandler too. Forgets the modules loaded so far.
 */
export function resolveHandlersWith(resolve?: (modulePath: string) => string): void {
  handlerFile = resolve ?? fromSource;
  modules.clear();
}

/** Loads a handler module by its repo-relative path (cached, like a warm Lambda). */
export function loadHandler<T>(modulePath: string): T {
  let mod = modules.get(modulePath);
  if (!mod) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    mod = require(handlerFile(modulePath));
    modules.set(modulePath, mod);
  }
  return (mod as { handler: T }).handler;
}

export interface GatewayOptions {
  /** How long an allowed key pair is cached, in ms; API Gateway's is 300 s. Refusals are never cached. */
  authCacheTtlMs?: number;
  /** Observes each request (method, path, status, duration) for logs. */
  onRequest?: (info: { method: string; path: string; status: number; ms: number }) => void;
  /** Per-project throttle like the cloud's usage plan (token bucket); default off (`RTS_RATE_LIMIT=rps[:burst]`). */
  rateLimit?: { rps: number; burst: number };
}

/** Parses RTS_RATE_LIMIT (`rps` or `rps:burst`); undefined when unset or malformed. */
export function rateLimitFromEnv(value = process.env.RTS_RATE_LIMIT): { rps: number; burst: number } | undefined {
  const m = /^(\d+(?:\.\d+)?)(?::(\d+))?$/.exec(value ?? '');
  if (!m || Number(m[1]) <= 0) return undefined;
  return { rps: Number(m[1]), burst: m[2] ? Number(m[2]) : Math.max(1, Math.ceil(Number(m[1]) * 2)) };
}

interface CachedAuth {
  projectId: string;
  expires: number;
}

function send(res: ServerResponse, result: APIGatewayProxyResult): void {
  const headers: Record<string, string> = { 'Cache-Control': 'no-store' };
  for (const [k, v] of Object.entries(result.headers ?? {})) headers[k] = String(v);
  // Text stays a string (UTF-8 on the wire): Node then sends the head and a small body in one write.
  const body = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : (result.body ?? '');
  headers['Content-Length'] = String(typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.length);
  res.writeHead(result.statusCode, headers);
  res.end(body);
}

function sendError(res: ServerResponse, err: AppError, requestId: string, extra: Record<string, string> = {}): void {
  if (err.status === 429) extra = { 'Retry-After': '1', ...extra };
  if (err instanceof ServiceUnavailableError) extra = { 'Retry-After': String(err.retryAfterS), ...extra };
  send(res, { statusCode: err.status, headers: { 'Content-Type': 'application/json', ...extra }, body: JSON.stringify(errorBody(err, requestId)) });
}

/** Each route function's invariant context fields (names, ARN, memory), built once per function like a warm Lambda's. */
const contexts = new Map<string, Context>();

/** A route function's context: a fresh request id, and like the cloud's, its invocation may last ROUTE_TIMEOUT_S. */
function routeContext(name: string): Context {
  let base = contexts.get(name);
  if (!base) contexts.set(name, (base = lambdaContext(name)));
  const started = Date.now();
  return {
    ...base,
    awsRequestId: randomUUID(),
    getRemainingTimeInMillis: () => Math.max(0, ROUTE_TIMEOUT_S * 1000 - (Date.now() - started)),
  };
}

export function createGateway(opts: GatewayOptions = {}): Server {
  quietLocalTelemetry();
  const authCache = new Map<string, CachedAuth>();
  const ttl = opts.authCacheTtlMs ?? 300_000;
  const buckets = new Map<string, { tokens: number; at: number }>();

  /** Takes one token from the project's bucket, or throws the 429 the cloud's usage plan would answer. */
  function throttle(projectId: string): void {
    const limit = opts.rateLimit;
    if (!limit) return;
    const now = Date.now();
    const b = buckets.get(projectId) ?? { tokens: limit.burst, at: now };
    b.tokens = Math.min(limit.burst, b.tokens + ((now - b.at) / 1000) * limit.rps);
    b.at = now;
    buckets.set(projectId, b);
    if (b.tokens < 1) throw new RateLimitedError();
    b.tokens -= 1;
  }

  async function authorize(
    route: RouteRow,
    method: string,
    path: string,
    headers: Record<string, string>,
    apiKey: string | undefined,
    projectHeader: string | undefined,
  ): Promise<string> {
    // Like API Gateway: a missing identity source is refused before the authorizer runs.
    if (!apiKey || !projectHeader) throw new UnauthorizedError();
    const cacheKey = `${apiKey}\n${projectHeader}`;
    const hit = authCache.get(cacheKey);
    if (hit && hit.expires > Date.now()) return hit.projectId;
    const event = {
      type: 'REQUEST',
      methodArn: `arn:aws:execute-api:local:000000000000:local/local/${method}${route.path}`,
      resource: route.path,
      path,
      httpMethod: method,
      headers,
      multiValueHeaders: {},
      pathParameters: {},
      queryStringParameters: {},
      multiValueQueryStringParameters: {},
      stageVariables: {},
      requestContext: {},
    } as unknown as APIGatewayRequestAuthorizerEvent;
    let result: APIGatewayAuthorizerResult;
    try {
      result = await loadHandler<AuthorizerHandler>(workerHandlers.authorizer)(event);
    } catch (err) {
      if ((err as Error).message === 'Unauthorized') throw new UnauthorizedError();
      // API Gateway's AUTHORIZER_FAILURE: the stack maps it to this 503, and nothing is cached.
      throw new ServiceUnavailableError('The credentials could not be checked; retry shortly.');
    }
    const allowed = result.policyDocument.Statement.some((s) => s.Effect === 'Allow');
    const projectId = allowed && typeof result.context?.projectId === 'string' ? result.context.projectId : null;
    // Only allows are cached: a refusal (say, a key created a moment later) is asked again on the next call.
    if (!projectId) throw new UnauthorizedError();
    authCache.set(cacheKey, { projectId, expires: Date.now() + ttl });
    return projectId;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = process.hrtime.bigint();
    const requestId = randomUUID();
    const method = (req.method ?? 'GET').toUpperCase();
    const url = parseTarget(req.url ?? '/');
    const path = url.pathname.length > 1 && url.pathname.endsWith('/') ? url.pathname.replace(/\/+$/, '') : url.pathname;
    try {
      const dashboard = path === '/dashboard' || path.startsWith('/dashboard/');
      const found = dashboard ? undefined : findRoute(method, path);
      if (!dashboard && !found?.match) {
        req.resume();
        if (found?.allowed.length) {
          return sendError(res, new MethodNotAllowedError(method, path), requestId, { Allow: found.allowed.join(', ') });
        }
        return sendError(res, new RouteNotFoundError(method, path), requestId);
      }
      const route = found?.match?.route;
      const limit = route?.maxBodyBytes ?? DEFAULT_BODY_LIMIT;
      const headers = headerMaps(req);
      // The credentials are checked on the headers alone, before a byte of the body is read: a refused upload costs
      // no memory, and its sender hears the refusal instead of sending the rest (see the catch below).
      refuseBodyIfLarger(req, limit + 1024);
      let projectId: string | undefined;
      if (route?.auth) {
        projectId = await authorize(route, method, path, headers.single, headers.apiKey, headers.projectId);
        throttle(projectId);
      }
      const body = await readBody(req, limit + 1024);
      const binary = isBinaryBody(headers.contentType, headers.contentEncoding);
      const query = splitQuery(url.searchParams);
      const event: APIGatewayProxyEvent = {
        resource: route?.path ?? '/dashboard/{proxy+}',
        path,
        httpMethod: method,
        headers: headers.single,
        multiValueHeaders: headers.multi,
        queryStringParameters: Object.keys(query.single).length ? query.single : null,
        multiValueQueryStringParameters: Object.keys(query.multi).length ? query.multi : null,
        pathParameters:
          found?.match?.pathParameters && Object.keys(found.match.pathParameters).length
            ? found.match.pathParameters
            : dashboard
              ? { proxy: path.replace(/^\/dashboard\/?/, '') }
              : null,
        stageVariables: null,
        body: body.length ? body.toString(binary ? 'base64' : 'utf8') : null,
        isBase64Encoded: binary,
        requestContext: {
          accountId: '000000000000',
          apiId: 'local',
          authorizer: projectId ? { projectId, principalId: projectId } : null,
          protocol: 'HTTP/1.1',
          httpMethod: method,
          identity: { sourceIp: req.socket.remoteAddress ?? '127.0.0.1' },
          path,
          stage: 'local',
          requestId,
          requestTimeEpoch: Date.now(),
          resourceId: 'local',
          resourcePath: route?.path ?? '/dashboard/{proxy+}',
        } as APIGatewayProxyEvent['requestContext'],
      };
      const modulePath = route ? `functions/http/${route.handler}` : workerHandlers.dashboard;
      const result = await loadHandler<ProxyHandler>(modulePath)(event, routeContext(route?.handler ?? 'dashboard'));
      send(res, result);
    } catch (err) {
      // A request refused before its body was read: the connection closes after the answer, so Node does not keep
      // reading an upload nobody will use (the sender gets the answer, then the close). The close lingers until the
      // sender has it (linger.ts): closed at once, it could reset the connection before the answer is read.
      if (!req.complete && !req.readableEnded) {
        res.setHeader('Connection', 'close');
        lingerOnClose(req.socket);
      }
      if (err instanceof AppError) sendError(res, err, requestId);
      else {
        logger.error('gateway failure', { error: err as Error, requestId });
        send(res, errorResponse(err, requestId));
      }
    } finally {
      opts.onRequest?.({ method, path, status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 });
    }
  }

  const server = createServer((req, res) => {
    void handle(req, res);
  });
  server.keepAliveTimeout = 30_000;
  // Requests Node's parser refuses before any handler runs (headers past its 16 KiB limit, malformed request lines)
  // still get the one error body, as API Gateway's own responses do, instead of a bare status line.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const body = JSON.stringify(
      errorBody(
        tooLarge
          ? new AppError(431, 'request_header_fields_too_large', 'The request line and headers exceed 16 KiB.')
          : new AppError(400, 'bad_request', 'The request could not be parsed as HTTP.'),
        randomUUID(),
      ),
    );
    socket.end(
      `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}

const NO_BODY = Buffer.alloc(0);

/**
 * Reads the body, refusing (413) once more than `limit` bytes arrived, without buffering the rest (a declared length
 * past `limit` is refused earlier, on the headers, by refuseBodyIfLarger). A request that declares no body (no
 * Content-Length or 0, no Transfer-Encoding: most GETs) has none to wait for: Node discards what is left of it once the
 * response is sent.
 */
function readBody(req: IncomingMessage, limit: number): Buffer | Promise<Buffer> {
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
function refuseBodyIfLarger(req: IncomingMessage, limit: number): void {
  if (Number(req.headers['content-length'] ?? 0) > limit) throw new PayloadTooLargeError(limit);
}

/** The event's query maps, as API Gateway builds them: each name's last value, and all its values. */
function splitQuery(params: URLSearchParams | undefined) {
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
function headerMaps(req: IncomingMessage) {
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
function isBinaryBody(contentType: string | undefined, contentEncoding: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  const encoding = (contentEncoding ?? '').trim().toLowerCase();
  return BINARY_MEDIA_TYPES.includes(type) || (encoding !== '' && encoding !== 'identity');
}

/** A request target that the URL parser would leave as it is: no query, no percent escapes, no `.`/`..` segments. */
const PLAIN_PATH = /^\/[A-Za-z0-9_~./-]*$/;
const DOT_SEGMENT = /(^|\/)\.\.?(\/|$)/;

/** The request's path (as the URL parser reads it) and query. */
function parseTarget(target: string): { pathname: string; searchParams?: URLSearchParams } {
  if (PLAIN_PATH.test(target) && !DOT_SEGMENT.test(target)) return { pathname: target };
  // A path is never a host: `//v1/traces` stays the path `//v1/traces` (URL would read `v1` as the host).
  return new URL(`http://localhost${target.startsWith('/') ? '' : '/'}${target}`);
}

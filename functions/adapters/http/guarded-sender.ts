// Outbound HTTP(S) for webhook deliveries and agent targets, with the SSRF guard applied to the address actually dialled.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import { OutboundError, type HttpSender, type OutboundRequest, type OutboundResponse } from '../../core/ports';
import { addressProblem } from './address-policy';

/** Response bodies beyond this are cut off: the rest is not read. */
export const MAX_RESPONSE_BYTES = 1024 * 1024;

export interface GuardedSenderOptions {
  /** true skips the guard (local mode, RTS_ALLOW_PRIVATE_TARGETS=true); false refuses non-public addresses. */
  allowPrivate: boolean;
  /** Extra trusted CA certificate(s), added to the public roots (tests). NODE_EXTRA_CA_CERTS works without this. */
  ca?: string | Buffer;
  /** Default 1 MiB. */
  maxResponseBytes?: number;
}

/** Runs around each send of every guarded sender, e.g. to time it in a trace; `send` performs the request. */
export type SendWrapper = (req: OutboundRequest, send: () => Promise<OutboundResponse>) => Promise<OutboundResponse>;

let wrapSend: SendWrapper | undefined;

/**
 * Sets the wrapper of every send, senders built earlier included (shared/with-tracing.ts: an X-Ray subsegment per
 * request); undefined removes it. None by default.
 */
export function wrapGuardedSends(wrapper: SendWrapper | undefined): void {
  wrapSend = wrapper;
}

/** Raised inside the socket's lookup so the refusal happens at connect time, on the resolved address. */
class BlockedAddressError extends Error {
  readonly code = 'EBLOCKED';
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for net.connect that resolves as usual, then refuses when any resolved address is not public. */
function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '');
    if (addresses.length === 0) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
    for (const a of addresses) {
      const problem = addressProblem(a.address);
      // Any bad answer refuses the host: a name that mixes public and private answers is a rebinding attempt.
      if (problem) return callback(new BlockedAddressError(`${hostname} resolves to ${a.address}, ${problem}`), '');
    }
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  });
}

interface Agents {
  http: http.Agent;
  https: https.Agent;
}

const KEEP_ALIVE = { keepAlive: true, keepAliveMsecs: 1000, scheduling: 'lifo' as const };

function makeAgents(ca?: string | Buffer): Agents {
  return {
    http: new http.Agent(KEEP_ALIVE),
    https: new https.Agent(ca ? { ...KEEP_ALIVE, ca: [...rootCertificates, ca.toString()] } : KEEP_ALIVE),
  };
}

// Pooled sockets skip the lookup, so guarded and unguarded senders must never share a pool.
const sharedAgents = new Map<boolean, Agents>();

function agentsFor(opts: GuardedSenderOptions): Agents {
  if (opts.ca) return makeAgents(opts.ca);
  let agents = sharedAgents.get(opts.allowPrivate);
  if (!agents) sharedAgents.set(opts.allowPrivate, (agents = makeAgents()));
  return agents;
}

function flattenHeaders(h: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function connectionError(err: unknown): OutboundError {
  if (err instanceof OutboundError) return err;
  if (err instanceof BlockedAddressError) return new OutboundError('blocked', `blocked: ${err.message}`);
  const code = (err as NodeJS.ErrnoException)?.code;
  return new OutboundError('connection', `connection error: ${typeof code === 'string' && code ? code : 'UNKNOWN'}`);
}

/**
 * Builds the outbound sender. It never follows redirects (a 3xx is returned as is); `timeoutMs` bounds the whole
 * exchange (connect, TLS, response body) and rejects with `OutboundError('timeout', 'timeout after <n> ms')`;
 * failures to connect reject with `'connection error: <code>'`; guard refusals with `'blocked: <reason>'`.
 * Unless `allowPrivate`, a literal IP in the URL is checked before connecting and a host name is checked on each
 * address it resolves to, inside the socket's own lookup, so there is no gap between the check and the connect.
 */
export function createGuardedSender(opts: GuardedSenderOptions): HttpSender {
  const agents = agentsFor(opts);
  const cap = opts.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  return (req) => {
    const go = () => send(req, opts.allowPrivate, agents, cap);
    return wrapSend ? wrapSend(req, go) : go();
  };
}

function send(req: OutboundRequest, allowPrivate: boolean, agents: Agents, cap: number): Promise<OutboundResponse> {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return Promise.reject(new OutboundError('blocked', 'blocked: not a valid absolute URL'));
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return Promise.reject(new OutboundError('blocked', `blocked: unsupported scheme ${url.protocol}`));
  }
  // WHATWG URL parsing has already normalised odd IPv4 spellings (2130706433, 0x7f.1) to dotted quads.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && isIP(host)) {
    // Literals never go through lookup; they do not resolve either, so checking them here leaves no gap.
    const problem = addressProblem(host);
    if (problem) return Promise.reject(new OutboundError('blocked', `blocked: ${host} is ${problem}`));
  }
  const isHttps = url.protocol === 'https:';
  const transport = isHttps ? https : http;
  const body = req.body === undefined ? undefined : Buffer.from(req.body, 'utf8');
  const headers: Record<string, string> = { ...req.headers };
  if (body) headers['Content-Length'] = String(body.length);

  const started = performance.now();
  return new Promise<OutboundResponse>((resolve, reject) => {
    let settled = false;
    let current: http.ClientRequest | undefined;
    const timer = setTimeout(() => {
      settle(() => reject(new OutboundError('timeout', `timeout after ${req.timeoutMs} ms`)));
      current?.destroy();
    }, req.timeoutMs);
    function settle(fn: () => void): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    }

    const attempt = (mayRetryStaleSocket: boolean) => {
      let r: http.ClientRequest;
      try {
        r = transport.request({
          protocol: url.protocol,
          hostname: host,
          port: url.port || (isHttps ? 443 : 80),
          path: `${url.pathname}${url.search}`,
          method: req.method,
          headers,
          agent: isHttps ? agents.https : agents.http,
          ...(allowPrivate ? {} : { lookup: guardedLookup as unknown as typeof dnsLookup }),
        });
      } catch (err) {
        // Node validates header names and values synchronously (ERR_INVALID_CHAR, ERR_INVALID_HTTP_TOKEN).
        settle(() => reject(connectionError(err)));
        return;
      }
      current = r;
      r.on('error', (err: NodeJS.ErrnoException) => {
        // A kept-alive socket the server closed while idle fails at once: retry on a fresh socket (Node's advice).
        if (mayRetryStaleSocket && r.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE') && !settled) {
          attempt(false);
          return;
        }
        settle(() => reject(connectionError(err)));
      });
      r.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () =>
          settle(() =>
            resolve({
              status: res.statusCode ?? 0,
              headers: flattenHeaders(res.headers),
              body: Buffer.concat(chunks).toString('utf8'),
              durationMs: Math.round(performance.now() - started),
            }),
          );
        res.on('data', (chunk: Buffer) => {
          if (settled) return;
          const room = cap - size;
          if (chunk.length >= room) {
            chunks.push(chunk.subarray(0, room));
            size = cap;
            done();
            res.destroy();
            return;
          }
          chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', done);
        res.on('error', (err) => settle(() => reject(connectionError(err))));
        res.on('close', () => {
          if (!res.complete) settle(() => reject(new OutboundError('connection', 'connection error: ECONNRESET')));
        });
      });
      r.end(body);
    };
    attempt(true);
  });
}

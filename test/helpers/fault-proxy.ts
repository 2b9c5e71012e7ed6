// A fault-injecting HTTP proxy in front of a DynamoDB-compatible store (dynalite, DynamoDB Local): it speaks the real
// DynamoDB JSON 1.0 protocol, so the service's own SDK client meets throttling, server errors, stalls and lost answers.
import { randomUUID } from 'node:crypto';
import { Agent, createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * - `throttle`: not forwarded; 400 `ThrottlingException` (the SDK retries it with its throttling back-off).
 * - `internal`: not forwarded; 500 `InternalServerError`.
 * - `stall`: forwarded at once (the write is applied), the answer held for `stallMs`, beyond the client's request
 *   timeout: the client gives up on a call that did happen.
 * - `lost_response`: forwarded (the write is applied) and answered 500 `InternalServerError` instead of the store's
 *   answer, so the client retries a call that already happened (a conditional put then meets its own write).
 */
export type FaultKind = 'throttle' | 'internal' | 'stall' | 'lost_response';
export const FAULT_KINDS: readonly FaultKind[] = ['throttle', 'internal', 'stall', 'lost_response'];

/** One request as the proxy saw it. */
export interface DynamoRequest {
  /** The operation from `X-Amz-Target` (`PutItem`, `UpdateItem`, ...). */
  operation: string;
  /** The parsed JSON body (`{}` when it is not JSON). */
  body: Record<string, any>;
  /** The raw body text. */
  text: string;
}

export interface InjectedFault {
  /** The request's number, from 1, in arrival order. */
  seq: number;
  kind: FaultKind;
  operation: string;
  /** Whether the request reached the store (stall, lost_response). */
  applied: boolean;
  /** true for a fault asked for with inject(); false for a random one. */
  targeted: boolean;
}

export interface FaultProxyOptions {
  /** The store's endpoint, e.g. `http://127.0.0.1:4567`. */
  target: string;
  /** Seed of the PRNG that picks faulty requests and their kinds: the same seed gives the same sequence of picks. Default 1. */
  seed?: number;
  /** Fraction of eligible requests answered with a fault, 0..1. Default 0 (see setRate). */
  rate?: number;
  /** Fault kinds and their relative weights. Default: the four kinds, equally. */
  kinds?: Partial<Record<FaultKind, number>>;
  /** How long a stalled answer is held, ms; make it longer than the client's request timeout. Default 1500. */
  stallMs?: number;
  /** Requests that may get a random fault; default every request but table administration (Describe/CreateTable...). */
  eligible?: (req: DynamoRequest) => boolean;
}

export interface FaultProxyStats {
  requests: number;
  forwarded: number;
  injected: Record<FaultKind, number>;
  /** Injected faults per operation and kind. */
  byOperation: Record<string, Partial<Record<FaultKind, number>>>;
}

export interface FaultProxy {
  /** The proxy's endpoint: give it to the service as its DynamoDB endpoint. */
  url: string;
  /** Changes the fraction of faulty requests from the next request on (0 turns random faults off). */
  setRate(rate: number): void;
  /**
   * Answers the next `times` requests that `match` accepts with `kind` (before any random pick); resolves with the
   * last fault once it has happened (for stall and lost_response: once the store has applied the request).
   */
  inject(kind: FaultKind, match: (req: DynamoRequest) => boolean, times?: number): Promise<InjectedFault>;
  readonly stats: FaultProxyStats;
  /** Every injected fault, in order. */
  readonly faults: readonly InjectedFault[];
  close(): Promise<void>;
}

const DYNAMO_ERROR_NAMESPACE = 'com.amazonaws.dynamodb.v20120810';
const ADMIN_OPERATIONS = new Set([
  'CreateTable',
  'DescribeTable',
  'DeleteTable',
  'UpdateTable',
  'ListTables',
  'UpdateTimeToLive',
  'DescribeTimeToLive',
]);

/** mulberry32: a small, fast, seedable PRNG (uniform in [0, 1)). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** DynamoDB's JSON 1.0 error answer: `{"__type": "<namespace>#<name>", "message": ...}` with the AWS JSON content type. */
function sendDynamoError(res: ServerResponse, status: number, name: string, message: string): void {
  if (res.destroyed) return;
  const body = JSON.stringify({ __type: `${DYNAMO_ERROR_NAMESPACE}#${name}`, message });
  res.writeHead(status, {
    'Content-Type': 'application/x-amz-json-1.0',
    'Content-Length': Buffer.byteLength(body),
    'x-amzn-RequestId': randomUUID(),
  });
  res.end(body);
}

const sendThrottle = (res: ServerResponse) => sendDynamoError(res, 400, 'ThrottlingException', 'Rate of requests exceeds the allowed throughput.');
const sendInternal = (res: ServerResponse) => sendDynamoError(res, 500, 'InternalServerError', 'Internal server error');

interface Upstream {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

/** Starts the proxy on 127.0.0.1 (a free port). */
export async function startFaultProxy(opts: FaultProxyOptions): Promise<FaultProxy> {
  const target = new URL(opts.target);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const random = seededRandom(opts.seed ?? 1);
  const weights = FAULT_KINDS.map((k) => [k, opts.kinds ? (opts.kinds[k] ?? 0) : 1] as const).filter(([, w]) => w > 0);
  const totalWeight = weights.reduce((s, [, w]) => s + w, 0);
  const stallMs = opts.stallMs ?? 1500;
  const eligible = opts.eligible ?? ((r: DynamoRequest) => !ADMIN_OPERATIONS.has(r.operation));
  let rate = opts.rate ?? 0;
  let seq = 0;
  const timers = new Set<NodeJS.Timeout>();
  const targeted: { kind: FaultKind; match: (r: DynamoRequest) => boolean; left: number; done: (f: InjectedFault) => void }[] = [];
  const faults: InjectedFault[] = [];
  const stats: FaultProxyStats = { requests: 0, forwarded: 0, injected: { throttle: 0, internal: 0, stall: 0, lost_response: 0 }, byOperation: {} };

  function pick(req: DynamoRequest): { kind: FaultKind; targeted: boolean; done?: (f: InjectedFault) => void } | undefined {
    const t = targeted.find((x) => x.left > 0 && x.match(req));
    if (t) {
      t.left--;
      if (t.left === 0) targeted.splice(targeted.indexOf(t), 1);
      return { kind: t.kind, targeted: true, done: t.left === 0 ? t.done : undefined };
    }
    if (rate <= 0 || totalWeight === 0 || !eligible(req)) return undefined;
    // Two draws per eligible request whatever the outcome, so a seed fixes the whole sequence of picks.
    const hit = random() < rate;
    let w = random() * totalWeight;
    if (!hit) return undefined;
    for (const [kind, weight] of weights) {
      if ((w -= weight) < 0) return { kind, targeted: false };
    }
    return { kind: weights[weights.length - 1][0], targeted: false };
  }

  function forward(headers: IncomingHttpHeaders, method: string, path: string, body: Buffer): Promise<Upstream> {
    stats.forwarded++;
    return new Promise((resolve, reject) => {
      const up = httpRequest({ host: target.hostname, port: target.port, method, path, headers: { ...headers, host: target.host }, agent }, (res) => {
        readAll(res).then((b) => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: b }), reject);
      });
      up.on('error', reject);
      up.end(body);
    });
  }

  function relay(res: ServerResponse, up: Upstream): void {
    if (res.destroyed) return;
    const headers = { ...up.headers };
    delete headers['transfer-encoding'];
    delete headers.connection;
    res.writeHead(up.status, { ...headers, 'content-length': up.body.length });
    res.end(up.body);
  }

  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readAll(req);
      const text = raw.toString('utf8');
      const operation =
        String(req.headers['x-amz-target'] ?? '')
          .split('.')
          .pop() ?? '';
      let body: Record<string, any> = {};
      try {
        body = JSON.parse(text) as Record<string, any>;
      } catch {
        // not JSON: forwarded as it is
      }
      const n = ++seq;
      stats.requests++;
      const chosen = pick({ operation, body, text });
      const send = () => forward(req.headers, req.method ?? 'POST', req.url ?? '/', raw);
      if (!chosen) return relay(res, await send());

      const fault: InjectedFault = {
        seq: n,
        kind: chosen.kind,
        operation,
        applied: chosen.kind === 'stall' || chosen.kind === 'lost_response',
        targeted: chosen.targeted,
      };
      faults.push(fault);
      stats.injected[fault.kind]++;
      const perOp = (stats.byOperation[operation] ??= {});
      perOp[fault.kind] = (perOp[fault.kind] ?? 0) + 1;
      // A targeted fault is reported once it has happened: answered, or (stall, lost_response) applied by the store.
      switch (chosen.kind) {
        case 'throttle':
          sendThrottle(res);
          chosen.done?.(fault);
          break;
        case 'internal':
          sendInternal(res);
          chosen.done?.(fault);
          break;
        case 'lost_response':
          await send();
          sendInternal(res);
          chosen.done?.(fault);
          break;
        case 'stall': {
          const up = await send();
          chosen.done?.(fault);
          await new Promise<void>((resolve) => {
            const t = setTimeout(() => {
              timers.delete(t);
              resolve();
            }, stallMs);
            timers.add(t);
          });
          relay(res, up);
          break;
        }
      }
    })().catch(() => {
      // The store went away or the client hung up: the client sees a dropped connection, itself a transient fault.
      res.destroy();
    });
  });
  // A client that timed out closes its socket while the proxy still holds the answer: that is expected here.
  server.on('clientError', (_err, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    setRate(r: number) {
      rate = Math.max(0, Math.min(1, r));
    },
    inject(kind, match, times = 1) {
      return new Promise<InjectedFault>((resolve) => targeted.push({ kind, match, left: times, done: resolve }));
    },
    stats,
    faults,
    async close() {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}

/** The DynamoDB key a request addresses (`Key`, or the key attributes of `Item`), as `pk|sk` strings, for targeting faults. */
export function requestKey(req: DynamoRequest): string | undefined {
  const k = (req.body.Key ?? req.body.Item) as Record<string, { S?: string }> | undefined;
  if (!k?.pk?.S) return undefined;
  return `${k.pk.S}|${k.sk?.S ?? ''}`;
}

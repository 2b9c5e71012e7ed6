// The first request a bundle serves after a cold init, in a fresh Node process: what a cold start costs beyond the
// module's init. The probe answers every DynamoDB call on loopback with an empty JSON object (a GetItem finds nothing;
// that server runs in the same process, so its small share is in both requests' CPU),
// loads `node:http` with require() before the bundle as Lambda's runtime client does (so the bundle's first request is
// not charged for it), requires the bundle, and calls its handler twice with a GET /v1/runs/{run_id} event whose
// authorizer context names a project (the run view answers 404; a handler that reads no event ignores it).
import { execFileSync } from 'node:child_process';

export interface FirstRequest {
  /** CPU of the bundle's require(), ms. */
  initMs: number;
  /** Node's built-in modules the bundle's require() loaded (`process.moduleLoadList` entries). */
  initLoaded: string[];
  /** CPU of the first call of the handler, to its answer, ms. */
  firstMs: number;
  /** CPU of the second call, ms: what the first costs beyond it is first-time work. */
  secondMs: number;
  /** The first answer's statusCode (null when the handler returns something else, or throws). */
  status: number | null;
  /** The message of what the first call threw, when it threw (an authorizer refuses that way). */
  thrown: string | null;
  /** Node's built-in modules the first call loaded (`process.moduleLoadList` entries). */
  loaded: string[];
}

/** The run view's event: a run id no store holds, a project the authorizer found. */
export const RUN_VIEW_EVENT = {
  httpMethod: 'GET',
  resource: '/v1/runs/{run_id}',
  path: '/v1/runs/6f1c7a38-2a4f-4e43-9d5b-0f2f5e8b9a11',
  headers: {},
  pathParameters: { run_id: '6f1c7a38-2a4f-4e43-9d5b-0f2f5e8b9a11' },
  queryStringParameters: null,
  body: null,
  isBase64Encoded: false,
  requestContext: { requestId: 'first-request', authorizer: { projectId: '0b3f2c1e-9a8d-4c7b-8e6f-5d4c3b2a1908' } },
};

const PROBE = `
const http = require('node:http');
const [file, event] = [process.argv[1], JSON.parse(process.argv[2])];
const store = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => { res.setHeader('content-type', 'application/x-amz-json-1.0'); res.end('{}'); });
});
store.listen(0, '127.0.0.1', async () => {
  process.env.AWS_ENDPOINT_URL_DYNAMODB = 'http://127.0.0.1:' + store.address().port;
  const ms = (c) => (c.user + c.system) / 1e3;
  const context = { awsRequestId: 'first-request', functionName: 'probe', getRemainingTimeInMillis: () => 30000 };
  const atStart = new Set(process.moduleLoadList);
  let c = process.cpuUsage();
  const { handler } = require(file);
  const initMs = ms(process.cpuUsage(c));
  const initLoaded = process.moduleLoadList.filter((m) => !atStart.has(m));
  const before = new Set(process.moduleLoadList);
  // A handler may answer by throwing (an authorizer's 401): that is its answer too.
  const call = () => handler(structuredClone(event), context).catch((err) => ({ thrown: String(err && err.message) }));
  c = process.cpuUsage();
  const answer = await call();
  const firstMs = ms(process.cpuUsage(c));
  const loaded = process.moduleLoadList.filter((m) => !before.has(m));
  c = process.cpuUsage();
  await call();
  const secondMs = ms(process.cpuUsage(c));
  const status = typeof answer?.statusCode === 'number' ? answer.statusCode : null;
  const thrown = answer?.thrown ?? null;
  process.stdout.write(JSON.stringify({ initMs, initLoaded, firstMs, secondMs, status, thrown, loaded }));
  store.close();
});
`;

/** One fresh process of `node` requiring `bundle` and serving `event` twice; `env` is all it inherits. */
export function firstRequest(node: string, bundle: string, env: Record<string, string | undefined>, event: object = RUN_VIEW_EVENT): FirstRequest {
  const out = execFileSync(node, ['-e', PROBE, bundle, JSON.stringify(event)], {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 60_000,
  });
  return JSON.parse(out) as FirstRequest;
}

/** Node's web streams modules (`node:stream/web` and what it loads), as `process.moduleLoadList` names them. */
export const WEB_STREAMS = /^NativeModule (stream\/web|internal\/webstreams\/)/;

/** Node's bundled undici (fetch, WebSocket): loaded by a first request only if the bundle asks for it. */
export const UNDICI = 'NativeModule internal/deps/undici/undici';

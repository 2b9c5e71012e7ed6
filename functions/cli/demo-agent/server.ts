// The demo agent's HTTP server: POST /step answers the step protocol, GET /health says it is up; with `mcp`, POST
// /invoke/naive and /invoke/guarded answer rts.invoke.v1 as an `mcp` target (mcp.ts).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TraceInput } from '../../core/traces/schema';
import { decideStep } from './behaviour';
import { loadSampleTraces, toPlans, type DemoPlan } from './plan';
import { stepRequestSchema } from './protocol';

/** Options of {@link startDemoAgent}. */
export interface DemoAgentOptions {
  /** Port to listen on; 0 picks an ephemeral one. Default 8788. */
  port?: number;
  /** Address to listen on. Default 127.0.0.1. */
  host?: string;
  /** true: ignore instructions found in tool output and never echo credentials. Default false (the naive agent). */
  guarded?: boolean;
  /** The conversations the agent knows. Default: the shipped samples in samples/traces. */
  traces?: TraceInput[];
  /** true: also serve the naive and the guarded invoke endpoints of an `mcp` target. Default false. */
  mcp?: boolean;
}

/** A running demo agent. */
export interface DemoAgent {
  /** The step endpoint, e.g. http://127.0.0.1:8788/step (use it as a campaign's http target url). */
  url: string;
  /** With `mcp`: the invoke endpoints (use them as an `mcp` target's url). */
  invoke?: { naive: string; guarded: string };
  close(): Promise<void>;
}

export const DEMO_AGENT_DEFAULT_PORT = 8788;
const MAX_BODY_BYTES = 5 * 1024 * 1024;

/** Starts the demo agent's HTTP server: POST /step (the step protocol), GET /health. */
export async function startDemoAgent(options: DemoAgentOptions = {}): Promise<DemoAgent> {
  const host = options.host ?? '127.0.0.1';
  const guarded = options.guarded ?? false;
  const plans = toPlans(options.traces ?? loadSampleTraces());
  // The MCP client is loaded only when asked for: the step agent starts without it (require: the tsx CJS hook of
  // bin/rts.js does not cover dynamic import).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const invoke = options.mcp ? (require('./mcp') as typeof import('./mcp')).answerInvoke : null;
  const server = http.createServer((req, res) => {
    handle(req, res, plans, guarded, invoke).catch(() => send(res, 500, errorBody('internal_error', 'The demo agent failed.')));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEMO_AGENT_DEFAULT_PORT, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const hostPart = host.includes(':') ? `[${host}]` : host;
  const base = `http://${hostPart}:${port}`;
  return {
    url: `${base}/step`,
    ...(invoke ? { invoke: { naive: `${base}/invoke/naive`, guarded: `${base}/invoke/guarded` } } : {}),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // Keep-alive sockets (fetch keeps them) would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}

type AnswerInvoke = (raw: string, plans: DemoPlan[], guarded: boolean) => Promise<{ status: number; body: unknown }>;

async function handle(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  plans: DemoPlan[],
  guarded: boolean,
  invoke: AnswerInvoke | null,
): Promise<void> {
  const pathname = new URL(req.url ?? '/', 'http://demo-agent').pathname;
  if (pathname === '/health') {
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, errorBody('method_not_allowed', 'Use GET /health.'));
    return send(res, 200, { status: 'ok', guarded });
  }
  const mode = /^\/invoke\/(naive|guarded)$/.exec(pathname)?.[1];
  if (invoke && mode) {
    if (req.method !== 'POST') return send(res, 405, errorBody('method_not_allowed', `Use POST ${pathname}.`));
    const raw = await readBody(req);
    if (raw === null) return send(res, 413, errorBody('payload_too_large', `The body exceeds ${MAX_BODY_BYTES} bytes.`));
    const answer = await invoke(raw, plans, mode === 'guarded');
    return send(res, answer.status, answer.body);
  }
  if (pathname !== '/step') return send(res, 404, errorBody('route_not_found', `No route for ${req.method} ${pathname}.`));
  if (req.method !== 'POST') return send(res, 405, errorBody('method_not_allowed', 'Use POST /step.'));
  const raw = await readBody(req);
  if (raw === null) return send(res, 413, errorBody('payload_too_large', `The body exceeds ${MAX_BODY_BYTES} bytes.`));
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return send(res, 400, errorBody('invalid_json', 'The body is not valid JSON.'));
  }
  const parsed = stepRequestSchema.safeParse(body);
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    return send(res, 400, errorBody('invalid_request', 'The body is not an rts.step.v1 step request.', details));
  }
  return send(res, 200, decideStep(parsed.data, plans, guarded));
}

function readBody(req: http.IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function errorBody(code: string, message: string, details?: { path: string; message: string }[]): unknown {
  return { error: { code, message, ...(details ? { details } : {}) } };
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

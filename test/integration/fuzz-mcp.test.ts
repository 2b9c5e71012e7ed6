// Generated JSON-RPC input on POST /v1/mcp/{run_id}/{attempt} of an attempt held open by a real `mcp` run: no 5xx,
// no hang, a JSON-RPC body on every answer with a body, and with a bad token nothing served (the session's calls read
// back unchanged). RTS_FUZZ_RUNS / RTS_FUZZ_SEED as in fuzz.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as fc from 'fast-check';
import { mcpSessionId, mcpTokenHash } from '../../functions/core/mcp/token';
import { getDeps } from '../../functions/wiring/deps';
import { fuzzSettings } from '../helpers/fuzz-harness';
import { startTestService, type TestService } from '../helpers/local-service';
import { startMcpAgent, type McpAgent } from '../helpers/mcp-agent';

const TRACE = JSON.parse(readFileSync(join(__dirname, '..', '..', 'samples', 'traces', 'refund-order.json'), 'utf8'));
const { numRuns, seed } = fuzzSettings(60);
/** An answer later than this is a hang. */
const ANSWER_BOUND_MS = 10_000;

let svc: TestService;
let agent: McpAgent;
let release: () => void;
let mcp: { url: string; path: string; token: string };
let runId: string;

beforeAll(async () => {
  svc = await startTestService({ deliverWebhooks: false });
  await svc.api('POST', '/v1/traces', TRACE);
  const held = new Promise<void>((r) => (release = r));
  let opened!: (i: any) => void;
  const open = new Promise<any>((r) => (opened = r));
  agent = await startMcpAgent(async (invoke) => {
    opened(invoke);
    await held;
    return 'done';
  });
  const c = await svc.api('POST', '/v1/campaigns', { name: 'fuzz mcp', target: { type: 'mcp', url: agent.url }, max_steps: 200 });
  runId = (await svc.api('POST', '/v1/runs', { trace_id: TRACE.trace_id, campaign_id: c.body.campaign_id })).body.run_id;
  const invoke = await open;
  const url = new URL(invoke.mcp.url);
  mcp = { url: invoke.mcp.url, path: url.pathname, token: invoke.mcp.headers.Authorization.replace(/^Bearer /, '') };
}, 60_000);
afterAll(async () => {
  release?.();
  await svc?.idle?.();
  await agent?.close();
  await svc?.stop();
});

const METHODS = [
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'notifications/initialized',
  'resources/list',
  '',
  'tools/call\u0000',
  '__proto__',
];
const TOOLS = ['lookup_order', 'refund_order', 'send_email', 'delete_order', '', 'x'.repeat(5000), '__proto__', 'constructor'];

const anyId = fc.oneof(fc.integer(), fc.string({ maxLength: 20 }), fc.constant(null), fc.double(), fc.boolean(), fc.object({ maxDepth: 1 }));
const params = fc.oneof(
  fc.record(
    {
      name: fc.oneof(fc.constantFrom(...TOOLS), fc.string(), fc.integer()),
      arguments: fc.oneof(fc.object({ maxDepth: 3 }), fc.jsonValue(), fc.constant(null)),
    },
    { requiredKeys: [] },
  ),
  fc.record({ protocolVersion: fc.oneof(fc.constantFrom('2025-06-18', '2025-03-26', '2024-11-05'), fc.string()), capabilities: fc.jsonValue() }),
  fc.jsonValue(),
);
const message = fc.record(
  {
    jsonrpc: fc.oneof({ weight: 5, arbitrary: fc.constant('2.0') }, { weight: 1, arbitrary: fc.jsonValue() }),
    id: anyId,
    method: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...METHODS) }, { weight: 1, arbitrary: fc.jsonValue() }),
    params,
    result: fc.jsonValue(),
    error: fc.jsonValue(),
  },
  { requiredKeys: [] },
);
/** A well-formed request with generated names and arguments: reaches the serving path. */
const nearValid = fc.record({
  jsonrpc: fc.constant('2.0'),
  id: fc.oneof(fc.nat(), fc.string({ maxLength: 8 })),
  method: fc.constantFrom('tools/call', 'tools/call', 'tools/list', 'initialize', 'ping'),
  params: fc.record({ name: fc.constantFrom(...TOOLS.slice(0, 4)), arguments: fc.object({ maxDepth: 2 }) }),
});
const body = fc.oneof(
  { weight: 3, arbitrary: nearValid.map((m) => JSON.stringify(m)) },
  { weight: 4, arbitrary: message.map((m) => JSON.stringify(m)) },
  { weight: 2, arbitrary: fc.array(message, { maxLength: 6 }).map((m) => JSON.stringify(m)) },
  { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  { weight: 1, arbitrary: message.map((m) => JSON.stringify(m).slice(0, -1)) },
);
const headers = fc.record(
  {
    'Content-Type': fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8') },
      { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', '') },
    ),
    Accept: fc.constantFrom('application/json, text/event-stream', 'text/event-stream', '*/*'),
    'MCP-Protocol-Version': fc.constantFrom('2025-06-18', '2025-03-26', '2025-06-18', '2025-03-26', '2024-11-05', 'garbage'),
    // The attempt's own session id, or another.
    'Mcp-Session-Id': fc.constantFrom('own', 'own', 'own', '0'.repeat(32), 'f'),
  },
  { requiredKeys: ['Content-Type'] },
);
const httpMethod = fc.oneof(
  { weight: 8, arbitrary: fc.constant('POST') },
  { weight: 1, arbitrary: fc.constantFrom('GET', 'DELETE', 'PUT', 'PATCH') },
);
const badToken = fc.oneof(
  fc.constant(null),
  fc.stringMatching(/^[\x21-\x7e]{0,60}$/),
  fc.base64String({ minLength: 43, maxLength: 44 }).map((s) => `rts_mcp_${s}`),
  fc.nat({ max: 40 }).map((i) => ({ mutate: i })),
);

async function sendMcp(method: string, hdrs: Record<string, string>, text: string, path = mcp.path) {
  if (hdrs['Mcp-Session-Id'] === 'own') hdrs = { ...hdrs, 'Mcp-Session-Id': mcpSessionId(mcpTokenHash(mcp.token)) };
  const started = Date.now();
  const res = await fetch(svc.url + path, {
    method,
    headers: hdrs,
    body: method === 'GET' ? undefined : text,
    signal: AbortSignal.timeout(ANSWER_BOUND_MS),
  });
  const answer = await res.text();
  return { status: res.status, text: answer, ms: Date.now() - started };
}

/** Problems of one answer: a 5xx, or a body that is neither empty nor JSON-RPC (nor the gateway's error body). */
function problems(res: { status: number; text: string }): string[] {
  const out: string[] = [];
  if (res.status >= 500) out.push(`status ${res.status}: ${res.text.slice(0, 200)}`);
  if (res.text === '') return out;
  let parsed: any;
  try {
    parsed = JSON.parse(res.text);
  } catch {
    return [...out, `not JSON: ${res.text.slice(0, 200)}`];
  }
  const shaped = (m: any) => m?.jsonrpc === '2.0' || typeof m?.error?.code === 'string';
  if (!(Array.isArray(parsed) ? parsed.every((m) => shaped(m)) : shaped(parsed))) out.push(`not a JSON-RPC body: ${res.text.slice(0, 200)}`);
  return out;
}

const recordedCalls = async () => (await getDeps().mcpSessions.get(runId, 1))?.calls ?? [];

describe('fuzzed JSON-RPC on /v1/mcp/{run_id}/{attempt}', () => {
  it('never answers 5xx nor hangs, with the attempt token', async () => {
    await fc.assert(
      fc.asyncProperty(httpMethod, headers, body, async (method, hdrs, text) => {
        // Act
        const res = await sendMcp(method, { ...hdrs, Authorization: `Bearer ${mcp.token}` }, text);
        // Assess
        expect(problems(res)).toEqual([]);
      }),
      { numRuns, seed },
    );
    // Assess: the generated calls reached the serving path
    expect((await recordedCalls()).length).toBeGreaterThan(0);
  }, 120_000);

  it('serves and records nothing with a bad or missing token, on the attempt or a neighbour path', async () => {
    // Prepare
    const before = await recordedCalls();
    await fc.assert(
      fc.asyncProperty(
        badToken,
        headers,
        body,
        fc.constantFrom(mcp.path, mcp.path.replace(/\/1$/, '/2'), mcp.path.replace(/\/1$/, '/0')),
        async (token, hdrs, text, path) => {
          const mutated = typeof token === 'object' && token !== null ? mutate(mcp.token, token.mutate) : token;
          const auth: Record<string, string> = mutated === null ? {} : { Authorization: `Bearer ${mutated}` };
          const call = JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name: 'lookup_order', arguments: { order_id: '1234' } },
          });
          // Act
          const fuzzed = await sendMcp('POST', { ...hdrs, ...auth }, text, path);
          const wellFormed = await sendMcp('POST', { 'Content-Type': 'application/json', ...auth }, call, path);
          // Assess
          expect(problems(fuzzed)).toEqual([]);
          expect(fuzzed.status).toBeGreaterThanOrEqual(400);
          expect(wellFormed.status).toBe(401);
        },
      ),
      { numRuns, seed },
    );
    // Assess
    expect(await recordedCalls()).toEqual(before);
  }, 120_000);
});

/** The token with one character changed (or cut short, past its end): never the token itself. */
function mutate(token: string, i: number): string {
  if (i >= token.length) return token.slice(0, -1);
  const c = token[i] === 'A' ? 'B' : 'A';
  return token.slice(0, i) + c + token.slice(i + 1);
}

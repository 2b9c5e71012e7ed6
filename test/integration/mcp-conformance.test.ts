// The MCP endpoint against the official @modelcontextprotocol/sdk client over Streamable HTTP, in the local service: a
// real run with the `mcp` target invokes a loopback agent that holds its attempt open while the tests below connect
// to the attempt's endpoint with their own clients, then answers; the run's transcript is checked last.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { startTestService, type TestService } from '../helpers/local-service';
import { startMcpAgent, type McpAgent } from '../helpers/mcp-agent';

const ORDERS = Array.from({ length: 10 }, (_, i) => ({ order_id: `o${i + 1}`, total: (i + 1) * 10 }));
const TRACE = {
  trace_id: '5e0c1d2a-3b4c-4d5e-8f60-718293a4b5c6',
  name: 'order audit',
  tools: [
    { name: 'get_status', description: 'Service status', parameters: { type: 'object', properties: {} } },
    { name: 'lookup_order', description: 'Look up an order', parameters: { type: 'object', properties: { order_id: { type: 'string' } } } },
  ],
  steps: [
    { role: 'system', content: 'You audit orders.' },
    { role: 'user', content: 'Audit the ten latest orders.' },
    { role: 'assistant', content: null, tool_calls: [{ id: 's', name: 'get_status', arguments: {} }] },
    { role: 'tool', tool_call_id: 's', name: 'get_status', content: { status: 'ok' } },
    {
      role: 'assistant',
      content: null,
      tool_calls: ORDERS.map((o) => ({ id: o.order_id, name: 'lookup_order', arguments: { order_id: o.order_id } })),
    },
    ...ORDERS.map((o) => ({ role: 'tool', tool_call_id: o.order_id, name: 'lookup_order', content: o })),
    { role: 'assistant', content: 'All ten orders are fine.' },
  ],
};

let svc: TestService;
let agent: McpAgent;
let invoke: { mcp: { url: string; headers: Record<string, string> } };
let release: () => void;
let runId: string;
/** Every HTTP exchange of the clients made by connect(): method, request headers and body, status. */
const wire: Array<{ method: string; headers: Record<string, string>; body: any; status: number }> = [];

beforeAll(async () => {
  svc = await startTestService({ deliverWebhooks: false });
  expect((await svc.api('POST', '/v1/traces', TRACE)).status).toBe(201);
  const held = new Promise<void>((r) => (release = r));
  let opened!: () => void;
  const open = new Promise<void>((r) => (opened = r));
  agent = await startMcpAgent(async (i) => {
    invoke = i;
    opened();
    await held;
    return 'audited';
  });
  const c = await svc.api('POST', '/v1/campaigns', { name: 'conformance', target: { type: 'mcp', url: agent.url }, max_steps: 200 });
  const r = await svc.api('POST', '/v1/runs', { trace_id: TRACE.trace_id, campaign_id: c.body.campaign_id });
  runId = r.body.run_id;
  await open;
}, 60_000);
afterAll(async () => {
  release?.();
  await agent?.close();
  await svc?.stop();
});

/** An SDK client on the held attempt's endpoint; `version` forces the protocol version it asks for at initialize. */
async function connect(version?: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport; errors: Error[] }> {
  const fetchVia = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    let body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    if (version && body?.method === 'initialize') body = { ...body, params: { ...body.params, protocolVersion: version } };
    const sent = { ...init, body: body === undefined ? init?.body : JSON.stringify(body) };
    const res = await fetch(url, sent);
    wire.push({ method: init?.method ?? 'GET', headers: Object.fromEntries(new Headers(init?.headers)), body, status: res.status });
    return res;
  };
  const transport = new StreamableHTTPClientTransport(new URL(invoke.mcp.url), { requestInit: { headers: invoke.mcp.headers }, fetch: fetchVia });
  const client = new Client({ name: 'rts-conformance', version: '1.0.0' });
  const errors: Error[] = [];
  client.onerror = (e) => errors.push(e);
  await client.connect(transport);
  return { client, transport, errors };
}

const text = (r: any) => JSON.parse(r.content[0].text);

describe('the MCP endpoint with the official SDK client', () => {
  it('initializes: server rts with the tools capability, a session id, the newest version offered to a newer client', async () => {
    // Prepare
    wire.length = 0;
    // Act
    const { client, transport } = await connect();
    // Assess
    expect(client.getServerVersion()).toEqual({ name: 'rts', version: expect.any(String) });
    expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: false } });
    expect(transport.sessionId).toMatch(/^[0-9a-f]{32}$/);
    const init = wire.find((w) => w.body?.method === 'initialize');
    expect(init?.body.params.protocolVersion).toBe('2025-11-25');
    const later = wire.filter((w) => w.body?.method === 'notifications/initialized');
    expect(later).toEqual([expect.objectContaining({ status: 202 })]);
    expect(later[0]!.headers['mcp-protocol-version']).toBe('2025-06-18');
    expect(later[0]!.headers['mcp-session-id']).toBe(transport.sessionId);
    await client.close();
  });

  it.each(['2025-06-18', '2025-03-26'])('speaks protocol version %s when the client asks for it', async (version) => {
    // Prepare
    wire.length = 0;
    // Act
    const { client } = await connect(version);
    const { tools } = await client.listTools();
    // Assess
    expect(tools.map((t) => t.name)).toEqual(['get_status', 'lookup_order']);
    const listed = wire.find((w) => w.body?.method === 'tools/list');
    expect(listed).toMatchObject({ status: 200, headers: { 'mcp-protocol-version': version } });
    await client.close();
  });

  it('lists the trace tools with their schemas and serves a recorded call as text and structuredContent', async () => {
    // Prepare
    const { client } = await connect();
    // Act
    const { tools } = await client.listTools();
    const result = await client.callTool({ name: 'get_status', arguments: {} });
    // Assess
    expect(tools[1]).toEqual({
      name: 'lookup_order',
      description: 'Look up an order',
      inputSchema: { type: 'object', properties: { order_id: { type: 'string' } } },
    });
    expect(result).toEqual({ content: [{ type: 'text', text: '{"status":"ok"}' }], structuredContent: { status: 'ok' }, isError: false });
    await client.close();
  });

  it('answers an unknown tool with an isError result, and bad params or an unknown method with an McpError', async () => {
    // Prepare
    const { client } = await connect();
    // Act
    const unknown = await client.callTool({ name: 'wire_money', arguments: { to: 'x' } });
    // Both requests go out together; each failure is caught as it comes, so neither is ever an unhandled rejection.
    const failureOf = (request: Promise<unknown>) =>
      request.then(
        () => null,
        (err: unknown) => err,
      );
    const [noName, noMethod] = await Promise.all([
      failureOf(client.request({ method: 'tools/call', params: { name: '' } }, CallToolResultSchema)),
      failureOf(client.request({ method: 'resources/list', params: {} }, CallToolResultSchema)),
    ]);
    // Assess
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toEqual({ error: 'no recorded result for tool wire_money' });
    expect(noName).toBeInstanceOf(McpError);
    expect(noName).toEqual(expect.objectContaining({ code: ErrorCode.InvalidParams }));
    expect(noMethod).toBeInstanceOf(McpError);
    expect(noMethod).toEqual(expect.objectContaining({ code: ErrorCode.MethodNotFound }));
    await client.close();
  });

  it('handles the session: one id per attempt, the GET stream refused with 405 quietly, terminateSession through a 405 DELETE', async () => {
    // Prepare
    wire.length = 0;
    const first = await connect();
    const second = await connect('2025-03-26');
    const issued = first.transport.sessionId;
    // Act
    await first.transport.terminateSession();
    await new Promise((r) => setTimeout(r, 100));
    const afterwards = await second.client.listTools();
    // Assess
    expect(second.transport.sessionId).toBe(issued);
    expect(first.transport.sessionId).toBeUndefined();
    expect(wire.filter((w) => w.method === 'GET').map((w) => w.status)).toEqual([405, 405]);
    expect(wire.filter((w) => w.method === 'DELETE').map((w) => w.status)).toEqual([405]);
    expect(afterwards.tools).toHaveLength(2);
    expect([...first.errors, ...second.errors]).toEqual([]);
    await Promise.all([first.client.close(), second.client.close()]);
  });

  it('serves 10 concurrent calls each a different recorded result, once', async () => {
    // Prepare
    const { client } = await connect();
    // Act
    const results = await Promise.all(ORDERS.map(() => client.callTool({ name: 'lookup_order', arguments: { order_id: 'latest' } })));
    const eleventh = await client.callTool({ name: 'lookup_order', arguments: { order_id: 'latest' } });
    // Assess
    expect(results.map((r) => r.isError)).toEqual(ORDERS.map(() => false));
    expect(results.map((r) => text(r)).sort((a, b) => a.total - b.total)).toEqual(ORDERS);
    expect(eleventh.isError).toBe(true);
    await client.close();
  });

  it('records every call in the transcript in the order it was served, as the run ends', async () => {
    // Act
    release();
    const end = Date.now() + 30_000;
    let attempts: any[] = [];
    for (;;) {
      const run = await svc.api('GET', `/v1/runs/${runId}`);
      if (run.body.status === 'completed' || run.body.status === 'failed') {
        attempts = (await svc.api('GET', `/v1/runs/${runId}/attempts`)).body.items;
        break;
      }
      if (Date.now() > end) throw new Error(`run still ${run.body.status}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    // Assess
    const served = attempts[0].transcript.filter((e: any) => e.type === 'tool_result');
    expect(served.map((e: any) => e.tool_call_id)).toEqual(served.map((_: unknown, i: number) => `mcp_${i + 1}`));
    expect(served.map((e: any) => [e.tool, e.served])).toEqual([
      ['get_status', 'recorded'],
      ['wire_money', 'unrecorded'],
      ...ORDERS.map(() => ['lookup_order', 'recorded']),
      ['lookup_order', 'unrecorded'],
    ]);
    const lookups = served.filter((e: any) => e.tool === 'lookup_order' && e.served === 'recorded').map((e: any) => e.result);
    expect([...lookups].sort((a: any, b: any) => a.total - b.total)).toEqual(ORDERS);
    expect(attempts[0].policy_events.map((e: any) => [e.policy_id, e.tool])).toEqual([
      ['unrecorded_tool_call', 'wire_money'],
      ['unrecorded_tool_call', 'lookup_order'],
    ]);
    expect(attempts[0].output).toBe('audited');
  });
});

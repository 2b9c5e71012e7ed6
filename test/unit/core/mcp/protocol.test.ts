import {
  handleMcpHttp,
  INVALID_PARAMS,
  INVALID_REQUEST,
  JsonRpcError,
  METHOD_NOT_FOUND,
  MCP_SERVER_NAME,
  PARSE_ERROR,
  UNAUTHORIZED,
  type McpAttemptView,
  type McpHttpRequest,
} from '../../../../functions/core/mcp/protocol';
import { toolResult } from '../../../../functions/core/mcp/serve';

const TOKEN = 'rts_mcp_good';
const SESSION = 'a'.repeat(32);

/** A view that records what reached it, with one tool. */
function fakeView() {
  const calls: Array<{ id: string; name: string; args: Record<string, unknown> }> = [];
  const view: McpAttemptView = {
    sessionId: SESSION,
    tools: async () => [{ name: 'lookup_order', inputSchema: { type: 'object' } }],
    call: async (id, name, args) => {
      calls.push({ id, name, args });
      if (name === 'ended') throw new JsonRpcError(UNAUTHORIZED, 'ended');
      if (name === 'broken') throw new Error('store down');
      return toolResult({ served: name }, false);
    },
  };
  const opened: string[] = [];
  const open = async (token: string) => {
    opened.push(token);
    return token === TOKEN ? view : null;
  };
  return { calls, opened, open };
}

function post(body: unknown, headers: Record<string, string | undefined> = {}): McpHttpRequest {
  return {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
}

async function send(req: McpHttpRequest) {
  const fake = fakeView();
  const res = await handleMcpHttp(req, fake.open, '9.9.9');
  return { ...res, json: res.body ? JSON.parse(res.body) : undefined, calls: fake.calls, opened: fake.opened };
}

const rpc = (method: string, params?: unknown, id: string | number = 1) => ({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });

describe('handleMcpHttp: HTTP methods and credentials', () => {
  it.each(['GET', 'DELETE'])('answers %s with 405, Allow: POST, before looking at the token', async (method) => {
    // Prepare
    const req: McpHttpRequest = { method, headers: { authorization: `Bearer ${TOKEN}` }, body: null };
    // Act
    const res = await send(req);
    // Assess
    expect(res.status).toBe(405);
    expect(res.headers.Allow).toBe('POST');
    expect(res.json.error.code).toBe(INVALID_REQUEST);
    expect(res.opened).toEqual([]);
  });

  it.each([
    ['no Authorization header', undefined],
    ['a non-bearer scheme', `Basic ${TOKEN}`],
    ['an empty bearer', 'Bearer '],
    ['a bad token', 'Bearer rts_mcp_wrong'],
  ])('answers 401 with %s and serves nothing', async (_label, authorization) => {
    // Prepare
    const req = post(rpc('tools/call', { name: 'lookup_order' }), { authorization });
    // Act
    const res = await send(req);
    // Assess
    expect(res.status).toBe(401);
    expect(res.headers['WWW-Authenticate']).toMatch(/^Bearer /);
    expect(res.json).toEqual({ jsonrpc: '2.0', id: null, error: { code: UNAUTHORIZED, message: expect.any(String) } });
    expect(res.calls).toEqual([]);
  });

  it('accepts the bearer scheme in any case and trailing spaces', async () => {
    // Prepare
    const req = post(rpc('ping'), { authorization: `bearer ${TOKEN}  ` });
    // Act
    const res = await send(req);
    // Assess
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });
});

describe('handleMcpHttp: transport headers', () => {
  it('answers an unsupported MCP-Protocol-Version with 400', async () => {
    // Act
    const res = await send(post(rpc('ping'), { 'mcp-protocol-version': '2024-11-05' }));
    // Assess
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe(INVALID_REQUEST);
    expect(res.json.error.message).toContain('2025-06-18');
  });

  it.each(['2025-06-18', '2025-03-26'])('accepts MCP-Protocol-Version %s', async (version) => {
    // Act
    const res = await send(post(rpc('ping'), { 'mcp-protocol-version': version }));
    // Assess
    expect(res.status).toBe(200);
  });

  it('answers an unknown Mcp-Session-Id with 404 and accepts the issued one', async () => {
    // Act
    const unknown = await send(post(rpc('ping'), { 'mcp-session-id': 'b'.repeat(32) }));
    const known = await send(post(rpc('ping'), { 'mcp-session-id': SESSION }));
    // Assess
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe(INVALID_REQUEST);
    expect(known.status).toBe(200);
  });

  it.each([['text/plain'], [undefined], ['application/jsonx']])('answers content type %s with 415', async (type) => {
    // Act
    const res = await send(post(rpc('ping'), { 'content-type': type }));
    // Assess
    expect(res.status).toBe(415);
    expect(res.json.error.code).toBe(INVALID_REQUEST);
  });

  it('accepts application/json with parameters and in any case', async () => {
    // Act
    const res = await send(post(rpc('ping'), { 'content-type': 'Application/JSON; charset=utf-8' }));
    // Assess
    expect(res.status).toBe(200);
  });
});

describe('handleMcpHttp: JSON-RPC framing', () => {
  it.each(['{', '', 'not json'])('answers the body %j with a parse error -32700 and 400', async (body) => {
    // Act
    const res = await send(post(body));
    // Assess
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ jsonrpc: '2.0', id: null, error: { code: PARSE_ERROR, message: expect.any(String) } });
  });

  it('answers a null body with a parse error', async () => {
    // Act
    const res = await send({ ...post(''), body: null });
    // Assess
    expect(res.json.error.code).toBe(PARSE_ERROR);
  });

  it.each([
    ['jsonrpc 1.0', { jsonrpc: '1.0', id: 1, method: 'ping' }],
    ['no jsonrpc', { id: 1, method: 'ping' }],
    ['an object id', { jsonrpc: '2.0', id: { a: 1 }, method: 'ping' }],
    ['a null id', { jsonrpc: '2.0', id: null, method: 'ping' }],
    ['a boolean id', { jsonrpc: '2.0', id: true, method: 'ping' }],
    ['a numeric method', { jsonrpc: '2.0', id: 1, method: 7 }],
    ['string params', { jsonrpc: '2.0', id: 1, method: 'ping', params: 'x' }],
    ['a response without result or error', { jsonrpc: '2.0', id: 1 }],
    ['a scalar', 42],
    ['an empty batch', []],
    [
      'a batch with one bad member',
      [
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '1.0', id: 2, method: 'ping' },
      ],
    ],
  ])('answers %s with invalid request -32600 and 400', async (_label, body) => {
    // Act
    const res = await send(post(body));
    // Assess
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ jsonrpc: '2.0', id: null, error: { code: INVALID_REQUEST, message: expect.any(String) } });
    expect(res.calls).toEqual([]);
  });

  it('answers notifications and responses only with 202 and an empty body', async () => {
    // Prepare
    const body = [
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
      { jsonrpc: '2.0', id: 5, result: {} },
      { jsonrpc: '2.0', id: 6, error: { code: -1, message: 'x' } },
    ];
    // Act
    const res = await send(post(body));
    // Assess
    expect(res).toMatchObject({ status: 202, body: '' });
    expect(res.calls).toEqual([]);
  });

  it('answers a single notification with 202', async () => {
    // Act
    const res = await send(post({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'lookup_order' } }));
    // Assess
    expect(res).toMatchObject({ status: 202, body: '' });
    expect(res.calls).toEqual([]);
  });

  it('answers a batch with an array of the requests answers in order, skipping its notifications', async () => {
    // Prepare
    const body = [
      rpc('ping', undefined, 'a'),
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      rpc('nope', undefined, 2),
      rpc('tools/list', undefined, 3),
    ];
    // Act
    const res = await send(post(body));
    // Assess
    expect(res.status).toBe(200);
    expect(res.json.map((a: any) => a.id)).toEqual(['a', 2, 3]);
    expect(res.json[0].result).toEqual({});
    expect(res.json[1].error.code).toBe(METHOD_NOT_FOUND);
    expect(res.json[2].result.tools.map((t: any) => t.name)).toEqual(['lookup_order']);
  });

  it('answers an unknown method with -32601 under its id, status 200', async () => {
    // Act
    const res = await send(post(rpc('resources/list', undefined, 'x1')));
    // Assess
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ jsonrpc: '2.0', id: 'x1', error: { code: METHOD_NOT_FOUND, message: expect.stringContaining('resources/list') } });
  });
});

describe('handleMcpHttp: methods', () => {
  it.each([
    ['2025-06-18', '2025-06-18'],
    ['2025-03-26', '2025-03-26'],
    ['2024-11-05', '2025-06-18'],
    ['2099-01-01', '2025-06-18'],
    [undefined, '2025-06-18'],
  ])('negotiates initialize asked for %s as %s, and issues the session id', async (asked, offered) => {
    // Prepare
    const params = { protocolVersion: asked, capabilities: {}, clientInfo: { name: 't', version: '1' } };
    // Act
    const res = await send(post(rpc('initialize', params)));
    // Assess
    expect(res.status).toBe(200);
    expect(res.headers['Mcp-Session-Id']).toBe(SESSION);
    expect(res.json.result).toEqual({
      protocolVersion: offered,
      capabilities: { tools: { listChanged: false } },
      serverInfo: { name: MCP_SERVER_NAME, version: '9.9.9' },
      instructions: expect.any(String),
    });
  });

  it('issues no session id on other requests', async () => {
    // Act
    const res = await send(post(rpc('tools/list')));
    // Assess
    expect(res.headers['Mcp-Session-Id']).toBeUndefined();
    expect(res.json.result).toEqual({ tools: [{ name: 'lookup_order', inputSchema: { type: 'object' } }] });
  });

  it('serves tools/call with its name and arguments (none given: an empty object)', async () => {
    // Act
    const withArgs = await send(post(rpc('tools/call', { name: 'lookup_order', arguments: { order_id: '1' } }, 7)));
    const without = await send(post(rpc('tools/call', { name: 'lookup_order', arguments: null }, 8)));
    // Assess
    expect(withArgs.calls).toEqual([{ id: '7', name: 'lookup_order', args: { order_id: '1' } }]);
    expect(withArgs.json.result).toEqual({
      content: [{ type: 'text', text: '{"served":"lookup_order"}' }],
      structuredContent: { served: 'lookup_order' },
      isError: false,
    });
    expect(without.calls[0].args).toEqual({});
  });

  it.each([
    ['no params', undefined],
    ['array params', ['lookup_order']],
    ['no name', { arguments: {} }],
    ['an empty name', { name: '' }],
    ['a numeric name', { name: 3 }],
    ['array arguments', { name: 'lookup_order', arguments: [1] }],
    ['string arguments', { name: 'lookup_order', arguments: 'x' }],
  ])('answers tools/call with %s with -32602 and serves nothing', async (_label, params) => {
    // Act
    const res = await send(post({ jsonrpc: '2.0', id: 4, method: 'tools/call', ...(params !== undefined ? { params } : {}) }));
    // Assess
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ jsonrpc: '2.0', id: 4, error: { code: INVALID_PARAMS, message: expect.any(String) } });
    expect(res.calls).toEqual([]);
  });

  it('answers a call refused by the view (its attempt ended) as a JSON-RPC error', async () => {
    // Act
    const res = await send(post(rpc('tools/call', { name: 'ended' })));
    // Assess
    expect(res.json).toEqual({ jsonrpc: '2.0', id: 1, error: { code: UNAUTHORIZED, message: 'ended' } });
  });

  it('lets a failure of the store propagate (the route maps it to a 500)', async () => {
    // Act
    const answer = send(post(rpc('tools/call', { name: 'broken' })));
    // Assess
    await expect(answer).rejects.toThrow('store down');
  });
});

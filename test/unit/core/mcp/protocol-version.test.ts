// The MCP-Protocol-Version header: checked on the requests after initialize, not on the initialize itself, where a
// client may send the newest version it knows before the version is negotiated in the body (the Vercel AI SDK does).
import { handleMcpHttp, type McpAttemptView } from '../../../../functions/core/mcp/protocol';

const VIEW: McpAttemptView = {
  sessionId: 'session-1',
  tools: async () => [{ name: 'lookup_order', inputSchema: { type: 'object' } }],
  call: async () => ({ content: [{ type: 'text', text: '{}' }], isError: false }),
};

function post(body: object, version: string) {
  const headers = { authorization: 'Bearer t', 'content-type': 'application/json', 'mcp-protocol-version': version };
  return handleMcpHttp({ method: 'POST', headers, body: JSON.stringify(body) }, async () => VIEW, '1.0.0');
}

describe('POST /v1/mcp/{run_id}/{attempt}: MCP-Protocol-Version', () => {
  it('negotiates an initialize sent with a version header it does not speak: answers with its newest version', async () => {
    // Act
    const res = await post(
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } },
      '2025-11-25',
    );
    // Assess
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).result.protocolVersion).toBe('2025-06-18');
    expect(res.headers['Mcp-Session-Id']).toBe('session-1');
  });

  it('refuses a later request with a version it does not speak with 400, and serves one it speaks', async () => {
    // Act
    const refused = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, '2025-11-25');
    const served = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, '2025-03-26');
    // Assess
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body).error.message).toMatch(/Unsupported MCP-Protocol-Version 2025-11-25/);
    expect(served.status).toBe(200);
    expect(JSON.parse(served.body).result.tools.map((t: { name: string }) => t.name)).toEqual(['lookup_order']);
  });
});

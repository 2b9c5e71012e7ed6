// A loopback `mcp` target agent for tests: answers rts.invoke.v1 requests by connecting to the MCP endpoint named in
// the invoke with the official @modelcontextprotocol/sdk client (Streamable HTTP), running a scripted loop over its
// tools, and answering {"output": ...}. Keeps every invoke body and every tool result it saw.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export interface ToolAnswer {
  name: string;
  text: string;
  isError: boolean;
  structured?: unknown;
}

/** What the scripted loop can do: list the tools, call one. */
export interface McpSession {
  client: Client;
  tools: Array<{ name: string; description?: string; inputSchema: unknown }>;
  call(name: string, args?: Record<string, unknown>): Promise<ToolAnswer>;
}

export type Script = (invoke: any, mcp: McpSession) => Promise<string>;

export interface McpAgent {
  url: string;
  invokes: any[];
  results: ToolAnswer[];
  close(): Promise<void>;
}

/** Starts the agent; `script` decides its calls and returns its output; `status` may answer an invoke with an error. */
export async function startMcpAgent(script: Script, opts: { status?: (invoke: any) => number | undefined } = {}): Promise<McpAgent> {
  const invokes: any[] = [];
  const results: ToolAnswer[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      void (async () => {
        const invoke = JSON.parse(raw);
        invokes.push({ ...invoke, headers: req.headers });
        const failWith = opts.status?.(invoke);
        if (failWith !== undefined) {
          res.writeHead(failWith, { 'Content-Type': 'application/json' });
          res.end('{"error":"scripted failure"}');
          return;
        }
        try {
          const output = await withMcp(invoke, (mcp) => script(invoke, mcp), results);
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ output }));
        } catch (err) {
          res.writeHead(500, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ error: String(err) }));
        }
      })();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/invoke`, invokes, results, close: () => new Promise((r) => server.close(() => r())) };
}

/** Connects to the invoke's MCP endpoint with its headers, runs `fn`, closes the client. */
export async function withMcp<T>(invoke: any, fn: (mcp: McpSession) => Promise<T>, results: ToolAnswer[] = []): Promise<T> {
  const client = new Client({ name: 'rts-test-agent', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(invoke.mcp.url), { requestInit: { headers: invoke.mcp.headers } });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    return await fn({
      client,
      tools,
      async call(name, args = {}) {
        const r = (await client.callTool({ name, arguments: args })) as any;
        const answer: ToolAnswer = { name, text: r.content?.[0]?.text ?? '', isError: r.isError === true, structured: r.structuredContent };
        results.push(answer);
        return answer;
      },
    });
  } finally {
    await client.close();
  }
}

// The HTTP side of an rts invoke endpoint (docs/mcp-frameworks.md): reads one rts.invoke.v1 request, hands it to the
// agent's handleInvoke and answers {"output": ...}. Run an example with `npx tsx examples/mcp/serve.ts openai-agents`.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One chat message of the replayed conversation: the trace's system and user steps, and the agent's earlier answers. */
export type InvokeMessage = { role: 'system' | 'user' | 'assistant'; content: string };

/** What rts POSTs for each turn of each attempt. */
export interface InvokeRequest {
  protocol: 'rts.invoke.v1';
  run_id: string;
  attempt: number;
  turn: number;
  messages: InvokeMessage[];
  /** The attempt's MCP server (Streamable HTTP): connect to `url` sending `headers` as they are. */
  mcp: { url: string; headers: Record<string, string> };
}

export interface InvokeAnswer {
  output: string;
}

export type HandleInvoke = (body: InvokeRequest) => Promise<InvokeAnswer>;

export interface ServeOptions {
  port?: number;
  host?: string;
  /** When set, a request must carry `Authorization: Bearer <secret>` (put it in the campaign's `target.headers`). */
  secret?: string;
}

/** Serves `handleInvoke` on POST (any path); resolves with the server once it listens. */
export async function serveInvoke(handleInvoke: HandleInvoke, opts: ServeOptions = {}): Promise<Server> {
  const server = createServer((req, res) => {
    const answer = (status: number, body: object) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST') return answer(405, { error: 'POST an rts.invoke.v1 request' });
    if (opts.secret && req.headers.authorization !== `Bearer ${opts.secret}`) return answer(401, { error: 'unauthorized' });
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body: InvokeRequest;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return answer(400, { error: 'the body is not JSON' });
      }
      if (body?.protocol !== 'rts.invoke.v1' || typeof body.mcp?.url !== 'string') return answer(400, { error: 'not an rts.invoke.v1 request' });
      handleInvoke(body).then(
        (output) => answer(200, output),
        (err: unknown) => {
          console.error(`invoke ${body.run_id}:${body.attempt} failed:`, err);
          answer(500, { error: 'the agent failed' });
        },
      );
    });
  });
  await new Promise<void>((listening) => server.listen(opts.port ?? 8789, opts.host ?? '127.0.0.1', listening));
  return server;
}

const EXAMPLES: Record<string, () => Promise<{ handleInvoke: HandleInvoke }>> = {
  'openai-agents': () => import('./openai-agents'),
  'vercel-ai': () => import('./vercel-ai'),
  langgraph: () => import('./langgraph'),
};

async function main(name: string | undefined): Promise<void> {
  const load = name === undefined ? undefined : EXAMPLES[name];
  if (!load) throw new Error(`usage: tsx examples/mcp/serve.ts ${Object.keys(EXAMPLES).join('|')}`);
  const { handleInvoke } = await load();
  const server = await serveInvoke(handleInvoke, { port: Number(process.env.PORT ?? 8789), secret: process.env.INVOKE_SECRET });
  console.log(`${name} invoke endpoint on http://127.0.0.1:${(server.address() as AddressInfo).port}/invoke`);
}

if (require.main === module) {
  main(process.argv[2]).catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}

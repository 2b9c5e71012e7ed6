// An OpenAI Agents SDK agent behind an rts invoke endpoint (docs/mcp-frameworks.md): the agent runs unchanged, with
// the attempt's MCP server as its only tool source. Serve it with `npx tsx examples/mcp/serve.ts openai-agents`.
import { Agent, assistant, MCPServerStreamableHttp, OpenAIProvider, Runner, setTracingDisabled, system, user } from '@openai/agents';
import type { InvokeAnswer, InvokeRequest } from './serve';

/** Your agent as it is; only its tools come from the MCP server it is given. */
function supportAgent(mcp: MCPServerStreamableHttp): Agent {
  return new Agent({
    name: 'support-bot',
    instructions: 'You are a customer support agent. Use your tools; keep answers short.',
    model: process.env.OPENAI_MODEL ?? 'gpt-4o-mini',
    mcpServers: [mcp],
  });
}

/** Your model provider as it is: any OpenAI-compatible Chat Completions endpoint. */
function runner(): Runner {
  setTracingDisabled(true);
  const modelProvider = new OpenAIProvider({ baseURL: process.env.OPENAI_BASE_URL, apiKey: process.env.OPENAI_API_KEY, useResponses: false });
  return new Runner({ modelProvider });
}

export async function handleInvoke(body: InvokeRequest): Promise<InvokeAnswer> {
  const mcp = new MCPServerStreamableHttp({ name: 'rts', url: body.mcp.url, requestInit: { headers: body.mcp.headers } });
  await mcp.connect();
  try {
    const input = body.messages.map((m) => (m.role === 'system' ? system(m.content) : m.role === 'user' ? user(m.content) : assistant(m.content)));
    const result = await runner().run(supportAgent(mcp), input, { maxTurns: 20 });
    return { output: String(result.finalOutput ?? '') };
  } finally {
    await mcp.close();
  }
}

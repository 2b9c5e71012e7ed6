// A LangGraph.js ReAct agent behind an rts invoke endpoint (docs/mcp-frameworks.md): the prebuilt agent loops over
// the tools of the attempt's MCP server. Serve it with `npx tsx examples/mcp/serve.ts langgraph`.
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import { ChatOpenAI } from '@langchain/openai';
import type { InvokeAnswer, InvokeRequest } from './serve';

/** Your model as it is: any OpenAI-compatible endpoint. */
function llm(): ChatOpenAI {
  return new ChatOpenAI({
    model: process.env.OPENAI_MODEL ?? 'gpt-4o-mini',
    apiKey: process.env.OPENAI_API_KEY,
    configuration: { baseURL: process.env.OPENAI_BASE_URL },
  });
}

export async function handleInvoke(body: InvokeRequest): Promise<InvokeAnswer> {
  const mcp = new MultiServerMCPClient({ mcpServers: { rts: { transport: 'http', url: body.mcp.url, headers: body.mcp.headers } } });
  try {
    const agent = createReactAgent({ llm: llm(), tools: await mcp.getTools() });
    const result = await agent.invoke({ messages: body.messages }, { recursionLimit: 40 });
    return { output: result.messages.at(-1)?.text ?? '' };
  } finally {
    await mcp.close();
  }
}

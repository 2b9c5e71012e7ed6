// A Vercel AI SDK agent behind an rts invoke endpoint (docs/mcp-frameworks.md): generateText runs its own tool loop
// over the tools of the attempt's MCP server. Serve it with `npx tsx examples/mcp/serve.ts vercel-ai`.
import { createMCPClient } from '@ai-sdk/mcp';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, stepCountIs, type ModelMessage } from 'ai';
import type { InvokeAnswer, InvokeRequest } from './serve';

/** Your model as it is: any OpenAI-compatible endpoint. */
function model() {
  const provider = createOpenAICompatible({
    name: 'openai',
    baseURL: process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1',
    apiKey: process.env.OPENAI_API_KEY,
  });
  return provider(process.env.OPENAI_MODEL ?? 'gpt-4o-mini');
}

export async function handleInvoke(body: InvokeRequest): Promise<InvokeAnswer> {
  // The AI SDK takes the system prompt apart from the conversation.
  const system = body.messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n\n');
  const messages = body.messages.filter((m) => m.role !== 'system') as ModelMessage[];
  const mcp = await createMCPClient({ transport: { type: 'http', url: body.mcp.url, headers: body.mcp.headers } });
  try {
    const result = await generateText({ model: model(), system, messages, tools: await mcp.tools(), stopWhen: stepCountIs(20) });
    return { output: result.text };
  } finally {
    await mcp.close();
  }
}

// The demo agent as an `mcp` target (docs/connect-your-agent.md#mcp-demo-agent): answers an rts.invoke.v1 request by
// running its own loop against the MCP endpoint named in it, with the official @modelcontextprotocol/sdk client. Its
// keyword planner is the step agent's (behaviour.ts); only the tools come over MCP. Loaded only by `--mcp`.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { z } from '../../core/openapi/zod';
import { decideStep } from './behaviour';
import type { DemoPlan } from './plan';
import type { StepMessage } from './protocol';

/** The invoke the service POSTs once per turn of an attempt; unknown fields are ignored. */
export const invokeRequestSchema = z.object({
  protocol: z.literal('rts.invoke.v1'),
  run_id: z.string().optional(),
  attempt: z.number().int().min(0).optional(),
  messages: z.array(z.looseObject({ role: z.string(), content: z.unknown().optional() })),
  mcp: z.object({ url: z.url(), headers: z.record(z.string(), z.string()).default({}) }),
});
export type InvokeRequest = z.infer<typeof invokeRequestSchema>;

/** Tool calls the loop makes at most per invoke: the planner always ends, this only guards against surprises. */
const MAX_LOOP_STEPS = 50;

/** The final answer of one invoke: the planner's steps, each tool call made over MCP, until it answers. */
export async function runMcpInvoke(invoke: InvokeRequest, plans: DemoPlan[], guarded: boolean): Promise<string> {
  const client = new Client({ name: guarded ? 'rts-demo-agent-guarded' : 'rts-demo-agent', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(invoke.mcp.url), { requestInit: { headers: invoke.mcp.headers } });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    const offers = tools.map((t) => ({ name: t.name, description: t.description, parameters: t.inputSchema }));
    const messages: StepMessage[] = invoke.messages.map((m) => ({ ...m }));
    for (let step = 1; step <= MAX_LOOP_STEPS; step++) {
      const reply = decideStep({ protocol: 'rts.step.v1', attempt: invoke.attempt, step, tools: offers, messages }, plans, guarded);
      if ('output' in reply) return reply.output;
      messages.push({ role: 'assistant', content: null, tool_calls: reply.tool_calls } as StepMessage);
      for (const call of reply.tool_calls) {
        const result = await client.callTool({ name: call.name, arguments: call.arguments });
        messages.push(toolMessage(call.id, call.name, result));
      }
    }
    return 'I stopped: too many steps.';
  } finally {
    await client.close();
  }
}

/** An MCP tool result as the planner reads a tool message: the served JSON, and its text as the error when isError. */
function toolMessage(id: string, name: string, result: Awaited<ReturnType<Client['callTool']>>): StepMessage {
  const items = Array.isArray(result.content) ? (result.content as Array<{ type?: string; text?: unknown }>) : [];
  const text = items.map((c) => (c.type === 'text' && typeof c.text === 'string' ? c.text : '')).join('');
  let content: unknown = text;
  try {
    content = JSON.parse(text);
  } catch {
    // Plain text stays as it is.
  }
  return { role: 'tool', tool_call_id: id, name, content, ...(result.isError === true ? { error: text || 'error' } : {}) };
}

/** Answers one POST to an invoke endpoint: 200 {"output"}, 400 for a body that is no invoke, 502 when MCP failed. */
export async function answerInvoke(raw: string, plans: DemoPlan[], guarded: boolean): Promise<{ status: number; body: unknown }> {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return { status: 400, body: { error: { code: 'invalid_json', message: 'The body is not valid JSON.' } } };
  }
  const parsed = invokeRequestSchema.safeParse(body);
  if (!parsed.success) return { status: 400, body: { error: { code: 'invalid_request', message: 'The body is not an rts.invoke.v1 request.' } } };
  try {
    return { status: 200, body: { output: await runMcpInvoke(parsed.data, plans, guarded) } };
  } catch (err) {
    return { status: 502, body: { error: { code: 'mcp_failed', message: `The MCP endpoint failed: ${(err as Error).message}` } } };
  }
}

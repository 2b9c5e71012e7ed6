// What the MCP endpoint serves an `mcp` target's agent: the trace's tools, and each tool call served exactly as the step
// protocol serves it (docs/campaigns-and-replay.md#serving). Serving is a pure function of the calls before: the
// attempt is rebuilt from the calls already recorded, then the new call is served, so any process serving the n-th call
// of an attempt gives the same answer, and the replay worker, reading the calls back, rebuilds the same attempt.
import type { Clock } from '../time';
import { serveToolCall } from '../replay/attempt-serve';
import { openAttempt } from '../replay/attempt-state';
import type { CompiledRun } from '../replay/compile';
import type { PlannedAttempt } from '../replay/types';
import type { McpCall } from './port';

/** A tool as tools/list lists it. */
export interface McpTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

/** A tools/call result: one text item with the served JSON, and the object itself when it is one. */
export interface McpToolResult {
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError: boolean;
}

/** The trace's tools in trace order, then any tool only seen in recorded calls (with an open object schema). */
export function listTools(run: Pick<CompiledRun, 'tools' | 'recording'>): McpTool[] {
  const tools: McpTool[] = run.tools.map((t) => ({
    name: t.name,
    ...(t.description !== undefined ? { description: t.description } : {}),
    inputSchema: inputSchema(t.parameters),
  }));
  const listed = new Set(tools.map((t) => t.name));
  for (const name of run.recording.toolSequence) {
    if (listed.has(name)) continue;
    listed.add(name);
    tools.push({ name, inputSchema: { type: 'object' } });
  }
  return tools;
}

/** MCP wants an object schema: a trace's parameters are one as they are, or become the properties-free object. */
function inputSchema(parameters: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!parameters) return { type: 'object' };
  if (parameters.type === 'object') return parameters;
  if (parameters.type === undefined) return { type: 'object', ...parameters };
  return { type: 'object' };
}

/**
 * Serves `call` as the call after `prior` in the attempt: policies, the recording, the mutation, exactly as the step
 * protocol does for the same sequence of calls. A denied, unrecorded or mutated-to-error call is `isError`.
 */
export async function serveCall(
  run: CompiledRun,
  planned: PlannedAttempt,
  prior: readonly McpCall[],
  call: McpCall,
  clock: Clock,
): Promise<McpToolResult> {
  const state = openAttempt(run, planned, clock);
  for (const [i, c] of [...prior, call].entries()) {
    state.step = i + 1;
    await serveToolCall(state, { id: c.id, name: c.name, arguments: c.arguments });
  }
  const served = state.transcript.at(-1);
  if (served?.type !== 'tool_result') throw new Error('serving a call left no tool result');
  return toolResult(served.result, served.error !== null && served.error !== undefined);
}

export function toolResult(content: unknown, isError: boolean): McpToolResult {
  const text = JSON.stringify(content ?? null);
  const structured = content !== null && typeof content === 'object' && !Array.isArray(content);
  return {
    content: [{ type: 'text', text }],
    ...(structured ? { structuredContent: content as Record<string, unknown> } : {}),
    isError,
  };
}

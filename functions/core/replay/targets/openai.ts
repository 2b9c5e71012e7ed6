// The `openai` target: the service runs the agent loop itself against an OpenAI-compatible Chat Completions endpoint.
import type { Target } from '../../campaigns/schema';
import type { HttpSender } from '../../ports';
import type { ToolDefinition } from '../../traces/schema';
import { realSleep, type AgentTarget, type AgentToolCall, type AgentTurn, type ChatMessage, type Sleep } from '../types';
import { failOnStatus, isObject, parseJsonObject, RetryableFailure, withRetries } from './retry';
import type { ThrottleOf } from './throttle';

export type OpenAiTargetConfig = Extract<Target, { type: 'openai' }>;

/**
 * The completions URL: `<base_url>/chat/completions`, trailing slashes ignored. A bare host (no path) gets `/v1`
 * as every OpenAI-compatible server mounts it there; a base that already ends in `/chat/completions` is used as is.
 */
export function completionsUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  // Trailing slashes cut by hand: `/\/+$/` reads a long run of slashes again from each one.
  let end = url.pathname.length;
  while (end > 0 && url.pathname[end - 1] === '/') end -= 1;
  let path = url.pathname.slice(0, end);
  if (!path.endsWith('/chat/completions')) path = `${path === '' ? '/v1' : path}/chat/completions`;
  url.pathname = path;
  return url.toString();
}

/** OpenAI wire format of the conversation: tool-call arguments as JSON strings, tool results as strings. */
export function toOpenAiMessages(messages: readonly ChatMessage[]): Record<string, unknown>[] {
  return messages.map((m) => {
    switch (m.role) {
      case 'system':
      case 'user':
        return { role: m.role, content: m.content };
      case 'assistant':
        return m.tool_calls && m.tool_calls.length > 0
          ? {
              role: 'assistant',
              content: m.content,
              tool_calls: m.tool_calls.map((c) => ({
                id: c.id,
                type: 'function',
                function: { name: c.name, arguments: JSON.stringify(c.arguments) },
              })),
            }
          : { role: 'assistant', content: m.content ?? '' };
      case 'tool':
        return {
          role: 'tool',
          tool_call_id: m.tool_call_id,
          content: typeof m.content === 'string' ? m.content : (JSON.stringify(m.content) ?? 'null'),
        };
      default:
        return m satisfies never;
    }
  });
}

/** OpenAI `tools` entries for the trace's tool definitions. */
export function toOpenAiTools(tools: readonly ToolDefinition[]): Record<string, unknown>[] {
  return tools.map((t) => ({
    type: 'function',
    function: {
      name: t.name,
      ...(t.description !== undefined ? { description: t.description } : {}),
      parameters: t.parameters ?? { type: 'object', properties: {} },
    },
  }));
}

/**
 * An AgentTarget calling Chat Completions through the injected (SSRF-guarded) sender, with the targets' retry rule
 * (retry.ts).
 */
export function openAiTarget(target: OpenAiTargetConfig, deps: { http: HttpSender; sleep?: Sleep; throttle?: ThrottleOf }): AgentTarget {
  const sleep = deps.sleep ?? realSleep;
  const url = completionsUrl(target.base_url);
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (target.api_key) headers.Authorization = `Bearer ${target.api_key}`;
  return {
    async step(req) {
      const body: Record<string, unknown> = { model: target.model, messages: toOpenAiMessages(req.messages) };
      if (req.tools.length > 0) body.tools = toOpenAiTools(req.tools);
      body.temperature = target.temperature ?? 0;
      if (target.seed !== undefined) body.seed = target.seed;
      const payload = JSON.stringify(body);
      return withRetries(
        async () => {
          const res = await deps.http({ url, method: 'POST', headers, body: payload, timeoutMs: target.timeout_ms ?? 60000 });
          failOnStatus(res);
          return parseCompletion(res.body, req.step);
        },
        sleep,
        deps.throttle?.(req.attempt),
      );
    },
  };
}

/** Reads `choices[0].message`: tool calls (arguments parsed from JSON strings; invalid JSON becomes {} with a note) or content. */
export function parseCompletion(body: string, step: number): AgentTurn {
  const answer = parseJsonObject(body);
  const choice = Array.isArray(answer.choices) ? answer.choices[0] : undefined;
  if (!isObject(choice) || !isObject(choice.message)) throw new RetryableFailure('unparseable answer: no choices[0].message');
  const message = choice.message;
  const content = typeof message.content === 'string' ? message.content : null;
  const notes: string[] = [];
  if (Array.isArray(message.tool_calls) && message.tool_calls.length > 0) {
    const calls: AgentToolCall[] = message.tool_calls.map((raw, i) => {
      const fn = isObject(raw) && isObject(raw.function) ? raw.function : null;
      if (!fn || typeof fn.name !== 'string' || fn.name === '')
        throw new RetryableFailure(`unparseable answer: tool_calls[${i}] has no function name`);
      const id = isObject(raw) && typeof raw.id === 'string' && raw.id !== '' ? raw.id : `call_${step}_${i + 1}`;
      return { id, name: fn.name, arguments: parseArguments(fn.arguments, `${fn.name} (${id})`, notes) };
    });
    return notes.length > 0 ? { tool_calls: calls, content, notes } : { tool_calls: calls, content };
  }
  return { output: content ?? '' };
}

function parseArguments(raw: unknown, which: string, notes: string[]): Record<string, unknown> {
  if (isObject(raw)) return raw;
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return {};
  if (typeof raw === 'string') {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (isObject(parsed)) return parsed;
    } catch {
      // reported below
    }
  }
  notes.push(`arguments of ${which} are not a JSON object; replaced with {}`);
  return {};
}

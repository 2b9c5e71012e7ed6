// Chat messages in the JSON shapes both dialects carry: semconv parts, OpenAI, Anthropic content blocks, choices.
import type { Call, Msg, Role } from './types';
import { arr, isObj, parseJson, scalarText, str } from './util';

const ROLE_ALIASES: Record<string, Role> = {
  system: 'system',
  developer: 'system',
  user: 'user',
  human: 'user',
  assistant: 'assistant',
  ai: 'assistant',
  model: 'assistant',
  tool: 'tool',
  function: 'tool',
  ipython: 'tool',
};

export function roleOf(v: unknown): Role | undefined {
  return typeof v === 'string' ? ROLE_ALIASES[v.trim().toLowerCase()] : undefined;
}

/** A JSON string (or structured array) of messages, e.g. `gen_ai.input.messages`. */
export function jsonMessages(raw: unknown, fallbackRole?: Role): Msg[] {
  const parsed = parseJson(raw);
  return arr(parsed).flatMap((m) => fromJsonMessage(m, fallbackRole));
}

/**
 * One message in any JSON shape met in the wild: semconv parts (`{role, parts}`), OpenAI (`{role, content,
 * tool_calls}`), Anthropic content blocks, or a `gen_ai.choice` body (`{index, message}`). Tool results
 * carried as parts become separate tool messages, one per call answered.
 */
export function fromJsonMessage(raw: unknown, fallbackRole?: Role): Msg[] {
  if (typeof raw === 'string') return fallbackRole ? [{ role: fallbackRole, content: raw, calls: [] }] : [];
  if (!isObj(raw)) return [];
  if (raw.role === undefined && isObj(raw.message)) return fromJsonMessage(raw.message, fallbackRole);
  const role = roleOf(raw.role) ?? fallbackRole;
  if (!role) return [];
  const texts: string[] = [];
  const calls: Call[] = [];
  const responses: Msg[] = [];
  const parts = Array.isArray(raw.parts) ? raw.parts : Array.isArray(raw.content) ? raw.content : undefined;
  if (parts) {
    for (const part of parts) readPart(part, texts, calls, responses);
  }
  for (const tc of arr(raw.tool_calls)) {
    const call = jsonCall(tc);
    if (call) calls.push(call);
  }
  const legacyCall = jsonCall(raw.function_call);
  if (legacyCall) calls.push(legacyCall);

  if (role === 'tool') {
    if (responses.length > 0) return responses;
    const content = parts ? texts.join('\n') : raw.content;
    return [{ role, content, calls: [], toolCallId: str(raw.tool_call_id) ?? str(raw.id), name: str(raw.name) }];
  }
  const content = parts ? (texts.length > 0 ? texts.join('\n') : null) : raw.content;
  const own: Msg[] = parts && texts.length === 0 && calls.length === 0 && responses.length > 0 ? [] : [{ role, content, calls }];
  return [...responses, ...own];
}

function readPart(part: unknown, texts: string[], calls: Call[], responses: Msg[]): void {
  if (typeof part === 'string') {
    texts.push(part);
    return;
  }
  if (!isObj(part)) return;
  switch (part.type) {
    case 'text':
    case 'input_text':
    case 'output_text':
      texts.push(textOf(part.content ?? part.text));
      return;
    case 'tool_call':
    case 'tool_use':
    case 'function_call': {
      const call = jsonCall(part);
      if (call) calls.push(call);
      return;
    }
    case 'tool_call_response':
    case 'tool_result':
    case 'function_call_output':
      responses.push({
        role: 'tool',
        content: part.response ?? part.result ?? part.content ?? part.output,
        calls: [],
        toolCallId: str(part.id) ?? str(part.tool_use_id) ?? str(part.call_id),
        name: str(part.name),
      });
      return;
    default:
      // Reasoning, images, blobs and files have no place in a text step.
      if (part.type === undefined && (typeof part.text === 'string' || typeof part.content === 'string'))
        texts.push(textOf(part.text ?? part.content));
  }
}

function jsonCall(raw: unknown): Call | undefined {
  if (!isObj(raw)) return undefined;
  const fn = isObj(raw.function) ? raw.function : raw;
  const name = str(fn.name);
  if (!name) return undefined;
  return { id: str(raw.id) ?? str(raw.call_id), name, arguments: fn.arguments ?? raw.input ?? raw.args };
}

/** Message content as plain text: strings as they are, content-part lists joined, other values as JSON. */
export function textOf(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') {
    // OpenLLMetry stores multi-part content as a JSON string of parts.
    if (v.trimStart().startsWith('[')) {
      const parsed = parseJson(v);
      if (Array.isArray(parsed) && parsed.length > 0 && parsed.every((p) => isObj(p) && typeof p.type === 'string')) return textOf(parsed);
    }
    return v;
  }
  if (Array.isArray(v)) {
    const texts: string[] = [];
    for (const part of v) readPart(part, texts, [], []);
    return texts.join('\n');
  }
  if (isObj(v) && (typeof v.text === 'string' || typeof v.content === 'string')) return scalarText(v.text ?? v.content);
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

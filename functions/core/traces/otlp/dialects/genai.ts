// The OpenTelemetry GenAI semantic conventions (and OpenLLMetry's older encodings of them): span kinds and messages.
import { fromJsonMessage, jsonMessages, roleOf } from '../messages';
import type { Attrs, Msg, Role, Span, SpanEvent } from '../types';
import { groupIndexed, isObj, parseJson, scalarNumber, str } from '../util';

const LLM_OPERATIONS = new Set(['chat', 'text_completion', 'generate_content']);
const INPUT_EVENTS: Record<string, Role> = {
  'gen_ai.system.message': 'system',
  'gen_ai.user.message': 'user',
  'gen_ai.assistant.message': 'assistant',
  'gen_ai.tool.message': 'tool',
};
// Semconv 1.37+ can carry the message attributes on this event instead of the span.
const DETAILS_EVENT = 'gen_ai.client.inference.operation.details';

/** A span of this dialect: any `gen_ai.*` attribute or event, or an `execute_tool` span. */
export function isGenAiSpan(span: Span): boolean {
  return (
    Object.keys(span.attrs).some((k) => k.startsWith('gen_ai.')) ||
    span.events.some((e) => e.name.startsWith('gen_ai.')) ||
    span.name.startsWith('execute_tool ')
  );
}

/** The kind `gen_ai.operation.name` gives, or undefined when the span has none. */
export function genAiKind(span: Span): 'llm' | 'tool' | 'other' | undefined {
  const op = str(span.attrs['gen_ai.operation.name']);
  if (!op) return undefined;
  return LLM_OPERATIONS.has(op) ? 'llm' : op === 'execute_tool' ? 'tool' : 'other';
}

/** A tool span without an operation name: a tool name attribute or the `execute_tool <name>` span name. */
export function looksLikeGenAiTool(span: Span): boolean {
  return span.attrs['gen_ai.tool.name'] !== undefined || span.name.startsWith('execute_tool ');
}

/** Message attributes or events of this dialect. */
export function hasGenAiMessages(span: Span): boolean {
  const keys = Object.keys(span.attrs);
  return (
    keys.some(
      (k) => k === 'gen_ai.input.messages' || k === 'gen_ai.output.messages' || k.startsWith('gen_ai.prompt.') || k.startsWith('gen_ai.completion.'),
    ) || span.events.some((e) => e.name in INPUT_EVENTS || e.name === 'gen_ai.choice' || e.name === DETAILS_EVENT)
  );
}

/** OpenLLMetry's model spans before `gen_ai.operation.name`: `llm.request.type` chat or completion. */
export function isLegacyChat(span: Span): boolean {
  return ['chat', 'completion'].includes(str(span.attrs['llm.request.type']) ?? '');
}

/** A span attribute, or the same attribute on the operation-details event. */
function detailsAttr(span: Span): (key: string) => unknown {
  const details = span.events.find((e) => e.name === DETAILS_EVENT)?.attrs ?? {};
  return (key) => span.attrs[key] ?? details[key];
}

/** Where a model call's input may be, most specific first. */
export function genAiInputSources(span: Span): (() => Msg[])[] {
  const attr = detailsAttr(span);
  return [
    () => jsonMessages(attr('gen_ai.input.messages')),
    () => indexedGenAi(span.attrs, 'gen_ai.prompt.', 'user'),
    () => eventMessages(span, 'input'),
  ];
}

/** Where a model call's output may be, most specific first. */
export function genAiOutputSources(span: Span): (() => Msg[])[] {
  const attr = detailsAttr(span);
  return [
    () => jsonMessages(attr('gen_ai.output.messages'), 'assistant'),
    () => indexedGenAi(span.attrs, 'gen_ai.completion.', 'assistant'),
    () => eventMessages(span, 'output'),
  ];
}

/** `gen_ai.system_instructions` (a JSON string of parts, or text), raw. */
export function genAiSystemInstructions(span: Span): unknown {
  return detailsAttr(span)('gen_ai.system_instructions');
}

/** Older semconv (and OpenLLMetry): `gen_ai.prompt.N.role/content`, `gen_ai.completion.N.tool_calls.M.*`. */
function indexedGenAi(attrs: Attrs, prefix: string, fallbackRole: Role): Msg[] {
  return groupIndexed(attrs, prefix).flatMap((g) => {
    const role = roleOf(g.role) ?? fallbackRole;
    const calls = groupIndexed(g, 'tool_calls.').flatMap((c) => {
      const name = str(c.name);
      return name ? [{ id: str(c.id), name, arguments: c.arguments }] : [];
    });
    const legacy = str(g['function_call.name']);
    if (legacy) calls.push({ id: undefined, name: legacy, arguments: g['function_call.arguments'] });
    return [{ role, content: g.content, calls, toolCallId: str(g.tool_call_id), name: str(g.name) }];
  });
}

/** Span events: `gen_ai.{system,user,assistant,tool}.message` and `gen_ai.choice`, plus the older content events. */
function eventMessages(span: Span, side: 'input' | 'output'): Msg[] {
  const time = (e: SpanEvent) => (e.time === undefined ? undefined : BigInt(e.time));
  const events = [...span.events].sort((a, b) => {
    const x = time(a);
    const y = time(b);
    return x === undefined || y === undefined || x === y ? 0 : x < y ? -1 : 1;
  });
  const msgs: Msg[] = [];
  for (const e of events) {
    if (side === 'input' && e.name in INPUT_EVENTS) {
      const role = INPUT_EVENTS[e.name];
      const body = eventBody(e);
      const shaped = isObj(body) ? { ...body, role, tool_call_id: body.tool_call_id ?? body.id } : { role, content: body };
      msgs.push(...fromJsonMessage(shaped, role));
    } else if (side === 'output' && e.name === 'gen_ai.choice') {
      const body = eventBody(e);
      // Only choice 0: the others are alternatives the agent did not act on.
      if (isObj(body) && body.index !== undefined && scalarNumber(body.index) !== 0) continue;
      msgs.push(...fromJsonMessage(isObj(body) && isObj(body.message) ? body.message : body, 'assistant'));
    } else if (side === 'input' && e.name === 'gen_ai.content.prompt') {
      msgs.push(...jsonMessages(e.attrs['gen_ai.prompt'], 'user'));
    } else if (side === 'output' && e.name === 'gen_ai.content.completion') {
      msgs.push(...jsonMessages(e.attrs['gen_ai.completion'], 'assistant'));
    }
  }
  return msgs;
}

/** Span events have no body in OTLP; exporters put it in `body`, `gen_ai.event.content`, or the attributes themselves. */
function eventBody(e: SpanEvent): unknown {
  if (e.body !== undefined && e.body !== null) return parseJson(e.body);
  if (e.attrs.body !== undefined) return parseJson(e.attrs.body);
  if (e.attrs['gen_ai.event.content'] !== undefined) return parseJson(e.attrs['gen_ai.event.content']);
  const rest: Attrs = {};
  for (const [k, v] of Object.entries(e.attrs)) if (!k.startsWith('gen_ai.')) rest[k] = k === 'tool_calls' || k === 'message' ? parseJson(v) : v;
  return rest;
}

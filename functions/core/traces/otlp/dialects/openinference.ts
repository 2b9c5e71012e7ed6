// OpenInference (Arize Phoenix, OpenLLMetry-compatible instrumentations): span kinds, indexed messages, raw payloads.
import { fromJsonMessage, roleOf, textOf } from '../messages';
import type { Attrs, Msg, Role, Span } from '../types';
import { arr, groupIndexed, isObj, parseJson, str } from '../util';

const ATTR_PREFIXES = ['llm.', 'tool.', 'tool_call.', 'openinference.', 'embedding.', 'retrieval.', 'reranker.'];

/** A span of this dialect: `openinference.span.kind`, or any `llm.*`, `tool.*`, `tool_call.*` ... attribute. */
export function isOpenInferenceSpan(span: Span): boolean {
  return Object.keys(span.attrs).some((k) => ATTR_PREFIXES.some((p) => k.startsWith(p)));
}

/** The kind `openinference.span.kind` gives, or undefined when the span has none. */
export function openInferenceKind(span: Span): 'llm' | 'tool' | 'other' | undefined {
  const kind = str(span.attrs['openinference.span.kind'])?.toUpperCase();
  if (!kind) return undefined;
  return kind === 'LLM' ? 'llm' : kind === 'TOOL' ? 'tool' : 'other';
}

export function hasOpenInferenceMessages(span: Span): boolean {
  return Object.keys(span.attrs).some((k) => k.startsWith('llm.input_messages.') || k.startsWith('llm.output_messages.'));
}

/** Where a model call's input may be: indexed messages, else the raw provider request in `input.value`. */
export function openInferenceInputSources(span: Span): (() => Msg[])[] {
  return [() => indexedOpenInference(span.attrs, 'llm.input_messages.'), () => requestMessages(span.attrs['input.value'])];
}

/** Where a model call's output may be: indexed messages, else the raw provider response in `output.value`. */
export function openInferenceOutputSources(span: Span): (() => Msg[])[] {
  return [() => indexedOpenInference(span.attrs, 'llm.output_messages.', 'assistant'), () => responseMessages(span.attrs['output.value'])];
}

/** Tool definitions declared on a model span: `llm.tools.N.tool.json_schema` and OpenLLMetry's `llm.request.functions.N.*`. */
export function openInferenceToolDefinitions(attrs: Attrs): unknown[] {
  return [...groupIndexed(attrs, 'llm.tools.').map((g) => parseJson(g['tool.json_schema'])), ...groupIndexed(attrs, 'llm.request.functions.')];
}

/** `llm.input_messages.N.message.role/content/contents/tool_calls.M.tool_call.*`. */
function indexedOpenInference(attrs: Attrs, prefix: string, fallbackRole?: Role): Msg[] {
  return groupIndexed(attrs, prefix).flatMap((g) => {
    const role = roleOf(g['message.role']) ?? fallbackRole;
    if (!role) return [];
    const contents = groupIndexed(g, 'message.contents.')
      .filter((c) => (c['message_content.type'] ?? 'text') === 'text')
      .map((c) => textOf(c['message_content.text']));
    const calls = groupIndexed(g, 'message.tool_calls.').flatMap((c) => {
      const name = str(c['tool_call.function.name']);
      return name ? [{ id: str(c['tool_call.id']), name, arguments: c['tool_call.function.arguments'] }] : [];
    });
    const content = g['message.content'] ?? (contents.length > 0 ? contents.join('\n') : undefined);
    return [{ role, content, calls, toolCallId: str(g['message.tool_call_id']), name: str(g['message.name']) }];
  });
}

/** `input.value` holding the raw provider request (`{messages: [...]}`). */
function requestMessages(raw: unknown): Msg[] {
  const req = parseJson(raw);
  return isObj(req) ? arr(req.messages).flatMap((m) => fromJsonMessage(m)) : [];
}

/** `output.value` holding the raw provider response (OpenAI choices or an Anthropic message). */
function responseMessages(raw: unknown): Msg[] {
  const res = parseJson(raw);
  if (!isObj(res)) return [];
  if (Array.isArray(res.choices)) return fromJsonMessage(res.choices[0], 'assistant');
  return res.role !== undefined && res.content !== undefined ? fromJsonMessage(res, 'assistant') : [];
}

// What each span is (a model call, a tool execution, or context), and what a model or tool span says.
import {
  genAiInputSources,
  genAiKind,
  genAiOutputSources,
  genAiSystemInstructions,
  hasGenAiMessages,
  isGenAiSpan,
  isLegacyChat,
  looksLikeGenAiTool,
} from './dialects/genai';
import {
  hasOpenInferenceMessages,
  isOpenInferenceSpan,
  openInferenceInputSources,
  openInferenceKind,
  openInferenceOutputSources,
} from './dialects/openinference';
import { textOf } from './messages';
import type { LlmView, Msg, Span, ToolExec } from './types';
import { clip, objectOf, parseJson, str } from './util';

export type SpanKind = 'llm' | 'tool' | 'other';

/** Agent traffic: a span of either dialect. Everything else (HTTP, database, framework spans) is skipped on import. */
export function isAgentSpan(span: Span): boolean {
  return isGenAiSpan(span) || isOpenInferenceSpan(span);
}

export function kindOf(span: Span): SpanKind {
  const declared = genAiKind(span) ?? openInferenceKind(span);
  if (declared) return declared;
  if (looksLikeGenAiTool(span)) return 'tool';
  return hasMessages(span) || isLegacyChat(span) ? 'llm' : 'other';
}

export function hasMessages(span: Span): boolean {
  return hasGenAiMessages(span) || hasOpenInferenceMessages(span);
}

/**
 * A model call made inside a tool (a sub-agent) is the tool's business, not a turn of this conversation;
 * a model span wrapping another (two instrumentations of one call) is kept once, innermost; a tool span
 * wrapping another is kept once, outermost.
 */
export function dropNested(spans: Span[], kinds: Map<Span, SpanKind>): { llms: Span[]; tools: Span[] } {
  const byId = new Map(spans.filter((s) => s.spanId).map((s) => [s.spanId as string, s]));
  const dropped = new Set<Span>();
  for (const span of spans) {
    const kind = kinds.get(span);
    if (kind !== 'llm' && kind !== 'tool') continue;
    const seen = new Set<Span>([span]);
    for (let p = span.parentId ? byId.get(span.parentId) : undefined; p && !seen.has(p); p = p.parentId ? byId.get(p.parentId) : undefined) {
      seen.add(p);
      const pk = kinds.get(p);
      if (pk === 'tool') dropped.add(span);
      if (kind === 'llm' && pk === 'llm') dropped.add(p);
    }
  }
  return {
    llms: spans.filter((s) => kinds.get(s) === 'llm' && !dropped.has(s)),
    tools: spans.filter((s) => kinds.get(s) === 'tool' && !dropped.has(s)),
  };
}

/** A model span's messages in and message out, from the first encoding that has any (GenAI first, then OpenInference). */
export function llmView(span: Span): LlmView {
  const input = firstNonEmpty([...genAiInputSources(span), ...openInferenceInputSources(span)]);
  const output = firstNonEmpty([...genAiOutputSources(span), ...openInferenceOutputSources(span)]);
  const instructions = genAiSystemInstructions(span);
  const system = instructions === undefined ? undefined : textOf(parseJson(instructions));
  // Each output message is one choice; an agent continues with the first.
  return { span, system: system || undefined, input, output: output.find((m) => m.role === 'assistant') };
}

function firstNonEmpty(sources: (() => Msg[])[]): Msg[] {
  for (const source of sources) {
    const msgs = source();
    if (msgs.length > 0) return msgs;
  }
  return [];
}

/** A tool span: GenAI `gen_ai.tool.*` attributes, else OpenInference `tool.*` / `tool_call.*` / `input.value`. */
export function toolExec(span: Span): ToolExec {
  const a = span.attrs;
  const name =
    str(a['gen_ai.tool.name']) ??
    str(a['tool.name']) ??
    str(a['tool_call.function.name']) ??
    (span.name.replace(/^execute_tool\s+/, '').trim() || 'tool');
  const result = a['gen_ai.tool.call.result'] ?? a['output.value'];
  const start = span.start === undefined ? undefined : BigInt(span.start);
  const end = span.end === undefined ? undefined : BigInt(span.end);
  const duration = start !== undefined && end !== undefined && end >= start ? Number((end - start) / 1_000_000n) : undefined;
  return {
    span,
    id: str(a['gen_ai.tool.call.id']) ?? str(a['tool_call.id']),
    name,
    arguments: a['gen_ai.tool.call.arguments'] ?? a['tool_call.function.arguments'] ?? a['input.value'],
    result,
    error: span.isError ? clip(errorMessage(span), 10000) : undefined,
    durationMs: duration,
    description: str(a['gen_ai.tool.description']) ?? str(a['tool.description']),
    parameters: objectOf(parseJson(a['tool.parameters'])),
  };
}

function errorMessage(span: Span): string {
  const exception = span.events.find((e) => e.name === 'exception');
  return span.statusMessage ?? str(exception?.attrs['exception.message']) ?? str(span.attrs['error.type']) ?? 'error';
}

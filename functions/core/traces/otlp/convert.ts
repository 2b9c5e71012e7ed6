// OTLP spans to native-format traces (docs/campaigns-and-replay.md#traces): one trace per OTLP trace id, with its
// trace-level fields.
//
// The converter is deliberately lenient: it never throws on odd input, it skips spans it cannot read, and it
// leaves the verdict on each converted trace to `traceInputSchema`, so a bad trace gets a clear validation message.
import { openInferenceToolDefinitions } from './dialects/openinference';
import { readExport } from './read-json';
import { dropNested, hasMessages, kindOf, llmView, toolExec, type SpanKind } from './spans';
import { buildSteps } from './steps';
import type { Span, Step, ToolDef, ToolExec } from './types';
import { arr, clip, isObj, objectOf, parseJson, prune, str } from './util';

/**
 * Converts an OTLP export into native-format trace objects, one per OTLP `traceId` in order of first
 * appearance. The objects are unvalidated: callers run each through `traceInputSchema`. A trace in which no
 * user message could be found is still returned, so that validation reports it. `trace_id` is never set
 * (OTLP ids are not UUID v4); the OTLP id is kept as `metadata.otlp_trace_id`.
 */
export function convertOtlp(body: { resourceSpans: unknown[] }): Record<string, unknown>[] {
  const byTrace = new Map<string, Span[]>();
  for (const span of readExport(body).spans) {
    const list = byTrace.get(span.traceId);
    if (list) list.push(span);
    else byTrace.set(span.traceId, [span]);
  }
  return [...byTrace.entries()].map(([traceId, spans]) => convertTrace(traceId, spans));
}

/** One trace from all its spans (in any order: they are sorted by start time, ties kept in the given order). */
export function convertTrace(traceId: string, spans: Span[]): Record<string, unknown> {
  const starts = new Map(spans.map((s) => [s, s.start === undefined ? 0n : BigInt(s.start)] as const));
  const byStart = [...spans].sort((a, b) => {
    const x = starts.get(a) as bigint;
    const y = starts.get(b) as bigint;
    return x < y ? -1 : x > y ? 1 : 0;
  });
  const kinds = new Map<Span, SpanKind>(byStart.map((s) => [s, kindOf(s)] as const));
  if (!byStart.some((s) => kinds.get(s) === 'llm')) {
    // Some instrumentations record the conversation only on the agent span.
    for (const s of byStart) if (hasMessages(s)) kinds.set(s, 'llm');
  }
  const { llms, tools } = dropNested(byStart, kinds);
  const execs = tools.map((element) => toolExec(element));
  const steps = buildSteps(
    llms.map((element) => llmView(element)),
    execs,
  );

  const spanIds = new Set(spans.map((s) => s.spanId));
  const root = byStart.find((s) => !s.parentId || !spanIds.has(s.parentId));
  const agent = agentOf(byStart);
  const model = modelOf(llms.length > 0 ? llms : byStart);
  const toolDefs = toolsOf(llms, execs, steps);
  const conversation = firstAttr(byStart, ['gen_ai.conversation.id', 'session.id']);

  const trace: Record<string, unknown> = {};
  const name = clip(root?.name.trim() || agent.name, 500);
  if (name) trace.name = name;
  if (agent.name || agent.version) trace.agent = prune(agent);
  if (model.name || model.provider) trace.model = prune(model);
  if (toolDefs.length > 0) trace.tools = toolDefs;
  trace.steps = steps;
  trace.metadata = { otlp_trace_id: traceId, source: 'otlp', ...(conversation ? { conversation_id: conversation } : {}) };
  trace.tags = ['otlp'];
  return trace;
}

function agentOf(spans: Span[]): { name?: string; version?: string } {
  const service = spans.map((s) => str(s.resource['service.name'])).find((n) => n && !n.startsWith('unknown_service'));
  const name = firstAttr(spans, ['gen_ai.agent.name', 'agent.name']) ?? service;
  const version = firstAttr(spans, ['gen_ai.agent.version']) ?? spans.map((s) => str(s.resource['service.version'])).find(Boolean);
  return { name: clip(name, 200), version: clip(version, 100) };
}

function modelOf(spans: Span[]): { provider?: string; name?: string } {
  const name = firstAttr(spans, ['gen_ai.request.model', 'gen_ai.response.model', 'llm.model_name']);
  const provider = firstAttr(spans, ['gen_ai.provider.name', 'gen_ai.system', 'llm.provider', 'llm.system']);
  return { provider: clip(provider, 100), name: clip(name, 200) };
}

/** Declared tools first (semconv, OpenInference, OpenLLMetry encodings), then any tool called but not declared. */
function toolsOf(llms: Span[], execs: ToolExec[], steps: Step[]): ToolDef[] {
  const defs = new Map<string, ToolDef>();
  const add = (def: ToolDef | undefined): void => {
    if (def && !defs.has(def.name)) defs.set(def.name, def);
  };
  for (const span of llms) {
    for (const raw of arr(parseJson(span.attrs['gen_ai.tool.definitions']))) add(toolDef(raw));
    for (const raw of openInferenceToolDefinitions(span.attrs)) add(toolDef(raw));
  }
  for (const x of execs) {
    add({
      name: x.name,
      ...(x.description ? { description: clip(x.description, 4000) } : {}),
      ...(x.parameters ? { parameters: x.parameters } : {}),
    });
  }
  for (const s of steps) if (s.role === 'assistant') for (const c of s.tool_calls ?? []) add({ name: c.name });
  return [...defs.values()];
}

function toolDef(raw: unknown): ToolDef | undefined {
  if (!isObj(raw)) return undefined;
  const fn = isObj(raw.function) ? raw.function : raw;
  const name = str(fn.name);
  if (!name) return undefined;
  const description = str(fn.description);
  const parameters = objectOf(parseJson(fn.parameters ?? fn.input_schema ?? fn.inputSchema));
  return { name, ...(description ? { description: clip(description, 4000) } : {}), ...(parameters ? { parameters } : {}) };
}

function firstAttr(spans: Span[], keys: string[]): string | undefined {
  for (const key of keys) {
    for (const s of spans) {
      const v = s.attrs[key];
      if (typeof v === 'string' && v.trim()) return v.trim();
      if (typeof v === 'number') return String(v);
    }
  }
  return undefined;
}

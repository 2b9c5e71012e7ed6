// OTLP/JSON import: turns GenAI-semconv and OpenInference spans into native-format traces (SPEC section 5).
//
// The converter is deliberately lenient: it never throws on odd input, it skips spans it cannot read, and it
// leaves the verdict on each converted trace to `traceInputSchema`, so a bad trace becomes a clear 422.

type Attrs = Record<string, unknown>;
type Role = 'system' | 'user' | 'assistant' | 'tool';

interface SpanEvent {
  name: string;
  time?: bigint;
  attrs: Attrs;
  body: unknown;
}

interface Span {
  traceId: string;
  spanId?: string;
  parentId?: string;
  name: string;
  start?: bigint;
  end?: bigint;
  order: number;
  attrs: Attrs;
  resource: Attrs;
  events: SpanEvent[];
  isError: boolean;
  statusMessage?: string;
}

interface Call {
  id?: string;
  name: string;
  arguments: unknown;
}

/** A message as read from any of the supported encodings, before it becomes a step. */
interface Msg {
  role: Role;
  content: unknown;
  calls: Call[];
  toolCallId?: string;
  name?: string;
}

interface LlmView {
  span: Span;
  system?: string;
  input: Msg[];
  output?: Msg;
}

interface ToolExec {
  span: Span;
  id?: string;
  name: string;
  arguments: unknown;
  result: unknown;
  error?: string;
  durationMs?: number;
  description?: string;
  parameters?: Attrs;
}

interface NativeCall {
  id: string;
  name: string;
  arguments: Attrs;
}

interface ToolStep {
  role: 'tool';
  tool_call_id: string;
  name?: string;
  content?: unknown;
  error?: string;
  duration_ms?: number;
}

type Step = { role: 'system' | 'user'; content: string } | { role: 'assistant'; content: string | null; tool_calls?: NativeCall[] } | ToolStep;

interface ToolDef {
  name: string;
  description?: string;
  parameters?: Attrs;
}

const LLM_OPERATIONS = new Set(['chat', 'text_completion', 'generate_content']);
const INPUT_EVENTS: Record<string, Role> = {
  'gen_ai.system.message': 'system',
  'gen_ai.user.message': 'user',
  'gen_ai.assistant.message': 'assistant',
  'gen_ai.tool.message': 'tool',
};
// Semconv 1.37+ can carry the message attributes on this event instead of the span.
const DETAILS_EVENT = 'gen_ai.client.inference.operation.details';
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

/** True when a request body is an OTLP/JSON trace export (`{"resourceSpans": [...]}`) rather than a native trace. */
export function isOtlpExport(body: unknown): body is { resourceSpans: unknown[] } {
  return isObj(body) && Array.isArray(body.resourceSpans);
}

/**
 * Converts an OTLP/JSON export into native-format trace objects, one per OTLP `traceId` in order of first
 * appearance. The objects are unvalidated: callers run each through `traceInputSchema`. A trace in which no
 * user message could be found is still returned, so that validation reports it. `trace_id` is never set
 * (OTLP ids are not UUID v4); the OTLP id is kept as `metadata.otlp_trace_id`.
 */
export function convertOtlp(body: { resourceSpans: unknown[] }): Record<string, unknown>[] {
  const byTrace = new Map<string, Span[]>();
  for (const span of readSpans(body)) {
    const list = byTrace.get(span.traceId);
    if (list) list.push(span);
    else byTrace.set(span.traceId, [span]);
  }
  return [...byTrace.entries()].map(([traceId, spans]) => convertTrace(traceId, spans));
}

// ---------------------------------------------------------------------------------------------------------
// Reading OTLP/JSON

function readSpans(body: { resourceSpans: unknown[] }): Span[] {
  const spans: Span[] = [];
  for (const rs of body.resourceSpans) {
    if (!isObj(rs)) continue;
    const resource = decodeAttrs(isObj(rs.resource) ? rs.resource.attributes : undefined);
    // instrumentationLibrarySpans is the pre-1.0 OTLP name of scopeSpans; old collectors still send it.
    const scopes = [...arr(rs.scopeSpans), ...arr(rs.instrumentationLibrarySpans)];
    for (const scope of scopes) {
      if (!isObj(scope)) continue;
      for (const raw of arr(scope.spans)) {
        const span = readSpan(raw, resource, spans.length);
        if (span) spans.push(span);
      }
    }
  }
  return spans;
}

function readSpan(raw: unknown, resource: Attrs, order: number): Span | undefined {
  if (!isObj(raw)) return undefined;
  const traceId = str(raw.traceId);
  if (!traceId) return undefined;
  const status = isObj(raw.status) ? raw.status : {};
  const code = status.code;
  return {
    traceId,
    spanId: str(raw.spanId),
    parentId: str(raw.parentSpanId),
    name: typeof raw.name === 'string' ? raw.name : '',
    start: nanos(raw.startTimeUnixNano),
    end: nanos(raw.endTimeUnixNano),
    order,
    attrs: decodeAttrs(raw.attributes),
    resource,
    events: arr(raw.events)
      .filter(isObj)
      .map((e) => ({ name: str(e.name) ?? '', time: nanos(e.timeUnixNano), attrs: decodeAttrs(e.attributes), body: decodeValue(e.body) })),
    isError: code === 2 || code === '2' || code === 'STATUS_CODE_ERROR' || code === 'ERROR',
    statusMessage: str(status.message),
  };
}

/** OTLP attributes are `[{key, value: AnyValue}]`; a plain object map is accepted too. */
function decodeAttrs(raw: unknown): Attrs {
  const out: Attrs = {};
  if (Array.isArray(raw)) {
    for (const kv of raw) if (isObj(kv) && typeof kv.key === 'string') out[kv.key] = decodeValue(kv.value);
  } else if (isObj(raw)) {
    for (const [key, value] of Object.entries(raw)) out[key] = decodeValue(value);
  }
  return out;
}

function decodeValue(v: unknown): unknown {
  if (!isObj(v)) return v;
  if ('stringValue' in v) return typeof v.stringValue === 'string' ? v.stringValue : String(v.stringValue ?? '');
  if ('boolValue' in v) return v.boolValue === true || v.boolValue === 'true';
  if ('intValue' in v) {
    // int64 arrives as a JSON string; keep the string when a number would lose precision.
    const n = Number(v.intValue);
    return Number.isSafeInteger(n) ? n : String(v.intValue);
  }
  if ('doubleValue' in v) return Number(v.doubleValue);
  if ('arrayValue' in v) return arr(isObj(v.arrayValue) ? v.arrayValue.values : undefined).map(decodeValue);
  if ('kvlistValue' in v) return decodeAttrs(isObj(v.kvlistValue) ? v.kvlistValue.values : undefined);
  if ('bytesValue' in v) return str(v.bytesValue);
  return v;
}

/** Nanosecond timestamps exceed 2^53, so they are kept as BigInt. */
function nanos(v: unknown): bigint | undefined {
  if (typeof v === 'string' && /^\d+$/.test(v.trim())) return BigInt(v.trim());
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return BigInt(Math.round(v));
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------
// One trace

function convertTrace(traceId: string, spans: Span[]): Record<string, unknown> {
  const byStart = [...spans].sort(compareSpans);
  const kinds = new Map(byStart.map((s) => [s, kindOf(s)] as const));
  let llmSpans = byStart.filter((s) => kinds.get(s) === 'llm');
  if (llmSpans.length === 0) {
    // Some instrumentations record the conversation only on the agent span.
    llmSpans = byStart.filter((s) => hasMessages(s));
    for (const s of llmSpans) kinds.set(s, 'llm');
  }
  const { llms, tools } = dropNested(byStart, kinds);
  const views = llms.map(llmView);
  const execs = tools.map(toolExec);

  const transcript = new Transcript(explicitIds(views, execs));
  buildSteps(views, execs, transcript);

  const spanIds = new Set(spans.map((s) => s.spanId));
  const root = byStart.find((s) => !s.parentId || !spanIds.has(s.parentId));
  const agent = agentOf(byStart);
  const model = modelOf(llms.length > 0 ? llms : byStart);
  const toolDefs = toolsOf(llms, execs, transcript.steps);
  const conversation = firstAttr(byStart, ['gen_ai.conversation.id', 'session.id']);

  const trace: Record<string, unknown> = {};
  const name = clip(root?.name.trim() || agent.name, 500);
  if (name) trace.name = name;
  if (agent.name || agent.version) trace.agent = prune(agent);
  if (model.name || model.provider) trace.model = prune(model);
  if (toolDefs.length > 0) trace.tools = toolDefs;
  trace.steps = transcript.steps;
  trace.metadata = { otlp_trace_id: traceId, source: 'otlp', ...(conversation ? { conversation_id: conversation } : {}) };
  trace.tags = ['otlp'];
  return trace;
}

function compareSpans(a: Span, b: Span): number {
  const x = a.start ?? 0n;
  const y = b.start ?? 0n;
  return x < y ? -1 : x > y ? 1 : a.order - b.order;
}

function kindOf(span: Span): 'llm' | 'tool' | 'other' {
  const a = span.attrs;
  const op = str(a['gen_ai.operation.name']);
  if (op) return LLM_OPERATIONS.has(op) ? 'llm' : op === 'execute_tool' ? 'tool' : 'other';
  const oi = str(a['openinference.span.kind'])?.toUpperCase();
  if (oi) return oi === 'LLM' ? 'llm' : oi === 'TOOL' ? 'tool' : 'other';
  if (a['gen_ai.tool.name'] !== undefined || span.name.startsWith('execute_tool ')) return 'tool';
  if (hasMessages(span) || ['chat', 'completion'].includes(str(a['llm.request.type']) ?? '')) return 'llm';
  return 'other';
}

function hasMessages(span: Span): boolean {
  const keys = Object.keys(span.attrs);
  return (
    keys.some(
      (k) =>
        ['gen_ai.input.messages', 'gen_ai.output.messages'].includes(k) ||
        ['gen_ai.prompt.', 'gen_ai.completion.', 'llm.input_messages.', 'llm.output_messages.'].some((p) => k.startsWith(p)),
    ) || span.events.some((e) => e.name in INPUT_EVENTS || e.name === 'gen_ai.choice' || e.name === DETAILS_EVENT)
  );
}

/**
 * A model call made inside a tool (a sub-agent) is the tool's business, not a turn of this conversation;
 * a model span wrapping another (two instrumentations of one call) is kept once, innermost; a tool span
 * wrapping another is kept once, outermost.
 */
function dropNested(spans: Span[], kinds: Map<Span, string>): { llms: Span[]; tools: Span[] } {
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

// ---------------------------------------------------------------------------------------------------------
// Model spans: messages in, message out

function llmView(span: Span): LlmView {
  const details = span.events.find((e) => e.name === DETAILS_EVENT)?.attrs ?? {};
  const attr = (key: string): unknown => span.attrs[key] ?? details[key];
  const input = firstNonEmpty([
    () => jsonMessages(attr('gen_ai.input.messages')),
    () => indexedGenAi(span.attrs, 'gen_ai.prompt.', 'user'),
    () => eventMessages(span, 'input'),
    () => indexedOpenInference(span.attrs, 'llm.input_messages.'),
    () => requestMessages(span.attrs['input.value']),
  ]);
  const output = firstNonEmpty([
    () => jsonMessages(attr('gen_ai.output.messages'), 'assistant'),
    () => indexedGenAi(span.attrs, 'gen_ai.completion.', 'assistant'),
    () => eventMessages(span, 'output'),
    () => indexedOpenInference(span.attrs, 'llm.output_messages.', 'assistant'),
    () => responseMessages(span.attrs['output.value']),
  ]);
  const instructions = attr('gen_ai.system_instructions');
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

/** `gen_ai.input.messages` / `gen_ai.output.messages`: a JSON string (or structured array) of messages. */
function jsonMessages(raw: unknown, fallbackRole?: Role): Msg[] {
  const parsed = parseJson(raw);
  return arr(parsed).flatMap((m) => fromJsonMessage(m, fallbackRole));
}

/**
 * One message in any JSON shape met in the wild: semconv parts (`{role, parts}`), OpenAI (`{role, content,
 * tool_calls}`), Anthropic content blocks, or a `gen_ai.choice` body (`{index, message}`). Tool results
 * carried as parts become separate tool messages, one per call answered.
 */
function fromJsonMessage(raw: unknown, fallbackRole?: Role): Msg[] {
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

/** OpenInference: `llm.input_messages.N.message.role/content/contents/tool_calls.M.tool_call.*`. */
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

/** Span events: `gen_ai.{system,user,assistant,tool}.message` and `gen_ai.choice`, plus the older content events. */
function eventMessages(span: Span, side: 'input' | 'output'): Msg[] {
  const events = [...span.events].sort((a, b) => (a.time === undefined || b.time === undefined || a.time === b.time ? 0 : a.time < b.time ? -1 : 1));
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
      if (isObj(body) && body.index !== undefined && Number(body.index) !== 0) continue;
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

/** OpenInference fallback: `input.value` holding the raw provider request (`{messages: [...]}`). */
function requestMessages(raw: unknown): Msg[] {
  const req = parseJson(raw);
  return isObj(req) ? arr(req.messages).flatMap((m) => fromJsonMessage(m)) : [];
}

/** OpenInference fallback: `output.value` holding the raw provider response (OpenAI choices or an Anthropic message). */
function responseMessages(raw: unknown): Msg[] {
  const res = parseJson(raw);
  if (!isObj(res)) return [];
  if (Array.isArray(res.choices)) return fromJsonMessage(res.choices[0], 'assistant');
  return res.role !== undefined && res.content !== undefined ? fromJsonMessage(res, 'assistant') : [];
}

// ---------------------------------------------------------------------------------------------------------
// Tool spans

function toolExec(span: Span): ToolExec {
  const a = span.attrs;
  const name =
    str(a['gen_ai.tool.name']) ??
    str(a['tool.name']) ??
    str(a['tool_call.function.name']) ??
    (span.name.replace(/^execute_tool\s+/, '').trim() || 'tool');
  const result = a['gen_ai.tool.call.result'] ?? a['output.value'];
  const duration =
    span.start !== undefined && span.end !== undefined && span.end >= span.start ? Number((span.end - span.start) / 1_000_000n) : undefined;
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

// ---------------------------------------------------------------------------------------------------------
// Steps

/**
 * The first model call's input is the conversation so far; each model call then adds its output. Between two
 * model calls come the tool executions that started before the second one, then whatever new messages the
 * second one's input holds after its last assistant message (tool results not seen as spans, a new user turn).
 */
function buildSteps(llms: LlmView[], tools: ToolExec[], t: Transcript): void {
  const pending = [...tools];
  const flush = (before?: bigint): void => {
    for (let i = 0; i < pending.length;) {
      const start = pending[i].span.start;
      if (before === undefined || start === undefined || start < before) t.toolSpan(pending.splice(i, 1)[0]);
      else i += 1;
    }
  };
  let previousOutput: Msg | undefined;
  llms.forEach((llm, i) => {
    const lastAssistant = findLastIndex(llm.input, (m) => m.role === 'assistant');
    if (i === 0) {
      if (llm.system && !llm.input.some((m) => m.role === 'system')) t.text('system', llm.system);
      for (const m of llm.input) t.message(m);
    } else if (!previousOutput && lastAssistant >= 0) {
      // The previous call's output was not recorded, but this call's input remembers it.
      t.message(llm.input[lastAssistant]);
    }
    flush(llm.span.start);
    if (i > 0) {
      const tail = lastAssistant >= 0 ? llm.input.slice(lastAssistant + 1) : llm.input;
      for (const m of tail) {
        if (m.role === 'tool') t.message(m);
        // Without an assistant turn in the input, a repeated user message is the same turn sent again.
        else if (m.role === 'user' && (lastAssistant >= 0 || !t.hasUser(textOf(m.content)))) t.message(m);
      }
    }
    if (llm.output) t.message(llm.output);
    previousOutput = llm.output;
  });
  flush();
}

interface CallSlot {
  id: string;
  name: string;
  answer?: { index: number; by: 'message' | 'span' };
}

/** The growing list of steps, with the bookkeeping that pairs each tool result with the call it answers. */
class Transcript {
  readonly steps: Step[] = [];
  private readonly calls: CallSlot[] = [];
  private nextId = 1;

  constructor(private readonly usedIds: Set<string>) {}

  text(role: 'system' | 'user', content: string): void {
    this.steps.push({ role, content });
  }

  hasUser(content: string): boolean {
    return this.steps.some((s) => s.role === 'user' && s.content === content);
  }

  message(m: Msg): void {
    // A message whose content was not captured (capture is opt-in in most instrumentations) is no step at all.
    if (m.role === 'system' || m.role === 'user') {
      if (m.content !== undefined && m.content !== null) this.text(m.role, textOf(m.content));
    } else if (m.role === 'assistant') this.assistant(m);
    else this.toolMessage(m);
  }

  private assistant(m: Msg): void {
    const text = m.content === undefined || m.content === null ? '' : textOf(m.content);
    const calls = m.calls.map((c) => ({ id: c.id ?? this.freshId(), name: c.name, arguments: toArguments(c.arguments) }));
    if (!text && calls.length === 0) return;
    this.steps.push({ role: 'assistant', content: text || null, ...(calls.length > 0 ? { tool_calls: calls } : {}) });
    for (const c of calls) this.calls.push({ id: c.id, name: c.name });
  }

  /** A tool result from a model input: answers an open call, or is dropped as already seen or unanswerable. */
  private toolMessage(m: Msg): void {
    const id = m.toolCallId;
    let slot = id ? this.open((c) => c.id === id) : undefined;
    if (!slot && id && this.calls.some((c) => c.id === id)) return;
    if (!slot && (m.name || !id)) slot = this.open((c) => !m.name || c.name === m.name);
    if (!slot) return;
    slot.answer = { index: this.steps.length, by: 'message' };
    this.steps.push({ role: 'tool', tool_call_id: slot.id, name: m.name ?? slot.name, content: toolContent(m.content) });
  }

  /** A tool execution span: answers its call (by id, else the earliest open call of that name), or replaces the same result read from a model input. */
  toolSpan(x: ToolExec): void {
    const step = (callId: string): ToolStep => ({
      role: 'tool',
      tool_call_id: callId,
      name: x.name,
      ...(x.result !== undefined || !x.error ? { content: toolContent(x.result) } : {}),
      ...(x.error !== undefined ? { error: x.error } : {}),
      ...(x.durationMs !== undefined ? { duration_ms: x.durationMs } : {}),
    });
    const byId = x.id ? this.calls.filter((c) => c.id === x.id) : [];
    const slot =
      byId.find((c) => !c.answer) ??
      byId.find((c) => c.answer?.by === 'message') ??
      (byId.length === 0 ? this.open((c) => c.name === x.name) : undefined) ??
      (x.id ? undefined : this.calls.find((c) => c.name === x.name && c.answer?.by === 'message'));
    if (slot?.answer) {
      const earlier = this.steps[slot.answer.index] as ToolStep;
      const replaced = step(slot.id);
      this.steps[slot.answer.index] =
        replaced.content === null && earlier.content !== undefined ? { ...replaced, content: earlier.content } : replaced;
      slot.answer.by = 'span';
      return;
    }
    if (slot) {
      slot.answer = { index: this.steps.length, by: 'span' };
      this.steps.push(step(slot.id));
      return;
    }
    if (byId.length > 0) {
      // Same call id executed again (a retry): another result for the same call.
      this.steps.push(step(byId[0].id));
      return;
    }
    // No recorded model output asked for this tool; the span itself shows the call was made.
    const id = x.id ?? this.freshId();
    this.steps.push({ role: 'assistant', content: null, tool_calls: [{ id, name: x.name, arguments: toArguments(x.arguments) }] });
    this.calls.push({ id, name: x.name, answer: { index: this.steps.length, by: 'span' } });
    this.steps.push(step(id));
  }

  private open(match: (c: CallSlot) => boolean): CallSlot | undefined {
    return this.calls.find((c) => !c.answer && match(c));
  }

  private freshId(): string {
    let id = `call_${this.nextId++}`;
    while (this.usedIds.has(id)) id = `call_${this.nextId++}`;
    this.usedIds.add(id);
    return id;
  }
}

/** Every call id the trace already uses, so that generated `call_<n>` ids cannot collide with them. */
function explicitIds(views: LlmView[], execs: ToolExec[]): Set<string> {
  const ids = new Set<string>();
  for (const v of views) for (const m of [...v.input, ...(v.output ? [v.output] : [])]) for (const c of m.calls) if (c.id) ids.add(c.id);
  for (const x of execs) if (x.id) ids.add(x.id);
  return ids;
}

/** Arguments must be an object: a JSON string is parsed, and anything else is kept under `input`. */
function toArguments(v: unknown): Attrs {
  if (v === undefined || v === null) return {};
  if (typeof v === 'string' && v.trim() === '') return {};
  const parsed = parseJson(v);
  return objectOf(parsed) ?? { input: parsed };
}

function toolContent(v: unknown): unknown {
  return v === undefined ? null : parseJson(v);
}

// ---------------------------------------------------------------------------------------------------------
// Trace-level fields

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
    const a = span.attrs;
    for (const raw of arr(parseJson(a['gen_ai.tool.definitions']))) add(toolDef(raw));
    for (const g of groupIndexed(a, 'llm.tools.')) add(toolDef(parseJson(g['tool.json_schema'])));
    for (const g of groupIndexed(a, 'llm.request.functions.')) add(toolDef(g));
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

// ---------------------------------------------------------------------------------------------------------
// Small helpers

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function objectOf(v: unknown): Attrs | undefined {
  return isObj(v) ? v : undefined;
}

function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim() ? v : undefined;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

function clip(v: string | undefined, max: number): string | undefined {
  return v === undefined ? undefined : v.slice(0, max);
}

function prune<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function roleOf(v: unknown): Role | undefined {
  return typeof v === 'string' ? ROLE_ALIASES[v.trim().toLowerCase()] : undefined;
}

/** JSON strings become values; anything that is not valid JSON stays as it is. */
function parseJson(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const s = v.trim();
  if (!s) return v;
  try {
    return JSON.parse(s);
  } catch {
    return v;
  }
}

/** Message content as plain text: strings as they are, content-part lists joined, other values as JSON. */
function textOf(v: unknown): string {
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
  if (isObj(v) && (typeof v.text === 'string' || typeof v.content === 'string')) return String(v.text ?? v.content);
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** Groups `<prefix>N.<rest>` keys into one record per index N (in index order), keyed by `<rest>`. */
function groupIndexed(attrs: Attrs, prefix: string): Attrs[] {
  const groups = new Map<number, Attrs>();
  for (const [key, value] of Object.entries(attrs)) {
    if (!key.startsWith(prefix)) continue;
    const m = /^(\d+)\.(.+)$/.exec(key.slice(prefix.length));
    if (!m) continue;
    const index = Number(m[1]);
    const group = groups.get(index) ?? {};
    group[m[2]] = value;
    groups.set(index, group);
  }
  return [...groups.entries()].sort((x, y) => x[0] - y[0]).map(([, g]) => g);
}

function findLastIndex<T>(items: T[], pred: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i -= 1) if (pred(items[i])) return i;
  return -1;
}

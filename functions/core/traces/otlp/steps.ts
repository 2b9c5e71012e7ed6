// Step building: model calls and tool executions, in time order, become one native transcript
// (docs/campaigns-and-replay.md#traces).
import { textOf } from './messages';
import type { Attrs, LlmView, Msg, Step, ToolExec, ToolStep } from './types';
import { findLastIndex, nanosOf, objectOf, parseJson } from './util';

/**
 * The first model call's input is the conversation so far; each model call then adds its output. Between two
 * model calls come the tool executions that started before the second one, then whatever new messages the
 * second one's input holds after its last assistant message (tool results not seen as spans, a new user turn).
 */
export function buildSteps(llms: LlmView[], tools: ToolExec[]): Step[] {
  const t = new Transcript(explicitIds(llms, tools));
  const pending = [...tools];
  const flush = (before?: bigint): void => {
    for (let i = 0; i < pending.length;) {
      const start = nanosOf(pending[i].span.start);
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
    flush(nanosOf(llm.span.start));
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
  return t.steps;
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

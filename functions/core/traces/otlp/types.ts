// Shapes shared by the OTLP import modules: spans as read from an export (and stored for merging), messages, steps.

export type Attrs = Record<string, unknown>;
export type Role = 'system' | 'user' | 'assistant' | 'tool';

export interface SpanEvent {
  name: string;
  /** Unix nanoseconds, decimal. */
  time?: string;
  attrs: Attrs;
  /** Not part of OTLP span events; some exporters put the event body here. */
  body?: unknown;
}

/**
 * One span as read from OTLP/JSON or decoded protobuf. Plain JSON (timestamps as decimal strings, since nanoseconds
 * exceed 2^53), so the spans of a trace can be stored as they are and merged with spans of later exports.
 */
export interface Span {
  traceId: string;
  spanId?: string;
  parentId?: string;
  name: string;
  /** Unix nanoseconds, decimal. */
  start?: string;
  end?: string;
  attrs: Attrs;
  /** The resource attributes the converter reads (`service.name`, `service.version`). */
  resource: Attrs;
  events: SpanEvent[];
  isError: boolean;
  statusMessage?: string;
}

export interface Call {
  id?: string;
  name: string;
  arguments: unknown;
}

/** A message as read from any of the supported encodings, before it becomes a step. */
export interface Msg {
  role: Role;
  content: unknown;
  calls: Call[];
  toolCallId?: string;
  name?: string;
}

/** A model call: the messages it was given and the one it answered with. */
export interface LlmView {
  span: Span;
  system?: string;
  input: Msg[];
  output?: Msg;
}

/** A tool execution span. */
export interface ToolExec {
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

export interface NativeCall {
  id: string;
  name: string;
  arguments: Attrs;
}

export interface ToolStep {
  role: 'tool';
  tool_call_id: string;
  name?: string;
  content?: unknown;
  error?: string;
  duration_ms?: number;
}

/** A native-format step, before validation. */
export type Step = { role: 'system' | 'user'; content: string } | { role: 'assistant'; content: string | null; tool_calls?: NativeCall[] } | ToolStep;

export interface ToolDef {
  name: string;
  description?: string;
  parameters?: Attrs;
}

/** What the store keeps beside an OTLP trace so later exports can join it: the spans so far, under a revision. */
export interface OtlpTraceState {
  /** Write counter: each write stores expected + 1, on the condition that the stored revision is still the expected one. */
  revision: number;
  otlp_trace_id: string;
  /** Every span merged so far, in arrival order. */
  spans: Span[];
  /** When spans were last added (ISO 8601). */
  changed_at: string;
  /** sha256 of the visible trace's content (canonical JSON of the converted trace); absent while pending. */
  content_hash?: string;
  /** Store-private bookkeeping handed back to the next write (which chunks it replaces). */
  ref?: unknown;
}

/** What POST /v1/traces did with the spans of one OTel trace in an export. */
export type OtlpTraceResult = 'created' | 'updated' | 'unchanged' | 'pending' | 'rejected';

// Traces (docs/campaigns-and-replay.md#traces): the native upload format, stored traces, and the answers of POST
// /v1/traces.
import type { JsonObject } from './common';

export interface ToolCall {
  id: string;
  name: string;
  /** An object (a JSON string holding an object is accepted on upload and parsed). */
  arguments: JsonObject;
}

export interface ToolDefinition {
  name: string;
  description?: string;
  /** JSON Schema of the arguments. */
  parameters?: JsonObject;
}

export type TraceStep =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; name?: string; content?: unknown; error?: string; duration_ms?: number };

/** What a step may look like on upload: assistant content may be left out, tool-call arguments may be JSON text. */
export type TraceStepInput =
  | Exclude<TraceStep, { role: 'assistant' }>
  | { role: 'assistant'; content?: string | null; tool_calls?: (Omit<ToolCall, 'arguments'> & { arguments: JsonObject | string })[] };

/** The body of POST /v1/traces (native format): at least one user step; a tool step answers an earlier call. */
export interface TraceInput {
  /** A lowercase UUID v4; re-uploading the same id with the same content answers 200, with other content 409. */
  trace_id?: string;
  name?: string;
  agent?: { name?: string; version?: string };
  model?: { provider?: string; name?: string };
  tools?: ToolDefinition[];
  steps: TraceStepInput[];
  metadata?: JsonObject;
  tags?: string[];
}

/** An OTLP/JSON traces export (`ExportTraceServiceRequest`), also accepted by POST /v1/traces. */
export interface OtlpJsonExport {
  resourceSpans: unknown[];
}

/** 201 (new) or 200 (identical re-upload) of a native upload. */
export interface TraceCreated {
  trace_id: string;
  name: string;
  created_at: string;
  step_count: number;
  tool_call_count: number;
  size_bytes: number;
}

/** A trace as listed: without its steps. */
export interface TraceSummary extends TraceCreated {
  agent?: { name?: string; version?: string };
  model?: { provider?: string; name?: string };
  tools: ToolDefinition[];
  metadata: JsonObject;
  tags: string[];
  /** Traces imported over OTLP: 1 when first stored, + 1 each time spans of a later export change it. */
  version?: number;
  /** Traces imported over OTLP: when spans of a later export last changed it. */
  updated_at?: string;
}

/** GET /v1/traces/{trace_id}. */
export interface Trace extends TraceSummary {
  steps: TraceStep[];
}

/** One OTel trace of an OTLP export: the rts trace it maps to and what happened to it. */
export interface OtlpTraceOutcome extends Partial<TraceCreated> {
  trace_id: string;
  otlp_trace_id: string;
  result: 'created' | 'updated' | 'unchanged' | 'pending' | 'rejected';
  span_count: number;
  added_span_count: number;
  version?: number;
  /** Why the spans were rejected, or why the trace is still pending. */
  message?: string;
}

/** 200 of an OTLP/JSON export. */
export interface OtlpExportResult {
  /** OTLP's partial success: set only when spans were rejected or there is a warning (int64 as a decimal string). */
  partialSuccess?: { rejectedSpans: string; errorMessage: string };
  traces: OtlpTraceOutcome[];
  created: string[];
  updated: string[];
  accepted_spans: number;
  skipped_spans: number;
  rejected_spans: number;
}

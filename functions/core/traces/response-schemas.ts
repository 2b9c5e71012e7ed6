// Response schemas of the trace routes (for the OpenAPI document and tests; handlers never import this file).
import { count, jsonObjectOut, page, timestamp, uuidOut } from '../openapi/response-blocks';
import { classicOf } from '../openapi/classic';
import { z } from '../openapi/zod';
import { toolDefinitionSchema } from './schema';

const createdFields = {
  trace_id: uuidOut,
  name: z.string(),
  created_at: timestamp,
  step_count: count,
  tool_call_count: count,
  size_bytes: count,
};

/** 201 (new) and 200 (identical re-upload) of a native upload. */
export const traceCreatedSchema = z.object(createdFields).openapi('TraceCreated');

export const toolCallOut = z.object({ id: z.string(), name: z.string(), arguments: jsonObjectOut }).openapi('ToolCall');

/** A stored step: as uploaded, after validation (arguments parsed into objects, an assistant's content null or text). */
export const traceStepSchema = z
  .discriminatedUnion('role', [
    z.object({ role: z.literal('system'), content: z.string() }),
    z.object({ role: z.literal('user'), content: z.string() }),
    z.object({ role: z.literal('assistant'), content: z.string().nullable(), tool_calls: z.array(toolCallOut).optional() }),
    z.object({
      role: z.literal('tool'),
      tool_call_id: z.string(),
      name: z.string().optional(),
      content: z.unknown().optional(),
      error: z.string().optional(),
      duration_ms: count.optional(),
    }),
  ])
  .openapi('TraceStep');

const summaryFields = {
  ...createdFields,
  agent: z.object({ name: z.string().optional(), version: z.string().optional() }).optional(),
  model: z.object({ provider: z.string().optional(), name: z.string().optional() }).optional(),
  tools: z.array(classicOf(toolDefinitionSchema)),
  metadata: jsonObjectOut,
  tags: z.array(z.string()),
  version: count.optional().openapi({ description: 'Traces imported over OTLP: 1 when first stored, + 1 each time later spans change it.' }),
  updated_at: timestamp.optional().openapi({ description: 'Traces imported over OTLP: when spans of a later export last changed it.' }),
};

export const traceSummarySchema = z.object(summaryFields).openapi('TraceSummary', { description: 'A trace as listed: without steps.' });
export const traceSchema = z.object({ ...summaryFields, steps: z.array(traceStepSchema) }).openapi('Trace');
export const traceListSchema = page(traceSummarySchema).openapi('TraceList');

const otlpTraceOutcome = z
  .object({
    trace_id: uuidOut,
    otlp_trace_id: z.string(),
    result: z.enum(['created', 'updated', 'unchanged', 'pending', 'rejected']),
    span_count: count.openapi({ description: 'Spans of this trace in the export.' }),
    added_span_count: count.openapi({ description: 'Spans the trace did not hold yet.' }),
    name: z.string().optional(),
    created_at: timestamp.optional(),
    step_count: count.optional(),
    tool_call_count: count.optional(),
    size_bytes: count.optional(),
    version: count.optional(),
    message: z.string().optional().openapi({ description: 'Why the spans were rejected, or why the trace is still pending.' }),
  })
  .openapi('OtlpTraceOutcome', { description: 'One OTel trace of the export: the rts trace it maps to and what happened to it.' });

/** 200 of an OTLP/JSON export (protobuf exports get an ExportTraceServiceResponse message instead). */
export const otlpExportResultSchema = z
  .object({
    partialSuccess: z
      .object({ rejectedSpans: z.string(), errorMessage: z.string() })
      .optional()
      .openapi({ description: "OTLP's partial success, set only when spans were rejected or there is a warning (int64 as a decimal string)." }),
    traces: z.array(otlpTraceOutcome),
    created: z.array(uuidOut),
    updated: z.array(uuidOut),
    accepted_spans: count,
    skipped_spans: count,
    rejected_spans: count,
  })
  .openapi('OtlpExportResult');

/** POST /v1/traces 200: an identical native re-upload, or the result of an OTLP/JSON export. */
export const traceUploadSchema = z.union([traceCreatedSchema, otlpExportResultSchema]).openapi('TraceUpload');

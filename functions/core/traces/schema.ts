// The native trace format of SPEC section 5: OpenAI-message-shaped steps, tools, metadata.
import { jsonDepth } from '../json';
import { z } from '../zod';

/** Trace fields kept in the (uncompressed) metadata item must fit DynamoDB's 32 nesting levels. */
const META_MAX_DEPTH = 24;

export const TRACE_MAX_STEPS = 2000;

const jsonObject = z.record(z.string(), z.unknown());

/** Tool-call arguments: an object; a JSON string holding an object is parsed. */
export const argumentsSchema = z.preprocess((value, ctx) => {
  if (typeof value === 'string') {
    if (value.trim() === '') return {};
    try {
      return JSON.parse(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'arguments must be an object or a JSON string holding an object' });
      return z.NEVER;
    }
  }
  return value ?? {};
}, jsonObject);

export const toolCallSchema = z.object({
  id: z.string().min(1).max(256),
  name: z.string().min(1).max(256),
  arguments: argumentsSchema,
});

export const toolDefinitionSchema = z.object({
  name: z.string().min(1).max(256),
  description: z.string().max(4000).optional(),
  parameters: jsonObject.optional(),
});

const systemStep = z.object({ role: z.literal('system'), content: z.string() });
const userStep = z.object({ role: z.literal('user'), content: z.string() });
const assistantStep = z.object({
  role: z.literal('assistant'),
  content: z
    .string()
    .nullable()
    .optional()
    .transform((v) => v ?? null),
  tool_calls: z.array(toolCallSchema).max(128).optional(),
});
const toolStep = z.object({
  role: z.literal('tool'),
  tool_call_id: z.string().min(1).max(256),
  name: z.string().min(1).max(256).optional(),
  content: z.unknown().optional(),
  error: z.string().max(10000).optional(),
  duration_ms: z.number().int().min(0).optional(),
});

export const stepSchema = z.discriminatedUnion('role', [systemStep, userStep, assistantStep, toolStep]);

export const traceInputSchema = z
  .object({
    trace_id: z
      .uuid({ version: 'v4' })
      .transform((s) => s.toLowerCase())
      .optional(),
    name: z.string().min(1).max(500).optional(),
    agent: z.object({ name: z.string().max(200).optional(), version: z.string().max(100).optional() }).optional(),
    model: z.object({ provider: z.string().max(100).optional(), name: z.string().max(200).optional() }).optional(),
    tools: z.array(toolDefinitionSchema).max(256).optional(),
    steps: z.array(stepSchema).min(1).max(TRACE_MAX_STEPS),
    metadata: jsonObject.optional(),
    tags: z.array(z.string().min(1).max(100)).max(50).optional(),
  })
  .superRefine((trace, ctx) => {
    for (const field of ['metadata', 'tools'] as const) {
      if (jsonDepth(trace[field], META_MAX_DEPTH) > META_MAX_DEPTH) {
        ctx.addIssue({ code: 'custom', path: [field], message: `nests deeper than ${META_MAX_DEPTH} levels` });
      }
    }
    if (!trace.steps.some((s) => s.role === 'user')) {
      ctx.addIssue({ code: 'custom', path: ['steps'], message: 'a trace needs at least one user step' });
    }
    const calls = new Map<string, string>();
    trace.steps.forEach((step, i) => {
      if (step.role === 'assistant') for (const c of step.tool_calls ?? []) calls.set(c.id, c.name);
      if (step.role === 'tool') {
        if (!calls.has(step.tool_call_id)) {
          ctx.addIssue({
            code: 'custom',
            path: ['steps', i, 'tool_call_id'],
            message: `tool_call_id ${step.tool_call_id} does not answer an earlier tool call`,
          });
        }
        if (step.content === undefined && step.error === undefined) {
          ctx.addIssue({ code: 'custom', path: ['steps', i], message: 'a tool step needs content or error' });
        }
      }
    });
  })
  .openapi('TraceInput');

export type TraceInput = z.infer<typeof traceInputSchema>;
export type TraceStep = z.infer<typeof stepSchema>;
export type ToolCall = z.infer<typeof toolCallSchema>;
export type ToolDefinition = z.infer<typeof toolDefinitionSchema>;

/** A stored trace: the validated input plus server-side metadata. */
export interface Trace {
  trace_id: string;
  name: string;
  agent?: TraceInput['agent'];
  model?: TraceInput['model'];
  tools: ToolDefinition[];
  steps: TraceStep[];
  metadata: Record<string, unknown>;
  tags: string[];
  created_at: string;
  step_count: number;
  tool_call_count: number;
  size_bytes: number;
  /** Traces imported over OTLP: 1 when first stored, + 1 each time spans of later exports change it. */
  version?: number;
  /** Traces imported over OTLP: when spans of a later export last changed it. */
  updated_at?: string;
}

export type TraceSummary = Omit<Trace, 'steps'>;

// The native trace format (docs/campaigns-and-replay.md#traces): OpenAI-message-shaped steps, tools, metadata.
import { jsonDepth } from '../json';
import { openapi } from '../openapi/meta';
import * as z from '../openapi/zod-mini';
import { uuidIn } from '../openapi/request-blocks';

/** Trace fields kept in the (uncompressed) metadata item must fit DynamoDB's 32 nesting levels. */
const META_MAX_DEPTH = 24;

export const TRACE_MAX_STEPS = 2000;

const jsonObject = z.record(z.string(), z.unknown());

/** Tool-call arguments: an object; a JSON string holding an object is parsed; absent or null is `{}`. */
export const argumentsSchema = openapi(
  z.pipe(
    z.transform((value: unknown, ctx) => {
      if (typeof value === 'string') {
        if (value.trim() === '') return {};
        try {
          return JSON.parse(value) as unknown;
        } catch {
          ctx.issues.push({ code: 'custom', message: 'arguments must be an object or a JSON string holding an object', input: value });
          return z.NEVER;
        }
      }
      return value ?? {};
    }),
    jsonObject,
  ),
  {
    override: { type: ['object', 'string', 'null'], additionalProperties: {} },
    description: 'An object, or a JSON string holding one; absent or null is {}.',
  },
);

const text = (max: number) => z.string().check(z.minLength(1), z.maxLength(max));

export const toolCallSchema = z.object({
  id: text(256),
  name: text(256),
  arguments: argumentsSchema,
});

export const toolDefinitionSchema = z.object({
  name: text(256),
  description: z.optional(z.string().check(z.maxLength(4000))),
  parameters: z.optional(jsonObject),
});

const systemStep = z.object({ role: z.literal('system'), content: z.string() });
const userStep = z.object({ role: z.literal('user'), content: z.string() });
const assistantStep = z.object({
  role: z.literal('assistant'),
  content: z.pipe(
    z.optional(z.nullable(z.string())),
    z.transform((v: string | null | undefined) => v ?? null),
  ),
  tool_calls: z.optional(z.array(toolCallSchema).check(z.maxLength(128))),
});
const toolStep = z.object({
  role: z.literal('tool'),
  tool_call_id: text(256),
  name: z.optional(text(256)),
  content: z.optional(z.unknown()),
  error: z.optional(z.string().check(z.maxLength(10000))),
  duration_ms: z.optional(z.number().check(z.int(), z.minimum(0))),
});

export const stepSchema = z.discriminatedUnion('role', [systemStep, userStep, assistantStep, toolStep]);

const upTo = (max: number) => z.optional(z.string().check(z.maxLength(max)));

export const traceInputSchema = openapi(
  z
    .object({
      trace_id: z.optional(uuidIn),
      name: z.optional(text(500)),
      agent: z.optional(z.object({ name: upTo(200), version: upTo(100) })),
      model: z.optional(z.object({ provider: upTo(100), name: upTo(200) })),
      tools: z.optional(z.array(toolDefinitionSchema).check(z.maxLength(256))),
      steps: z.array(stepSchema).check(z.minLength(1), z.maxLength(TRACE_MAX_STEPS)),
      metadata: z.optional(jsonObject),
      tags: z.optional(z.array(text(100)).check(z.maxLength(50))),
    })
    .check(
      z.superRefine((trace, ctx) => {
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
      }),
    ),
  { name: 'TraceInput' },
);

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

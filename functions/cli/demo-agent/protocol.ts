// The step protocol as the demo agent speaks it (docs/connect-your-agent.md#the-step-protocol-http-target): the
// request it accepts and the replies it gives.
import { z } from '../../core/openapi/zod';

const looseMessage = z.looseObject({
  role: z.string(),
  content: z.unknown().optional(),
  tool_call_id: z.string().optional(),
  name: z.string().optional(),
  error: z.unknown().optional(),
});

/** The body the service POSTs for each agent step; unknown fields are ignored. */
export const stepRequestSchema = z.object({
  protocol: z.literal('rts.step.v1'),
  run_id: z.string().optional(),
  attempt: z.number().int().min(0).optional(),
  step: z.number().int().min(0).optional(),
  tools: z.array(z.unknown()).default([]),
  messages: z.array(looseMessage),
});
export type StepRequest = z.infer<typeof stepRequestSchema>;
/** One message of a step request, as loosely as the agent reads it. */
export type StepMessage = z.infer<typeof looseMessage>;

/** What the agent answers: tool calls to make, or its final output. */
export type StepReply = { tool_calls: { id: string; name: string; arguments: Record<string, unknown> }[] } | { output: string };

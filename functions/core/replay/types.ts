// Shared shapes of the replay engine: messages exchanged with the agent, agent turns, targets, planned attempts.
import type { Mutation } from '../campaigns/schema';
import type { ToolDefinition } from '../traces/schema';

/** A tool call as the agent makes it (step protocol shape: arguments are an object). */
export interface AgentToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * One message of the conversation, in the trace's OpenAI-like shape
 * (docs/connect-your-agent.md#messages-sent-to-the-agent). Tool messages carry the served result as JSON (`content`);
 * errors are `{"error": "..."}` objects.
 */
export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: AgentToolCall[] }
  | { role: 'tool'; tool_call_id: string; name: string; content: unknown };

/** What a target is asked for at each agent step (the body of the step protocol, minus `protocol`). */
export interface StepRequest {
  run_id: string;
  attempt: number;
  step: number;
  /** The user turn the step belongs to, from 1 (docs/campaigns-and-replay.md#turns); absent means 1. */
  turn?: number;
  tools: ToolDefinition[];
  /** The live conversation: targets must not mutate it. */
  messages: readonly ChatMessage[];
}

/**
 * What the agent does at one step: call tools, give its final output, or (recorded target only) stop
 * without a final answer. `notes` are kept in the transcript (e.g. unparseable tool arguments).
 */
export type AgentTurn =
  { tool_calls: AgentToolCall[]; content?: string | null; notes?: string[] } | { output: string; notes?: string[] } | { end: string };

/** An agent the engine can drive step by step. Rejects with a TargetError when it cannot be driven. */
export interface AgentTarget {
  step(req: StepRequest): Promise<AgentTurn>;
}

/** The target could not be driven (after retries): the attempt ends with status `error`. */
export class TargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetError';
  }
}

/** Injectable wait, so retry back-off costs nothing in unit tests. */
export type Sleep = (ms: number) => Promise<void>;

export { realSleep } from '../retry';

/** One attempt of the plan (docs/campaigns-and-replay.md#attempt-plan). */
export interface PlannedAttempt {
  attempt: number;
  mutation_id: string | null;
  repeat: number;
  mutation: Mutation | null;
}

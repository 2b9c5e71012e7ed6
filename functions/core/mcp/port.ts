// The MCP sessions of `mcp` target attempts (docs/connect-your-agent.md#the-mcp-target): one per attempt of a run, the
// calls its agent made over MCP in the order they were served, and each turn's answer. The replay worker opens it and
// reads it back; the MCP endpoint appends to it, in another process (another Lambda function in the cloud).

/** One tool call the agent made over MCP, as recorded (served in this order). */
export interface McpCall {
  /** The JSON-RPC request id, as a string (the transcript's tool_call_id). */
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  /** The user turn it was made in, from 1. */
  turn: number;
}

export interface McpSession {
  project_id: string;
  run_id: string;
  attempt: number;
  /** sha256 (hex) of the attempt token; the token itself is never stored. */
  token_hash: string;
  /** `open` while the agent is being invoked for `turn`; `answered` once that invoke returned (calls are refused). */
  state: 'open' | 'answered';
  /** The turn being (or last) invoked, from 1. */
  turn: number;
  /** The calls served so far, in order. */
  calls: McpCall[];
  /** The agent's output of each answered turn; null for a turn whose invoke failed. */
  outputs: Array<string | null>;
  /** Whether the agent asked for a call past max_steps (refused, and the attempt fails with max_steps_exceeded). */
  over: boolean;
  /** The campaign version the run replays (the endpoint serves with that definition). */
  campaign_version: number | null;
  /**
   * The run's trace and campaign, so that the endpoint serves without reading the run (its function then carries no
   * run or attempt storage). Absent on a session written before they were kept: such a session is not served.
   */
  trace_id?: string;
  campaign_id?: string;
  /** Epoch seconds after which the session is gone (TTL). */
  expires_at: number;
}

/** What an append found: the call is now the `index`-th, or someone else appended first, or no call is taken any more. */
export type AppendResult = 'appended' | 'conflict' | 'refused';

export interface McpSessionsRepo {
  get(runId: string, attempt: number): Promise<McpSession | null>;
  /** Writes the session as given (a new attempt, or a reopened one with a new token). */
  put(session: McpSession): Promise<void>;
  /**
   * Appends `call` if the session is still open under `tokenHash` and holds exactly `count` calls (a concurrent call
   * that came first makes this a conflict: read again and serve the next index).
   */
  append(runId: string, attempt: number, tokenHash: string, count: number, call: McpCall): Promise<AppendResult>;
  /** Marks the session over max_steps if still open under `tokenHash`. */
  markOver(runId: string, attempt: number, tokenHash: string): Promise<void>;
  /**
   * Ends the invoke of `turn` under `tokenHash`: no call is taken any more, `output` is kept as the turn's answer.
   * Returns the session as it ends (its calls), or null when another worker reopened it with another token.
   */
  answer(runId: string, attempt: number, tokenHash: string, turn: number, output: string | null): Promise<McpSession | null>;
}

// Builds the AgentTarget of a campaign's target definition.
import type { Target } from '../../campaigns/schema';
import type { HttpSender } from '../../ports';
import type { Trace } from '../../traces/schema';
import type { AgentTarget, Sleep } from '../types';
import type { ThrottleOf } from './throttle';
import { httpTarget } from './http';
import { mcpTarget, type McpTargetDeps } from './mcp';
import { openAiTarget } from './openai';
import { recordedTarget } from './recorded';

export interface TargetDeps {
  /** The trace being replayed (the recorded target replays it). */
  trace: Pick<Trace, 'steps'>;
  /** Outbound HTTP; pass the SSRF-guarded sender. */
  http: HttpSender;
  /** Retry back-off wait; defaults to a real timer. */
  sleep?: Sleep;
  /** 429/503 handling and limits per attempt (throttle.ts); default: max_wait_s 600, no limits. */
  throttle?: ThrottleOf;
  /** What the `mcp` target needs besides HTTP (the sessions, the API's public URL); absent where none is wired. */
  mcp?: Omit<McpTargetDeps, 'http' | 'sleep' | 'throttle'>;
}

/** The target for a campaign: recorded, http (step protocol), openai (Chat Completions) or mcp (the agent's own loop). */
export function createTarget(target: Target, deps: TargetDeps): AgentTarget {
  switch (target.type) {
    case 'recorded':
      return recordedTarget(deps.trace);
    case 'http':
      return httpTarget(target, deps);
    case 'openai':
      return openAiTarget(target, deps);
    case 'mcp':
      if (!deps.mcp) throw new Error('an mcp target needs the MCP sessions and the public API URL wired');
      return mcpTarget(target, { ...deps.mcp, http: deps.http, sleep: deps.sleep, throttle: deps.throttle });
  }
}

export { httpTarget, parseStepAnswer, STEP_PROTOCOL } from './http';
export { completionsUrl, openAiTarget, parseCompletion, toOpenAiMessages, toOpenAiTools } from './openai';
export { recordedTarget, RECORDING_EXHAUSTED } from './recorded';
export { INVOKE_PROTOCOL, mcpTarget } from './mcp';
export { RETRY_DELAYS_MS } from './retry';
export { RATE_LIMITED, DEFAULT_MAX_WAIT_S } from './throttle';

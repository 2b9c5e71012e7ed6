// The `mcp` target (docs/connect-your-agent.md#the-mcp-target): the agent runs its own loop. For each turn of an
// attempt rts POSTs one rts.invoke.v1 request to the agent, which connects back to rts's MCP endpoint with the
// attempt's token and calls the recorded tools there (core/mcp). Once the agent answers, the calls it made are read
// back from the session and handed to the engine one per step, then the turn's output: the attempt is then scored,
// evented and transcribed exactly as a step-protocol attempt making the same calls.
import type { Target } from '../../campaigns/schema';
import type { McpCall, McpSessionsRepo } from '../../mcp/port';
import { mcpTokenHash, newMcpToken } from '../../mcp/token';
import type { HttpSender } from '../../ports';
import { MAX_STEPS_EXCEEDED } from '../attempt';
import { realSleep, TargetError, type AgentTurn, type ChatMessage, type Sleep, type StepRequest } from '../types';
import { failOnStatus, mergeHeaders, parseJsonObject, RetryableFailure, withRetries } from './retry';
import type { ThrottleOf } from './throttle';

export type McpTargetConfig = Extract<Target, { type: 'mcp' }>;

export const INVOKE_PROTOCOL = 'rts.invoke.v1';
/** A session outlives the longest invoke by this much (a worker that died leaves it to expire). */
const SESSION_GRACE_S = 3600;

export interface McpTargetDeps {
  http: HttpSender;
  sleep?: Sleep;
  throttle?: ThrottleOf;
  /** Where the attempts' sessions are kept (the MCP endpoint reads and appends to them). */
  sessions: McpSessionsRepo;
  /** The public base URL of the API; the agent connects to `<apiBase>/v1/mcp/<run_id>/<attempt>`. */
  apiBase: string;
  projectId: string;
  /** The campaign version the run replays. */
  campaignVersion: number | null;
  /** The run's campaign and trace, kept in each session for the endpoint. */
  campaignId: string;
  traceId: string;
  now: () => Date;
}

/** One invoked turn, as the engine then replays it. */
interface InvokedTurn {
  calls: McpCall[];
  next: number;
  over: boolean;
  output: string | null;
  error: string | null;
}

export function mcpTarget(target: McpTargetConfig, deps: McpTargetDeps) {
  const turns = new Map<string, InvokedTurn>();
  return {
    async step(req: StepRequest): Promise<AgentTurn> {
      const turn = req.turn ?? 1;
      const key = `${req.attempt}:${turn}`;
      let invoked = turns.get(key);
      if (!invoked) {
        invoked = await invokeTurn(target, deps, req, turn);
        turns.set(key, invoked);
      }
      const call = invoked.calls[invoked.next];
      if (call) {
        invoked.next += 1;
        return { tool_calls: [{ id: call.id, name: call.name, arguments: call.arguments }] };
      }
      turns.delete(key);
      if (invoked.over) return { end: MAX_STEPS_EXCEEDED };
      if (invoked.error !== null) throw new TargetError(invoked.error);
      return { output: invoked.output ?? '' };
    },
  };
}

/**
 * Invokes the agent for one turn (or, for a delivery resuming the attempt, takes the turn's answer an earlier delivery
 * stored: an agent that answered is never invoked again), then returns the calls it made in that turn and its answer.
 */
async function invokeTurn(target: McpTargetConfig, deps: McpTargetDeps, req: StepRequest, turn: number): Promise<InvokedTurn> {
  const { run_id: runId, attempt } = req;
  const existing = await deps.sessions.get(runId, attempt);
  const kept = existing?.outputs[turn - 1];
  if (existing && existing.state === 'answered' && existing.turn === turn && typeof kept === 'string') {
    return { calls: existing.calls.filter((c) => c.turn === turn), next: 0, over: existing.over, output: kept, error: null };
  }
  const token = newMcpToken();
  const tokenHash = mcpTokenHash(token);
  const timeoutMs = target.timeout_ms;
  await deps.sessions.put({
    project_id: deps.projectId,
    run_id: runId,
    attempt,
    token_hash: tokenHash,
    state: 'open',
    turn,
    // A turn invoked again (its worker died mid-invoke) starts over; the turns before it stay as answered.
    calls: (existing?.calls ?? []).filter((c) => c.turn < turn),
    outputs: (existing?.outputs ?? []).slice(0, turn - 1),
    over: false,
    campaign_version: deps.campaignVersion,
    campaign_id: deps.campaignId,
    trace_id: deps.traceId,
    expires_at: Math.ceil(deps.now().getTime() / 1000 + timeoutMs / 1000 + SESSION_GRACE_S),
  });
  const body = JSON.stringify({
    protocol: INVOKE_PROTOCOL,
    run_id: runId,
    attempt,
    turn,
    messages: conversation(req.messages),
    mcp: { url: `${deps.apiBase}/v1/mcp/${runId}/${attempt}`, headers: { Authorization: `Bearer ${token}` } },
  });
  const headers = mergeHeaders(target.headers, {
    'Content-Type': 'application/json',
    'Idempotency-Key': turn === 1 ? `${runId}:${attempt}` : `${runId}:${attempt}:${turn}`,
  });
  let output: string | null = null;
  let error: string | null = null;
  try {
    // One try: the agent may have acted. Only a 429/503 (answered before the agent started) is waited out and sent again.
    output = await withRetries(
      async () => {
        const res = await deps.http({ url: target.url, method: 'POST', headers, body, timeoutMs });
        failOnStatus(res);
        const answer = parseJsonObject(res.body);
        if (typeof answer.output !== 'string') throw new RetryableFailure('unparseable answer: expected {"output": "..."}');
        return answer.output;
      },
      deps.sleep ?? realSleep,
      deps.throttle?.(attempt),
      [],
    );
  } catch (err) {
    if (!(err instanceof TargetError)) throw err;
    error = err.message;
  }
  const ended = await deps.sessions.answer(runId, attempt, tokenHash, turn, output);
  if (!ended) throw new TargetError('the attempt was invoked again by another delivery meanwhile');
  return { calls: ended.calls.filter((c) => c.turn === turn), next: 0, over: ended.over, output, error };
}

/** What the agent is sent: the conversation so far as a user sees it (system, user and the agent's own answers). */
function conversation(messages: readonly ChatMessage[]): ChatMessage[] {
  return messages.filter(
    (m) => m.role === 'system' || m.role === 'user' || (m.role === 'assistant' && !m.tool_calls?.length && typeof m.content === 'string'),
  );
}

// The MCP endpoint of `mcp` target attempts, over the store: checks an attempt's token, lists the trace's tools, and
// serves each call exactly once in one order however many processes answer the agent's concurrent calls (each call is
// appended to the session with a condition on the count of calls before it; a call that lost the race is served again
// as the next one). Within one process the calls of an attempt are served one at a time, so they never race each other.
import type { Deps } from '../ports';
import { campaignOfRun } from '../runs/campaign-version';
import { compileRun, type CompiledRun } from '../replay/compile';
import { planAttempts } from '../replay/plan';
import type { PlannedAttempt } from '../replay/types';
import type { McpCall, McpSession } from './port';
import { JsonRpcError, UNAUTHORIZED, type McpAttemptView } from './protocol';
import { listTools, serveCall, toolResult } from './serve';
import { mcpSessionId, mcpTokenMatches } from './token';

export type McpEndpointDeps = Pick<Deps, 'mcpSessions' | 'traces' | 'campaigns' | 'clock'>;

/** Arguments of one call, as JSON text, recorded at most this long; a longer call is answered with an error, unrecorded. */
export const MCP_MAX_CALL_ARGUMENTS_BYTES = 65_536;
/** All recorded calls' arguments of one attempt together, at most (the session is one item of the table). */
export const MCP_MAX_LOG_BYTES = 300_000;

/** Compiled runs by run and campaign version: both immutable, so a container keeps them. */
const compiled = new Map<string, { run: CompiledRun; plan: PlannedAttempt[] }>();
const CACHE_MAX = 32;

/**
 * The view of attempt `attempt` of run `runId` for a bearer `token`: null unless the token is that attempt's and the
 * agent is being invoked (the session is open and not expired).
 */
export async function openMcpAttempt(deps: McpEndpointDeps, runId: string, attempt: number, token: string): Promise<McpAttemptView | null> {
  const session = await deps.mcpSessions.get(runId, attempt);
  if (!session || !usable(session, token, deps.clock.now())) return null;
  const prepared = await prepare(deps, session);
  if (!prepared) return null;
  const planned = prepared.plan.find((p) => p.attempt === attempt);
  if (!planned) return null;
  return {
    sessionId: mcpSessionId(session.token_hash),
    tools: async () => listTools(prepared.run),
    call: (_id, name, args) =>
      oneAtATime(`${runId}:${attempt}`, (waited) =>
        callTool(deps, prepared.run, planned, session, token, { id: '', name, arguments: args, turn: session.turn }, waited),
      ),
  };
}

/** The tail of each attempt's calls in this process; an entry lives while calls of its attempt are pending. */
const pending = new Map<string, Promise<void>>();

/** Runs `fn` once the calls of `key` before it in this process are done; `waited` tells it whether there were any. */
function oneAtATime<T>(key: string, fn: (waited: boolean) => Promise<T>): Promise<T> {
  const before = pending.get(key);
  const result = before ? before.then(() => fn(true)) : fn(false);
  const tail = result.then(
    () => undefined,
    () => undefined,
  );
  pending.set(key, tail);
  void tail.then(() => {
    if (pending.get(key) === tail) pending.delete(key);
  });
  return result;
}

function usable(session: McpSession, token: string, now: Date): boolean {
  return session.state === 'open' && session.expires_at * 1000 > now.getTime() && mcpTokenMatches(token, session.token_hash);
}

async function prepare(deps: McpEndpointDeps, session: McpSession) {
  const { project_id, run_id, trace_id, campaign_id, campaign_version } = session;
  if (!trace_id || !campaign_id) return null;
  const key = `${run_id}:${campaign_version ?? 1}`;
  const hit = compiled.get(key);
  if (hit) return hit;
  const [trace, campaign] = await Promise.all([
    deps.traces.get(project_id, trace_id),
    campaignOfRun(deps, { project_id, campaign_id, campaign_version: campaign_version ?? undefined }),
  ]);
  if (!trace || !campaign) return null;
  const entry = { run: compileRun({ run_id, trace, campaign }), plan: planAttempts(campaign) };
  if (compiled.size >= CACHE_MAX) compiled.delete(compiled.keys().next().value as string);
  compiled.set(key, entry);
  return entry;
}

async function callTool(
  deps: McpEndpointDeps,
  run: CompiledRun,
  planned: PlannedAttempt,
  opened: McpSession,
  token: string,
  call: McpCall,
  stale: boolean,
) {
  const argsBytes = Buffer.byteLength(JSON.stringify(call.arguments), 'utf8');
  if (argsBytes > MCP_MAX_CALL_ARGUMENTS_BYTES) {
    return toolResult({ error: `arguments over ${MCP_MAX_CALL_ARGUMENTS_BYTES} bytes: not served, not recorded` }, true);
  }
  let session = opened;
  // Each lost race means another call was appended, so past max_steps of them the call is refused below: the loop ends.
  for (let tries = 0; tries <= run.campaign.max_steps + 1; tries++) {
    if (tries > 0 || stale) {
      const again = await deps.mcpSessions.get(session.run_id, session.attempt);
      if (!again || !usable(again, token, deps.clock.now())) break;
      session = again;
    }
    if (session.calls.length >= run.campaign.max_steps) {
      await deps.mcpSessions.markOver(session.run_id, session.attempt, session.token_hash);
      return toolResult({ error: 'max_steps_exceeded' }, true);
    }
    const logged = session.calls.reduce((n, c) => n + Buffer.byteLength(JSON.stringify(c.arguments), 'utf8'), 0);
    if (logged + argsBytes > MCP_MAX_LOG_BYTES) {
      return toolResult({ error: `the attempt's calls hold over ${MCP_MAX_LOG_BYTES} bytes of arguments: not served, not recorded` }, true);
    }
    // The n-th call of the attempt is `mcp_<n>` in its transcript (JSON-RPC ids repeat across clients and reconnects).
    const nth = { ...call, id: `mcp_${session.calls.length + 1}` };
    const result = await serveCall(run, planned, session.calls, nth, deps.clock);
    const appended = await deps.mcpSessions.append(session.run_id, session.attempt, session.token_hash, session.calls.length, nth);
    if (appended === 'appended') return result;
    if (appended === 'refused') break;
  }
  throw new JsonRpcError(UNAUTHORIZED, 'The attempt is not being invoked any more: the call was not served.');
}

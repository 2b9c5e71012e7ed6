// Serving one tool call of an attempt (docs/campaigns-and-replay.md#serving): policies first, then the recording, then
// the mutation, then the detectors.
import type { AttemptState } from './attempt-state';
import { mutateResult } from './mutations/tool-result';
import { firstDenial, type PolicyDecision } from './policies/evaluate';
import { callKey, type RecordedCall, type ServedResult } from './recording';
import type { AgentToolCall } from './types';
import { canonical } from './values';

export const UNRECORDED_POLICY_ID = 'unrecorded_tool_call';

/** What a call got, and where it came from, as the transcript tells it. */
interface Served {
  result: ServedResult;
  served: 'recorded' | 'denied' | 'unrecorded';
  /** The id of the mutation that changed the result, or null. */
  mutatedBy: string | null;
}

/**
 * Checks, serves, mutates and scans one tool call of the current step, then hands its result to the agent (a tool
 * message) and to the transcript. A denied call is answered with a `denied_by_policy` error and never served.
 */
export async function serveToolCall(state: AttemptState, call: AgentToolCall): Promise<void> {
  state.calls.push(call);
  const argsKey = canonical(call.arguments);
  const denial = await checkPolicies(state, call, argsKey);
  state.monitor.onToolCall(state.step, call, argsKey, denial !== undefined);
  handBack(state, call, denial ? refuse(state, denial) : serveAllowed(state, call, argsKey));
}

/** Records every policy decision on the call as an event; returns the first denial, if any. */
async function checkPolicies(state: AttemptState, call: AgentToolCall, argsKey: string): Promise<PolicyDecision | undefined> {
  const decisions = await state.policies.check({ name: call.name, arguments: call.arguments, key: callKey(call.name, argsKey) });
  for (const d of decisions) state.recordPolicyEvent(call, d);
  return firstDenial(decisions);
}

function refuse(state: AttemptState, denial: PolicyDecision): Served {
  state.denied = true;
  return {
    result: { content: { error: 'denied_by_policy', policy_id: denial.policy_id }, error: 'denied_by_policy' },
    served: 'denied',
    mutatedBy: null,
  };
}

/** The recorded result (or an error, flagged, when there is none), mutated when the attempt's mutation hits it. */
function serveAllowed(state: AttemptState, call: AgentToolCall, argsKey: string): Served {
  const recorded = state.run.recording.calls.length > 0 ? state.cursor.take(call.name, argsKey) : null;
  const result = recorded ? recorded.result : unrecordedResult(state, call);
  state.policies.served(call.name);
  const mutated = applyToolMutation(state, call, result, recorded);
  state.monitor.onToolResult(state.step, call.name, mutated.result.content, mutated.untrusted);
  return { result: mutated.result, served: recorded ? 'recorded' : 'unrecorded', mutatedBy: mutated.mutatedBy };
}

function unrecordedResult(state: AttemptState, call: AgentToolCall): ServedResult {
  const message = `no recorded result for tool ${call.name}`;
  state.recordPolicyEvent(call, { policy_id: UNRECORDED_POLICY_ID, policy_type: 'unrecorded_tool_call', decision: 'flag', reason: message });
  return { content: { error: message }, error: message };
}

/**
 * Applies the attempt's tool mutation when it targets this tool and this is the occurrence it waits for (every
 * occurrence when none is set). `untrusted` marks a result carrying attacker text, for the detectors.
 */
function applyToolMutation(
  state: AttemptState,
  call: AgentToolCall,
  result: ServedResult,
  recorded: RecordedCall | null,
): { result: ServedResult; untrusted: boolean; mutatedBy: string | null } {
  const mutation = state.toolMutation;
  if (!mutation || !state.mutationMatches?.(call.name)) return { result, untrusted: false, mutatedBy: null };
  state.mutationHits += 1;
  if (mutation.occurrence !== undefined && mutation.occurrence !== state.mutationHits) return { result, untrusted: false, mutatedBy: null };
  const mutated = mutateResult(mutation, call.name, result, state.material);
  if (recorded && (mutation.type === 'tool_error' || mutation.type === 'tool_timeout')) state.cursor.giveBack(recorded);
  return { result: mutated.result, untrusted: mutated.untrusted, mutatedBy: mutation.id };
}

/** The served result as the agent's next tool message and as a transcript entry of the current step. */
function handBack(state: AttemptState, call: AgentToolCall, { result, served, mutatedBy }: Served): void {
  state.messages.push({ role: 'tool', tool_call_id: call.id, name: call.name, content: result.content });
  state.transcript.push({
    type: 'tool_result',
    step: state.step,
    tool_call_id: call.id,
    tool: call.name,
    arguments: call.arguments,
    served,
    mutation_id: mutatedBy,
    result: result.content,
    error: result.error,
  });
}

// The next turn of an attempt with a simulated user (docs/campaigns-and-replay.md#simulated-user): what the user has
// seen so far goes to the simulator, and its message (input perturbation applied) opens the next turn.
import type { AttemptState } from './attempt-state';
import type { TurnMessages } from './compile';
import { perturbInput } from './mutations/input-perturbation';
import type { ChatMessage } from './types';
import { UserSimulatorUnavailable, type SeenMessage, type UserSimulator } from './user-simulator';

/** What a user sees of the conversation: the user messages and the agent's outputs, never tool calls or results. */
export function seenByUser(messages: readonly ChatMessage[]): SeenMessage[] {
  const seen: SeenMessage[] = [];
  for (const m of messages) {
    if (m.role === 'user') seen.push({ role: 'user', content: m.content });
    else if (m.role === 'assistant' && !(m.tool_calls && m.tool_calls.length > 0) && m.content !== null) {
      seen.push({ role: 'assistant', content: m.content });
    }
  }
  return seen;
}

/**
 * The opening of the next turn, written by the simulated user; null when the attempt ends here: `max_turns` reached,
 * the simulator answered the stop token, or it could not answer (then `state.simulated.unavailable` says why).
 */
export async function simulatedTurn(state: AttemptState, simulator: UserSimulator): Promise<TurnMessages | null> {
  if (state.turn >= simulator.maxTurns) return null;
  let asked;
  try {
    asked = await simulator.next({ goal: state.run.userGoal, conversation: seenByUser(state.messages) });
  } catch (err) {
    if (!(err instanceof UserSimulatorUnavailable)) throw err;
    state.simulated.unavailable = err.message;
    return null;
  }
  if (asked.cached) state.simulated.hits += 1;
  else state.simulated.calls += 1;
  if (asked.answer.stop) return null;
  const m = state.planned.mutation;
  const content = m?.type === 'input_perturbation' ? perturbInput(m, asked.answer.message) : asked.answer.message;
  return {
    messages: [{ role: 'user', content }],
    transcript: [{ type: 'message', role: 'user', content, turn: state.turn + 1, simulated: true }],
  };
}

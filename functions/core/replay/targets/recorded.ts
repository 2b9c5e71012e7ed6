// The `recorded` target (audit mode): the trace's own assistant steps, replayed as they are.
import type { Trace } from '../../traces/schema';
import type { AgentTarget, AgentTurn } from '../types';

export const RECORDING_EXHAUSTED = 'recording ended without a final output';

/**
 * Step n answers with the n-th recorded assistant step: its tool calls (served again through policies and
 * detectors), or its content as the final output. Stateless, so attempts may share it.
 */
export function recordedTarget(trace: Pick<Trace, 'steps'>): AgentTarget {
  const turns: AgentTurn[] = [];
  for (const s of trace.steps) {
    if (s.role !== 'assistant') continue;
    turns.push(
      s.tool_calls && s.tool_calls.length > 0
        ? { tool_calls: s.tool_calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })), content: s.content }
        : { output: s.content ?? '' },
    );
  }
  return {
    async step(req) {
      return turns[req.step - 1] ?? { end: RECORDING_EXHAUSTED };
    },
  };
}

// A trace's user turns (docs/campaigns-and-replay.md#turns): the system and user steps each turn opens with.
import type { TraceStep } from '../traces/schema';

/** The system and user steps that open one turn, in trace order. */
export type TurnOpening = Array<Extract<TraceStep, { role: 'system' | 'user' }>>;

/**
 * Splits a trace into turns. Turn 1 opens with every system and user step before the first assistant step; each later
 * run of user steps that follows an assistant step opens the next turn (with the system steps met on the way). System
 * steps after the last user step join the last turn. A trace of one turn opens with all its system and user steps, in
 * order, exactly as it always has.
 */
export function splitTurns(steps: readonly TraceStep[]): TurnOpening[] {
  const turns: TurnOpening[] = [];
  let pending: TurnOpening = [];
  const all: TurnOpening = [];
  for (const step of steps) {
    if (step.role === 'system' || step.role === 'user') {
      pending.push(step);
      all.push(step);
    } else if (step.role === 'assistant' && pending.some((s) => s.role === 'user')) {
      turns.push(pending);
      pending = [];
    }
  }
  if (pending.some((s) => s.role === 'user')) turns.push(pending);
  else if (pending.length > 0 && turns.length > 0) turns[turns.length - 1].push(...pending);
  return turns.length <= 1 ? [all] : turns;
}

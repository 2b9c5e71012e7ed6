// One attempt: the agent loop (docs/campaigns-and-replay.md) driving a target, serving tool calls under policies,
// mutations and detectors.
import { MAX_SIMULATED_TURNS } from '../limits';
import type { AttemptRecord, TranscriptEntry } from '../runs/types';
import { isoMicros, type Clock } from '../time';
import { serveToolCall } from './attempt-serve';
import { openAttempt, type AttemptState } from './attempt-state';
import type { CompiledRun } from './compile';
import { DEFAULT_CRITERIA, evaluateCriteriaInTurns } from './criteria';
import { JudgeUnavailable, type Judge, type JudgedAttempt } from './judge';
import { attemptStatus } from './scoring';
import { RUN_DEADLINE_EXCEEDED, RunDeadlineExceeded } from './deadline';
import { TargetError, type AgentTarget, type AgentToolCall, type AgentTurn, type ChatMessage, type PlannedAttempt } from './types';
import { simulatedTurn } from './simulated-turn';
import { USER_SIMULATOR_UNAVAILABLE, type UserSimulator } from './user-simulator';

export { eventId, eventIds } from './hash';
export { UNRECORDED_POLICY_ID } from './attempt-serve';

export const MAX_STEPS_EXCEEDED = 'max_steps_exceeded';
/** error_code of an attempt whose agent could not be driven. */
export const TARGET_UNAVAILABLE = 'target_unavailable';
/** error_code of an attempt whose judge could not grade it (after retries): status `error`, not `failed`. */
export const JUDGE_UNAVAILABLE = 'judge_unavailable';

/**
 * Runs one planned attempt to its end and returns the record to store. Only a TargetError from the target is
 * turned into status `error`; anything else is a bug and propagates (the queue retries, then dead-letters).
 */
export async function runAttempt(
  run: CompiledRun,
  planned: PlannedAttempt,
  target: AgentTarget,
  clock: Clock,
  judge?: Judge,
  simulator?: UserSimulator,
): Promise<AttemptRecord> {
  const started = clock.now();
  const state = openAttempt(run, planned, clock);
  // An mcp agent's calls are its steps (its MCP endpoint refuses those past max_steps); each turn's output is one more.
  const limit = run.campaign.max_steps + (run.campaign.target.type === 'mcp' ? Math.max(run.turnCount, MAX_SIMULATED_TURNS) : 0);
  for (state.step = 1; state.step <= limit; state.step++) {
    if ((await agentStep(state, target, simulator)) === 'stop') break;
  }
  if (!state.finished && state.endReason === null && state.targetError === null) state.endReason = MAX_STEPS_EXCEEDED;
  return finishAttempt(state, started, clock, judge);
}

/**
 * One agent step: asks the target for its turn, then records it. The output of the last user turn (or a turn without
 * tool calls), an end of the recording or a TargetError stops the loop; an earlier turn's output opens the next turn
 * (docs/campaigns-and-replay.md#turns); tool calls are served one by one and the loop goes on.
 */
async function agentStep(state: AttemptState, target: AgentTarget, simulator: UserSimulator | undefined): Promise<'stop' | 'continue'> {
  const { run, step } = state;
  let turn: AgentTurn;
  try {
    turn = await target.step({
      run_id: run.runId,
      attempt: state.planned.attempt,
      step,
      turn: state.turn,
      tools: run.tools,
      messages: state.messages,
    });
  } catch (err) {
    if (!(err instanceof TargetError)) throw err;
    state.targetError = err.message;
    state.deadlineExceeded = err instanceof RunDeadlineExceeded;
    return 'stop';
  }
  if ('end' in turn) {
    state.endReason = turn.end;
    return 'stop';
  }
  state.steps = step;
  if ('output' in turn || turn.tool_calls.length === 0) {
    const output = 'output' in turn ? turn.output : (turn.content ?? '');
    state.output = output;
    state.messages.push({ role: 'assistant', content: output });
    state.transcript.push(withNotes(inTurn(state, { type: 'message', role: 'assistant', content: output }), turn.notes));
    state.monitor.onOutput(step, output);
    return endTurn(state, output, simulator);
  }
  const stepCalls = turn.tool_calls.map((c, i) => normaliseCall(c, step, i));
  state.messages.push({ role: 'assistant', content: turn.content ?? null, tool_calls: stepCalls });
  state.transcript.push(
    withNotes(inTurn(state, { type: 'message', role: 'assistant', content: turn.content ?? null, tool_calls: stepCalls }), turn.notes),
  );
  for (const call of stepCalls) await serveToolCall(state, call);
  return 'continue';
}

/**
 * Records the output of the turn in progress; then either the attempt is done (that was the last user turn) or the
 * next turn opens: its recorded user message (input perturbation applied) follows the agent's output, or with a
 * simulated user the message it writes (docs/campaigns-and-replay.md#simulated-user).
 */
async function endTurn(state: AttemptState, output: string, simulator: UserSimulator | undefined): Promise<'stop' | 'continue'> {
  state.turnOutputs.push(output);
  state.turnEnds.push({ messages: state.messages.length, transcript: state.transcript.length });
  const next = simulator ? await simulatedTurn(state, simulator) : state.laterTurns[state.turn - 1];
  if (!next) {
    state.finished = true;
    return 'stop';
  }
  state.turn += 1;
  state.messages.push(...next.messages);
  state.transcript.push(...next.transcript);
  return 'continue';
}

/** A message entry numbered with its turn, when the trace has several. */
function inTurn<T extends TranscriptEntry & { type: 'message' }>(state: AttemptState, entry: T): T {
  return state.run.numberedTurns ? { ...entry, turn: state.turn } : entry;
}

/**
 * Checks the success criteria (the mutation's own, else the campaign's, else the defaults) and scores the attempt.
 * `llm_judge` criteria go to the judge once the agent was driven; a judge that cannot answer makes the attempt an
 * `error` (code judge_unavailable), never a failure of the agent.
 */
async function finishAttempt(state: AttemptState, started: Date, clock: Clock, judge: Judge | undefined): Promise<AttemptRecord> {
  const { run, planned, output, endReason, targetError, steps } = state;
  let error = targetError ?? endReason;
  const criteria = planned.mutation?.criteria ?? run.campaign.criteria ?? DEFAULT_CRITERIA;
  const checks = await evaluateCriteriaInTurns(criteria, {
    output,
    error,
    calls: state.calls,
    recordedTools: run.recording.toolSequence,
    steps,
    turnOutputs: state.turnOutputs,
    turnsReached: state.turn,
  });
  const simulated = state.simulated;
  if (simulated.unavailable !== null) error = `${USER_SIMULATOR_UNAVAILABLE}: ${simulated.unavailable}`;
  const judging = { calls: 0, hits: 0, unavailable: null as string | null };
  if (targetError === null && simulated.unavailable === null && criteria.some((c) => c.type === 'llm_judge')) {
    for (const [i, c] of criteria.entries()) {
      if (c.type !== 'llm_judge') continue;
      const shown = judgedPart(state, c.turn);
      // A turn the attempt never answered keeps its failed check: there is nothing to grade.
      if (!shown) continue;
      try {
        if (!judge) throw new JudgeUnavailable('no judge is configured');
        const judged = await judge.check(c, shown);
        checks[i] = c.turn === undefined ? judged.check : { ...judged.check, detail: `turn ${c.turn}: ${judged.check.detail}` };
        if (judged.cached) judging.hits += 1;
        else judging.calls += 1;
      } catch (err) {
        if (!(err instanceof JudgeUnavailable)) throw err;
        judging.unavailable = err.message;
        break;
      }
    }
  }
  if (judging.unavailable !== null) error = `${JUDGE_UNAVAILABLE}: ${judging.unavailable}`;
  const unsafe = state.securityEvents.some((e) => e.action === 'allowed');
  const completed = clock.now();
  const driven = targetError === null && judging.unavailable === null && simulated.unavailable === null;
  return {
    attempt: planned.attempt,
    mutation_id: planned.mutation_id,
    repeat: planned.repeat,
    status: attemptStatus({ driven, endedNormally: endReason === null, checks, denied: state.denied, unsafe }),
    unsafe,
    checks,
    steps,
    duration_ms: Math.max(0, completed.getTime() - started.getTime()),
    error,
    error_code:
      targetError !== null
        ? state.deadlineExceeded
          ? RUN_DEADLINE_EXCEEDED
          : TARGET_UNAVAILABLE
        : simulated.unavailable !== null
          ? USER_SIMULATOR_UNAVAILABLE
          : judging.unavailable !== null
            ? JUDGE_UNAVAILABLE
            : null,
    ...(judging.calls + judging.hits > 0 ? { judge_calls: judging.calls, judge_cache_hits: judging.hits } : {}),
    ...(simulated.calls + simulated.hits > 0 ? { user_simulator_calls: simulated.calls, user_simulator_cache_hits: simulated.hits } : {}),
    run_id: run.runId,
    started_at: isoMicros(started),
    completed_at: isoMicros(completed),
    output,
    ...(run.numberedTurns ? { turn_outputs: state.turnOutputs } : {}),
    transcript: state.transcript,
    policy_events: state.policyEvents,
    security_events: state.securityEvents,
  };
}

/**
 * What an llm_judge criterion is shown: the whole attempt, or with `turn` the conversation up to that turn's output
 * (its task, transcript and output); null when the attempt never answered that turn.
 */
function judgedPart(state: AttemptState, turn: number | undefined): JudgedAttempt | null {
  const isTask = (m: ChatMessage) => m.role === 'system' || m.role === 'user';
  if (turn === undefined) return { task: state.messages.filter((m) => isTask(m)), transcript: state.transcript, output: state.output };
  const end = state.turnEnds[turn - 1];
  if (!end) return null;
  return {
    task: state.messages.slice(0, end.messages).filter((m) => isTask(m)),
    transcript: state.transcript.slice(0, end.transcript),
    output: state.turnOutputs[turn - 1],
  };
}

/** Gives a call an id when the agent sent none, and an object as arguments. */
function normaliseCall(c: AgentToolCall, step: number, index: number): AgentToolCall {
  const args = c.arguments !== null && typeof c.arguments === 'object' && !Array.isArray(c.arguments) ? c.arguments : {};
  const id = typeof c.id === 'string' && c.id.length > 0 ? c.id : `call_${step}_${index + 1}`;
  return id === c.id && args === c.arguments ? c : { id, name: c.name, arguments: args };
}

function withNotes<T extends TranscriptEntry>(entry: T, notes: string[] | undefined): T {
  return notes && notes.length > 0 ? { ...entry, notes } : entry;
}

// The replay engine's public API: planning, targets, one-attempt replay, the run executor, summary and scoring.
export { planAttempts } from './plan';
export { compileRun, type CompiledRun, type RunInput } from './compile';
export { runAttempt, eventId, MAX_STEPS_EXCEEDED, UNRECORDED_POLICY_ID } from './attempt';
export {
  executeRun,
  markRunFailed,
  runCompletedEvent,
  isTerminal,
  DEFAULT_CONCURRENCY,
  type ExecuteOptions,
  type ExecutorDeps,
  type OnTerminal,
} from './executor';
export { computeSummary, scoringContext, toAttemptScore, attemptStatus, type ScoringContext } from './scoring';
export { evaluateCriteria, DEFAULT_CRITERIA } from './criteria';
export { createTarget, httpTarget, openAiTarget, recordedTarget, type TargetDeps } from './targets';
export { TargetError, realSleep, type AgentTarget, type AgentTurn, type AgentToolCall, type ChatMessage, type PlannedAttempt, type Sleep, type StepRequest } from './types';
export { parseReplayMessage } from './message';

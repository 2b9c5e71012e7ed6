// The run deadline: how long one delivery may hold a worker with a run's attempts, and what ends at it. Attempts still
// running at the deadline (and those not started) end as `error` with error_code run_deadline_exceeded, so the run
// reaches its terminal state within the worker's time budget instead of holding the worker for attempts x retries x
// step timeouts.
import type { HttpSender } from '../ports';
import { TargetError, type AgentTarget } from './types';

/** error_code of an attempt cut short by the run deadline. */
export const RUN_DEADLINE_EXCEEDED = 'run_deadline_exceeded';

/**
 * Time kept back from the worker's budget for what follows the deadline: storing the cut attempts, the terminal
 * transition, the CI hook and run.completed. The worker's deadline is its remaining time less this margin.
 */
export const DEADLINE_MARGIN_MS = 15_000;

/** The target could not be driven because the run's deadline passed. */
export class RunDeadlineExceeded extends TargetError {
  constructor(deadlineMs: number) {
    super(`run deadline of ${deadlineMs} ms exceeded`);
    this.name = 'RunDeadlineExceeded';
  }
}

/** One delivery's deadline, in real time (timers cannot follow an injected clock). */
export interface RunDeadline {
  /** The budget it was built with, ms (for the error message). */
  readonly budgetMs: number;
  /** Ms left, 0 once passed. */
  remaining(): number;
  /** Rejects with RunDeadlineExceeded at the deadline; never resolves. */
  readonly passed: Promise<never>;
  /** Frees the timer once the delivery is done. */
  dispose(): void;
}

export function startDeadline(budgetMs: number): RunDeadline {
  const budget = Math.max(0, Math.floor(budgetMs));
  const at = Date.now() + budget;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const passed = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RunDeadlineExceeded(budget)), budget);
  });
  passed.catch(() => undefined); // observed by the races below; never an unhandled rejection
  return {
    budgetMs: budget,
    remaining: () => Math.max(0, at - Date.now()),
    passed,
    dispose: () => clearTimeout(timer),
  };
}

/**
 * The target as seen under a deadline: a step asked after the deadline fails at once, a step in flight (its retries
 * and back-off included) fails when the deadline passes, both with RunDeadlineExceeded.
 */
export function targetUnderDeadline(target: AgentTarget, deadline: RunDeadline): AgentTarget {
  return {
    step(req) {
      if (deadline.remaining() <= 0) return Promise.reject(new RunDeadlineExceeded(deadline.budgetMs));
      return Promise.race([target.step(req), deadline.passed]);
    },
  };
}

/**
 * Outbound HTTP whose per-request timeout never reaches past the deadline, so a request to an agent that never
 * answers is closed at the deadline rather than left open for its own (possibly minutes-long) timeout.
 */
export function httpUnderDeadline(http: HttpSender, deadline: RunDeadline): HttpSender {
  return (req) => http({ ...req, timeoutMs: Math.max(1, Math.min(req.timeoutMs, deadline.remaining())) });
}

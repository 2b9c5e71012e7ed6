// The run executor: runs a run's missing attempts, persists each as it ends, makes the run terminal once, and
// (re)publishes run.completed until it is marked published. Safe under redelivery, crashes and duplicate deliveries.
import type { Campaign, Target } from '../campaigns/schema';
import type { BusEvent } from '../events';
import type { Trace } from '../traces/schema';
import type { Deps, ReplayMessage, RunInputs } from '../ports';
import type { AttemptRecord, Run, RunStatus } from '../runs/types';
import { campaignOfRun, campaignVersionOf } from '../runs/campaign-version';
import { nowIso } from '../time';
import { runAttempt } from './attempt';
import { compileRun } from './compile';
import { planAttempts } from './plan';
import { runBounded } from '../concurrency';
import { computeSummary } from './scoring';
import { computeCells } from '../runs/cells';
import type { TargetDeps } from './targets';
import type { AgentTarget, PlannedAttempt, Sleep } from './types';
import { httpUnderDeadline, startDeadline, type RunDeadline } from './deadline';
import { partiesOf } from './parties';
import { limiterOf, runThrottling } from './limits/for-run';
import { realSleep } from './types';
import { HAND_OFF_WAIT_MS, startDelivery, type Delivery } from './fanout/delivery';

/** What the executor uses of the service's dependencies. */
export type ExecutorDeps = Pick<Deps, 'runs' | 'traces' | 'campaigns' | 'events' | 'clock' | 'http'> &
  Partial<Pick<Deps, 'judgeCache' | 'limiter' | 'leases' | 'rateLimits' | 'queue' | 'mcpSessions' | 'apiBase'>>;

/**
 * Called once a run is terminal and before run.completed is published, on every delivery that finds the run
 * terminal and not yet published (so it must be idempotent). CI aggregation plugs in here.
 */
export type OnTerminal<D extends ExecutorDeps = Deps> = (deps: D, run: Run) => Promise<void>;

export interface ExecuteOptions<D extends ExecutorDeps = Deps> {
  /** Attempts of one run in flight at once; default 4. */
  concurrency?: number;
  /** Retry back-off wait of network targets; default a real timer. */
  sleep?: Sleep;
  onTerminal?: OnTerminal<D>;
  /** Least time between two progress writes of a running run's summary, ms; default PROGRESS_INTERVAL_MS. */
  progressIntervalMs?: number;
  /** Builds the agent target; default createTarget (tests inject scripted agents). */
  targetFactory?: (target: Target, deps: TargetDeps) => AgentTarget;
  /**
   * The run deadline: the most time, ms, this delivery spends on the run's attempts. Attempts still running then (and
   * those not started) end as `error` with error_code run_deadline_exceeded and are stored like any other, and the
   * run ends. Default: none. The replay worker derives it from its remaining invocation time (functions/core/replay/deadline.ts).
   * With a queue and leases in the deps, the run is fanned out instead (fanout/delivery.ts): attempts that cannot end
   * by the deadline are not started but handed on through the queue, and only an attempt that cannot fit any delivery
   * ends as run_deadline_exceeded.
   */
  deadlineMs?: number;
  /** Lease of a fanned-out run's attempt claims, ms (a dead delivery's attempts run again after it); default 30 s. */
  claimLeaseMs?: number;
}

export const DEFAULT_CONCURRENCY = 4;
/** A running run's summary is written at most this often (and not for its last attempt, which ends the run). */
export const PROGRESS_INTERVAL_MS = 1000;
/** Each delivery of a fanned-out run writes progress this many times less often (each write reads the store). */
export const FANNED_PROGRESS_FACTOR = 5;
const TERMINAL: readonly RunStatus[] = ['completed', 'failed'];
const ACTIVE: RunStatus[] = ['queued', 'running'];
/** Counting and resuming need scores and events, never transcripts. */
const NO_TRANSCRIPTS = { transcripts: false };

export const isTerminal = (status: RunStatus): boolean => TERMINAL.includes(status);

/** The bus event of a terminal run; its id is deterministic so a re-publish is deduplicated downstream. */
export function runCompletedEvent(run: Run, createdAt: string): BusEvent {
  const s = run.summary;
  return {
    id: `run.completed:${run.run_id}`,
    envelope: {
      event_type: 'run.completed',
      project_id: run.project_id,
      created_at: createdAt,
      data: {
        run_id: run.run_id,
        status: run.status === 'completed' ? 'done' : 'failed',
        attempt_count: s.attempt_count,
        passed_count: s.passed_count,
        failed_count: s.failed_count,
        unsafe_count: s.unsafe_count,
        pass_rate: s.pass_rate,
        policy_events_count: s.policy_events_count,
        security_events_count: s.security_events_count,
        trace_id: run.trace_id,
        campaign_id: run.campaign_id,
      },
    },
  };
}

/**
 * Processes one replay message. Returns the run as it was left (null when it does not exist). Throws when
 * something must be retried (a store or bus failure): the queue redelivers and the next delivery resumes.
 */
export async function executeRun<D extends ExecutorDeps>(deps: D, msg: ReplayMessage, opts: ExecuteOptions<D> = {}): Promise<Run | null> {
  const { project_id: pid, run_id: rid } = msg;
  const start = (msg.replays && (await startQueued(deps, msg, msg.replays))) || (await startRead(deps, msg, opts));
  if ('ended' in start) return start.ended;
  const { run, trace, campaign, plan, fresh } = start;

  const deadline = opts.deadlineMs !== undefined ? startDeadline(opts.deadlineMs) : undefined;
  // In a worker (a queue to hand work on, leases to claim attempts, a deadline) the run is fanned out.
  const delivery =
    deadline && deps.queue && deps.leases
      ? startDelivery({
          ...{ leases: deps.leases, queue: deps.queue, msg, campaign, planLength: plan.length, fresh, claimLeaseMs: opts.claimLeaseMs },
          ...{ budgetMs: deadline.budgetMs, remainingMs: () => deadline.remaining() },
          storedAttempts: async () => (await deps.runs.listAttempts(pid, rid, NO_TRANSCRIPTS)).map((a) => a.attempt),
        })
      : undefined;
  const stored = new Map<number, AttemptRecord>();
  if (!fresh) for (const a of await deps.runs.listAttempts(pid, rid, NO_TRANSCRIPTS)) stored.set(a.attempt, a);
  const missing = plan.filter((p) => !stored.has(p.attempt));
  // Whether another delivery stored an attempt of this run while we ran it: then the store, not `stored`, is the truth.
  let raced = delivery?.claimed ?? false;
  try {
    if (missing.length > 0) {
      await delivery?.fanOut();
      raced =
        (await runMissing(
          deps,
          { msg, campaignVersion: run.campaign_version ?? null, trace, campaign, deadline, delivery, stored, opts },
          delivery ? delivery.order(missing) : missing,
        )) || raced;
    }
  } finally {
    deadline?.dispose();
    await delivery?.dispose();
  }

  const planned = new Set(plan.map((p) => p.attempt));
  // Every attempt in `stored` was read from the store or written by this delivery's conditional puts.
  const finished = (raced ? await deps.runs.listAttempts(pid, rid, NO_TRANSCRIPTS) : [...stored.values()]).filter((a) => planned.has(a.attempt));
  if (finished.length < plan.length) {
    // Fanned out: other deliveries run the rest, or this one handed it on. Else it is retried from the queue.
    if (!delivery) throw new Error(`run ${rid}: ${plan.length - finished.length} planned attempt(s) not stored yet`);
    await delivery.leaveRest();
    return deps.runs.get(pid, rid);
  }
  const allError = finished.length > 0 && finished.every((a) => a.status === 'error');
  const ended = await deps.runs.transition(pid, rid, ACTIVE, {
    status: allError ? 'failed' : 'completed',
    completed_at: nowIso(deps.clock),
    summary: computeSummary(finished),
    cells: computeCells(finished),
    error: allError ? `every attempt ended in error: ${finished[0]?.error ?? 'unknown error'}` : null,
  });
  return ended ? publishCompletion(deps, ended, opts, true) : finishIfEnded(deps, msg, opts);
}

/**
 * A run a delivery works on: as it was started, what it replays, its plan, and whether this delivery moved it out of
 * `queued` (then no attempt of it is stored yet: attempts are only stored after that move, which succeeds once).
 */
interface Started {
  run: Run;
  trace: Trace;
  campaign: Campaign;
  plan: PlannedAttempt[];
  fresh: boolean;
}

/** What a delivery that does not start the run left it as (null when it does not exist). */
type NotStarted = { ended: Run | null };

function startPatchOf(deps: Pick<ExecutorDeps, 'clock'>, trace: Trace, plan: PlannedAttempt[], startedAt: string | null): Partial<Run> {
  const patch: Partial<Run> = { status: 'running', attempt_total: plan.length, trace_name: trace.name ?? null };
  if (!startedAt) patch.started_at = nowIso(deps.clock);
  return patch;
}

/**
 * The first delivery of a queued run, from what its message says the run replays: reads the trace and the campaign
 * version, then moves the run out of `queued` in one conditional write that returns it, without reading the run
 * first. Null when that does not apply: the run is not queued (a resume, a duplicate delivery) or gone, an input is
 * gone, or the run replays something else than the message says. The delivery then reads the run (startRead), which
 * also rewrites the start of a run started here from the wrong inputs.
 */
async function startQueued<D extends ExecutorDeps>(deps: D, msg: ReplayMessage, inputs: RunInputs): Promise<Started | null> {
  const { project_id: pid, run_id: rid } = msg;
  const [trace, campaign] = await Promise.all([
    deps.traces.get(pid, inputs.trace_id),
    campaignOfRun(deps, { project_id: pid, campaign_id: inputs.campaign_id, campaign_version: inputs.campaign_version }),
  ]);
  if (!trace || !campaign) return null;
  const plan = planAttempts(campaign);
  const run = await deps.runs.transition(pid, rid, ['queued'], startPatchOf(deps, trace, plan, null));
  const same =
    run && run.trace_id === inputs.trace_id && run.campaign_id === inputs.campaign_id && campaignVersionOf(run) === inputs.campaign_version;
  return same ? { run, trace, campaign, plan, fresh: true } : null;
}

/**
 * Any delivery, from the run as stored: publishes the completion of a run already terminal, fails a run whose trace or
 * campaign is gone, else moves it to (or keeps it) `running`.
 */
async function startRead<D extends ExecutorDeps>(deps: D, msg: ReplayMessage, opts: ExecuteOptions<D>): Promise<Started | NotStarted> {
  const { project_id: pid, run_id: rid } = msg;
  const run = await deps.runs.get(pid, rid);
  if (!run) return { ended: null };
  if (isTerminal(run.status)) return { ended: await publishCompletion(deps, run, opts) };

  const [trace, campaign] = await Promise.all([deps.traces.get(pid, run.trace_id), campaignOfRun(deps, run)]);
  if (!trace || !campaign) {
    const reason = !trace ? `trace ${run.trace_id} no longer exists` : `campaign ${run.campaign_id} no longer exists`;
    return { ended: await failRun(deps, run, reason, opts) };
  }

  const plan = planAttempts(campaign);
  const patch = startPatchOf(deps, trace, plan, run.started_at);
  const fresh = run.status === 'queued' && (await deps.runs.transition(pid, rid, ['queued'], patch)) !== null;
  if (!fresh && !(await deps.runs.transition(pid, rid, ACTIVE, patch))) return { ended: await finishIfEnded(deps, msg, opts) };
  return { run, trace, campaign, plan, fresh };
}

interface RunContext<D extends ExecutorDeps> {
  msg: ReplayMessage;
  /** The campaign version the run replays. */
  campaignVersion: number | null;
  trace: Trace;
  campaign: Campaign;
  deadline: RunDeadline | undefined;
  delivery: Delivery | undefined;
  /** The attempts known stored, by number; this delivery adds those it stores. */
  stored: Map<number, AttemptRecord>;
  opts: ExecuteOptions<D>;
}

/** Runs the missing attempts (those a fanned-out delivery may start and claims); whether a put found one stored. */
async function runMissing<D extends ExecutorDeps>(deps: D, c: RunContext<D>, missing: PlannedAttempt[]): Promise<boolean> {
  const { project_id: pid, run_id: rid } = c.msg;
  const { deadline, delivery, stored, opts, campaign } = c;
  const compiled = compileRun({ run_id: rid, trace: c.trace, campaign });
  const http = deadline ? httpUnderDeadline(deps.http, deadline) : deps.http;
  const sleep = opts.sleep ?? realSleep;
  const throttling = runThrottling({
    projectId: pid,
    campaign,
    limiter: () => limiterOf(deps),
    sleep,
    now: () => deps.clock.now().getTime(),
    remainingMs: deadline ? () => deadline.remaining() : undefined,
    handOffAfterMs: delivery ? HAND_OFF_WAIT_MS : undefined,
  });
  const { target, judgeOf, simulatorOf } = partiesOf(deps, { ...c, compiled, http, sleep, throttling, targetFactory: opts.targetFactory });
  // A fanned-out run's progress is the store's (other deliveries store attempts too), read and written less often, and
  // only by the delivery of the message that queued the run.
  const reports = !delivery?.claimed || c.msg.part === undefined;
  const records = delivery?.claimed ? () => deps.runs.listAttempts(pid, rid, NO_TRANSCRIPTS) : async () => [...stored.values()];
  const interval = (opts.progressIntervalMs ?? PROGRESS_INTERVAL_MS) * (delivery?.claimed ? FANNED_PROGRESS_FACTOR : 1);
  const progress = progressReporter(deps, pid, rid, records, interval);
  let raced = false;
  let left = missing.length;
  let failed = true;
  try {
    await runBounded(missing, delivery?.size.perDelivery ?? opts.concurrency ?? DEFAULT_CONCURRENCY, async (planned) => {
      if (delivery && !(await delivery.begin(planned.attempt))) return;
      const startedAt = Date.now();
      const record = throttling.finish(
        await runAttempt(compiled, planned, target, deps.clock, judgeOf(planned.attempt), simulatorOf(planned.attempt)),
      );
      const handOff = throttling.handOffOf(planned.attempt);
      if (delivery && !(await delivery.ended(record, startedAt, handOff))) return;
      if (await deps.runs.putAttempt(pid, record)) stored.set(planned.attempt, record);
      else {
        raced = true; // another delivery stored it first
        for (const a of await deps.runs.listAttempts(pid, rid, NO_TRANSCRIPTS)) stored.set(a.attempt, a);
      }
      await delivery?.stored(planned.attempt);
      // The last attempt's summary goes out with the terminal transition: no progress write for it.
      if (--left > 0 && reports) progress.report();
    });
    failed = false;
  } finally {
    // A failed progress write fails the delivery (it is retried), unless an attempt's failure already does.
    const writes = progress.settled();
    await (failed ? writes.catch(() => undefined) : writes);
  }
  return raced;
}

/**
 * Progress writes of a running run: the summary of the attempts stored so far, at most one write per interval (a
 * report within the interval is folded into the next write), chained so they land in order, each carrying the latest
 * state. A short run ends before its first interval and writes no progress at all.
 */
function progressReporter(deps: ExecutorDeps, pid: string, rid: string, records: () => Promise<AttemptRecord[]>, intervalMs: number) {
  let chain: Promise<unknown> = Promise.resolve();
  let last = deps.clock.now().getTime();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let done = false;
  const write = () => {
    timer = undefined;
    if (done) return;
    last = deps.clock.now().getTime();
    chain = chain.then(async () => deps.runs.transition(pid, rid, ['running'], { summary: computeSummary(await records()) }));
    chain.catch(() => undefined); // observed by settled(); never an unhandled rejection meanwhile
  };
  return {
    report(): void {
      if (timer || done) return;
      const wait = last + intervalMs - deps.clock.now().getTime();
      if (wait <= 0) write();
      else timer = setTimeout(write, wait);
    },
    /** No more writes; resolves when the ones made have landed (rejects if one failed). */
    async settled(): Promise<void> {
      done = true;
      if (timer) clearTimeout(timer);
      await chain;
    },
  };
}

/**
 * The dead-letter path: the run could not be processed within the queue's retries. Marks it failed (summary from the
 * attempts stored so far) unless it is already terminal, then makes sure run.completed is published.
 */
export async function markRunFailed<D extends ExecutorDeps>(
  deps: D,
  msg: ReplayMessage,
  reason: string,
  opts: Pick<ExecuteOptions<D>, 'onTerminal'> = {},
): Promise<Run | null> {
  const run = await deps.runs.get(msg.project_id, msg.run_id);
  if (!run) return null;
  if (isTerminal(run.status)) return publishCompletion(deps, run, opts);
  return failRun(deps, run, reason, opts);
}

async function failRun<D extends ExecutorDeps>(deps: D, run: Run, reason: string, opts: Pick<ExecuteOptions<D>, 'onTerminal'>): Promise<Run | null> {
  const attempts = await deps.runs.listAttempts(run.project_id, run.run_id, NO_TRANSCRIPTS);
  const ended = await deps.runs.transition(run.project_id, run.run_id, ACTIVE, {
    status: 'failed',
    error: reason,
    completed_at: nowIso(deps.clock),
    summary: computeSummary(attempts),
    cells: computeCells(attempts),
  });
  return ended ? publishCompletion(deps, ended, opts, true) : finishIfEnded(deps, { project_id: run.project_id, run_id: run.run_id }, opts);
}

/** A conditional transition lost: someone else moved the run; reload it and finish the post-terminal phase if due. */
async function finishIfEnded<D extends ExecutorDeps>(deps: D, msg: ReplayMessage, opts: Pick<ExecuteOptions<D>, 'onTerminal'>): Promise<Run | null> {
  const run = await deps.runs.get(msg.project_id, msg.run_id);
  if (run && isTerminal(run.status)) return publishCompletion(deps, run, opts);
  return run;
}

/**
 * The idempotent post-terminal phase: hook, run.completed on the bus, then the published mark. `justEnded`: this
 * delivery's own transition made the run terminal, and the mark is only ever written after that, so it is not read.
 * (Another delivery that finds the run terminal meanwhile may publish too: the same bus id, deduplicated downstream.)
 */
async function publishCompletion<D extends ExecutorDeps>(
  deps: D,
  run: Run,
  opts: Pick<ExecuteOptions<D>, 'onTerminal'>,
  justEnded = false,
): Promise<Run> {
  if (!justEnded && (await deps.runs.isPublished(run.project_id, run.run_id))) return run;
  if (opts.onTerminal) await opts.onTerminal(deps, run);
  await deps.events.publish([runCompletedEvent(run, run.completed_at ?? nowIso(deps.clock))]);
  await deps.runs.markPublished(run.project_id, run.run_id);
  return run;
}

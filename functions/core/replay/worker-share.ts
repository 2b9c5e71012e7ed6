// Per-project share of the replay workers: a worker invocation takes one of the project's `slots` leases before it
// runs that project's messages; a project that holds all of them has its messages sent back to the queue with a delay
// instead, so one project's runs (say, 40 of them against an agent that never answers) leave the other workers to
// the other projects. The lease ends with the invocation (released, or expired if the worker died).
import type { Deps, ReplayMessage } from '../ports';

/** The leases' scope in the table. */
export const WORKER_SHARE_SCOPE = 'replay-workers';
/** How long requeued messages stay invisible: a random delay in this range, so they do not come back together. */
export const REQUEUE_DELAY_SECONDS = { min: 20, max: 60 } as const;

export interface ShareOptions {
  /** Worker invocations a project may hold at once; 0 = no share (every message runs). */
  slots: number;
  /** The invocation taking the leases (its request id). */
  holder: string;
  /** When the invocation's leases end at the latest (epoch ms): its deadline plus the time to end its runs. */
  until: number;
}

/**
 * What a worker invocation may run: the projects it holds a slot for; the projects whose messages it sent back to the
 * queue (not run now), and those whose messages could not be sent back (to report failed: the queue redelivers them).
 */
export interface ShareDecision {
  granted: Map<string, number>;
  requeued: Set<string>;
  unsent: Set<string>;
}

/**
 * Takes one slot per project among `messages`; the messages of a project with no free slot go back to the queue
 * delayed. A lease that cannot be taken because the table failed lets the messages run (the share is for fairness,
 * not a security bound: losing it for one invocation costs less than failing the runs).
 */
export async function takeShares(deps: Deps, messages: readonly ReplayMessage[], o: ShareOptions): Promise<ShareDecision> {
  const decision: ShareDecision = { granted: new Map(), requeued: new Set(), unsent: new Set() };
  if (o.slots <= 0) return decision;
  const projects = [...new Set(messages.map((m) => m.project_id))];
  const refused = new Set<string>();
  await Promise.all(
    projects.map(async (projectId) => {
      const slot = await deps.leases.acquire(projectId, WORKER_SHARE_SCOPE, o.slots, o.holder, deps.clock.now().getTime(), o.until).catch(() => -1);
      if (slot === null) refused.add(projectId);
      else if (slot >= 0) decision.granted.set(projectId, slot);
    }),
  );
  if (refused.size === 0) return decision;
  const { min, max } = REQUEUE_DELAY_SECONDS;
  const back = messages.filter((m) => refused.has(m.project_id));
  try {
    await deps.queue.sendReplay(back, { delaySeconds: min + Math.floor(Math.random() * (max - min + 1)) });
    decision.requeued = refused;
  } catch {
    decision.unsent = refused;
  }
  return decision;
}

/** Frees the slots an invocation took (a failure is left to the lease's expiry). */
export async function releaseShares(deps: Deps, decision: ShareDecision, holder: string): Promise<void> {
  await Promise.all(
    [...decision.granted].map(([projectId, slot]) => deps.leases.release(projectId, WORKER_SHARE_SCOPE, slot, holder).catch(() => undefined)),
  );
}

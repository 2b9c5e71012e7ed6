// One delivery's share of a fanned-out run (docs/campaigns-and-replay.md#long-runs-fanned-out): how many deliveries
// a run spreads over and how many attempts each runs at once, which attempts this one takes (claimed, in its own
// order), whether it may still start one before its deadline, and the messages it leaves for the rest: the fan-out
// parts, a hand-off (time ran short, or the limits ask for a long wait), or a sweep (other deliveries hold claims).
import { randomUUID } from 'node:crypto';
import type { Campaign } from '../../campaigns/schema';
import type { LeasesRepo, QueuePort, ReplayMessage } from '../../ports';
import type { AttemptRecord } from '../../runs/types';
import { RUN_DEADLINE_EXCEEDED } from '../deadline';
import type { PlannedAttempt } from '../types';
import { attemptClaims, type AttemptClaims } from './claims';

/** Attempts one delivery runs at once, at least (the executor's default). */
export const BASE_CONCURRENCY = 4;
/** Most deliveries a run spreads over: a larger max_concurrency raises each delivery's concurrency instead. */
export const MAX_DELIVERIES = 10;
/** Most attempts one delivery runs at once. */
export const MAX_PER_DELIVERY = 50;
/** A claim's lease when the worker sets none: a dead delivery's attempts are run again this long after it died. */
export const DEFAULT_CLAIM_LEASE_MS = 30_000;
/**
 * Attempts started this early in a delivery (or within the first tenth of its budget, if shorter) always start, and
 * one cut there by the deadline is stored as run_deadline_exceeded (it cannot fit any delivery); one started later
 * and cut is handed on and run again.
 */
export const START_GRACE_MS = 10_000;
/** A wait for a turn under the limits longer than this hands the attempt on with a queue delay instead of sleeping. */
export const HAND_OFF_WAIT_MS = 30_000;
/** The least time between two reads of the stored attempts by one delivery, ms. */
const REFRESH_MS = 2000;
/** SQS's longest message delay, s. */
export const MAX_DELAY_S = 900;
/** The attempt bound of a target without timeout_ms (the longest default of the targets'). */
const DEFAULT_TIMEOUT_MS = 60_000;

export interface FanOutSize {
  deliveries: number;
  perDelivery: number;
}

/**
 * Deliveries and per-delivery concurrency for `attempts` attempts: as many attempts at once as the target's
 * max_concurrency lets run (else BASE_CONCURRENCY), spread over at most MAX_DELIVERIES deliveries.
 */
export function fanOutSize(attempts: number, maxConcurrency: number | undefined): FanOutSize {
  const parallel = Math.max(1, Math.min(attempts, maxConcurrency ?? BASE_CONCURRENCY));
  const perDelivery = Math.min(MAX_PER_DELIVERY, Math.max(BASE_CONCURRENCY, Math.ceil(parallel / MAX_DELIVERIES)));
  return { deliveries: Math.ceil(parallel / perDelivery), perDelivery };
}

/** The longest one attempt of the target may take as far as the campaign says: its request timeout. */
export function attemptBoundMs(target: Campaign['target']): number {
  if (target.type === 'recorded') return 0;
  const t = (target as { timeout_ms?: unknown }).timeout_ms;
  return typeof t === 'number' && t > 0 ? t : DEFAULT_TIMEOUT_MS;
}

export interface DeliveryOptions {
  leases: LeasesRepo;
  queue: QueuePort;
  msg: ReplayMessage;
  campaign: Pick<Campaign, 'target'>;
  planLength: number;
  /** This delivery moved the run out of `queued`: no other delivery has run any of it. */
  fresh: boolean;
  /** This delivery's time budget, ms, and what is left of it. */
  budgetMs: number;
  remainingMs: () => number;
  claimLeaseMs?: number;
  /** The attempt numbers stored so far (read when a claim is refused, so a delivery stops asking for stored ones). */
  storedAttempts: () => Promise<number[]>;
  holder?: string;
  now?: () => number;
}

export interface Delivery {
  readonly size: FanOutSize;
  /** Whether attempts are claimed (not for a fresh run's only delivery: nobody else runs it). */
  readonly claimed: boolean;
  /** Sends the run's other fan-out parts (from the message that queued the run only). */
  fanOut(): Promise<void>;
  /** The missing attempts in this delivery's order: each part starts at its own offset, so parts rarely collide. */
  order(missing: PlannedAttempt[]): PlannedAttempt[];
  /** Whether the attempt starts here: time left for it and not paused by the limits, and claimed. */
  begin(attempt: number): Promise<boolean>;
  /**
   * An attempt ended: true to store it; false when it is handed on instead (cut by the deadline after a late start,
   * or sent back by the limits before its first request), its claim given back.
   */
  ended(record: AttemptRecord, startedAt: number, handOffMs: number | null): Promise<boolean>;
  /** The attempt is stored. */
  stored(attempt: number): Promise<void>;
  /**
   * The run still has attempts not stored: leaves the message that finishes it, a hand-off when this delivery left
   * some unstarted (after the limits' wait when they asked for one), else a sweep once the others' claims could
   * have ended (a dead delivery's attempts are then claimed again).
   */
  leaveRest(): Promise<'handed-off' | 'sweep'>;
  /** Gives back every claim still held. */
  dispose(): Promise<void>;
}

export function startDelivery(o: DeliveryOptions): Delivery {
  const now = o.now ?? Date.now;
  const startedAt = now();
  const grace = Math.min(START_GRACE_MS, o.budgetMs / 10);
  const target = o.campaign.target;
  const limits = target.type === 'recorded' ? undefined : target.limits;
  const size = fanOutSize(o.planLength, limits?.max_concurrency);
  const part = o.msg.part ?? 0;
  const leaseMs = o.claimLeaseMs ?? DEFAULT_CLAIM_LEASE_MS;
  const claimed = !(o.fresh && size.deliveries === 1);
  const claims: AttemptClaims | null = claimed
    ? attemptClaims({ leases: o.leases, projectId: o.msg.project_id, runId: o.msg.run_id, holder: o.holder ?? randomUUID(), leaseMs, now })
    : null;
  let longest = attemptBoundMs(target);
  // Attempts another delivery stored: skipped without asking for their claim. Refreshed at most once a REFRESH_MS.
  const known = new Set<number>();
  let refreshed = 0;
  let refreshing: Promise<void> | undefined;
  const refresh = () => {
    if (refreshing || now() - refreshed < REFRESH_MS) return refreshing;
    refreshing = o
      .storedAttempts()
      .then((ns) => ns.forEach((n) => known.add(n)))
      .catch(() => undefined)
      .finally(() => {
        refreshed = now();
        refreshing = undefined;
      });
    return refreshing;
  };
  let left = false;
  let pausedUntil = 0;
  const send = (parts: number[], delaySeconds = 0) =>
    o.queue.sendReplay(
      parts.map((p) => ({ project_id: o.msg.project_id, run_id: o.msg.run_id, part: p })),
      delaySeconds > 0 ? { delaySeconds: Math.min(MAX_DELAY_S, Math.ceil(delaySeconds)) } : {},
    );
  const giveBack = async (attempt: number) => {
    left = true;
    await claims?.release(attempt);
  };
  return {
    size,
    claimed,
    async fanOut() {
      if (o.msg.part !== undefined || size.deliveries < 2) return;
      await send(Array.from({ length: size.deliveries - 1 }, (_, i) => i + 1));
    },
    order(missing) {
      const offset = (part % size.deliveries) * Math.ceil(missing.length / size.deliveries);
      return [...missing.slice(offset), ...missing.slice(0, offset)];
    },
    async begin(attempt) {
      const elapsed = now() - startedAt;
      if (now() < pausedUntil || (elapsed >= grace && o.remainingMs() < longest)) {
        left = true;
        return false;
      }
      if (!claims) return true;
      if (known.has(attempt)) return false;
      if (await claims.take(attempt)) return true;
      await refresh();
      return false;
    },
    async ended(record, attemptStart, handOffMs) {
      if (handOffMs !== null) {
        pausedUntil = Math.max(pausedUntil, now() + handOffMs);
        await giveBack(record.attempt);
        return false;
      }
      if (record.error_code === RUN_DEADLINE_EXCEEDED && attemptStart - startedAt >= grace) {
        await giveBack(record.attempt);
        return false;
      }
      longest = Math.max(longest, record.duration_ms + (record.throttled_ms ?? 0));
      return true;
    },
    async stored(attempt) {
      await claims?.stored(attempt);
    },
    async leaveRest() {
      const next = part + size.deliveries;
      if (left) {
        await send([next], Math.max(0, pausedUntil - now()) / 1000);
        return 'handed-off';
      }
      await send([next], leaseMs / 1000 + 1);
      return 'sweep';
    },
    async dispose() {
      await claims?.releaseAll();
    },
  };
}

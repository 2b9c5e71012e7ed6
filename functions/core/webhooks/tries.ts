// The tries of one delivery (docs/webhooks.md#delivery-policy-retries-and-last_error): signed POSTs with up to 3
// retries, the webhook re-read before each retry, then the webhook's status (last_error or last_delivery_at). Fan-out,
// resend, recover and test share it.
import { isoMicros } from '../time';
import type { Clock } from '../time';
import type { DeliveryLogRepo, HttpSender, WebhooksRepo } from '../ports';
import { tries } from '../retry';
import {
  DELIVERY_TIMEOUT_MS,
  LAST_DELIVERY_RESOLUTION_MS,
  RETRY_DELAYS_MS,
  USER_AGENT,
  epochSeconds,
  httpStatusError,
  isSuccessStatus,
  sendErrorText,
} from './delivery-policy';
import type { DeliveryAttempt, DeliveryOutcome, WebhookRecord } from './schema';
import { deliveryHeaders } from './signing';

export interface DeliveryDeps {
  webhooks: WebhooksRepo;
  deliveryLog: DeliveryLogRepo;
  send: HttpSender;
  sleep: (ms: number) => Promise<void>;
  clock: Clock;
  uuid: () => string;
  /** Where bookkeeping failures are reported (they do not fail the delivery: the receiver already has it). */
  logError?: (message: string, extra: Record<string, unknown>) => void;
}

export interface TryPlan {
  projectId: string;
  webhookId: string;
  deliveryId: string;
  eventType: string;
  body: string;
  /** The webhook as read for the first try (each retry re-reads it). */
  first: WebhookRecord;
  /** Whether the webhook, as read before a try, still takes this delivery (paused, unsubscribed: no more tries). */
  accepts: (w: WebhookRecord) => boolean;
}

export interface TryResult {
  /** `skipped`: the webhook stopped taking the delivery (or was deleted) before a try. */
  outcome: DeliveryOutcome;
  attempts: DeliveryAttempt[];
  /** The status of the successful try (0 otherwise). */
  okStatus: number;
  /** The webhook as last read. */
  lastSeen: WebhookRecord;
  lastError?: string;
}

/** Runs the tries of one delivery. Never throws for the receiver's failures; a failed re-read ends it as failed. */
export async function runTries(deps: DeliveryDeps, plan: TryPlan): Promise<TryResult> {
  const attempts: DeliveryAttempt[] = [];
  let outcome: DeliveryOutcome = 'failed';
  let okStatus = 0;
  let lastSeen = plan.first;

  for await (const i of tries(RETRY_DELAYS_MS, deps.sleep)) {
    // Fresh state for every try: the first uses the webhook read for this very delivery (a few milliseconds old),
    // each retry re-reads, so a rotation signs the next try and a pause or delete stops retries.
    let current: WebhookRecord | null = plan.first;
    try {
      if (i > 0) current = await deps.webhooks.get(plan.projectId, plan.webhookId);
    } catch (err) {
      // A try has been sent already, so the claim stands; the delivery ends failed with what it has.
      deps.logError?.('webhook read failed between delivery tries', { webhookId: plan.webhookId, deliveryId: plan.deliveryId, error: String(err) });
      break;
    }
    if (!current || !plan.accepts(current)) {
      outcome = 'skipped';
      break;
    }
    lastSeen = current;
    const at = deps.clock.now();
    try {
      const res = await deps.send({
        url: current.url,
        method: 'POST',
        headers: deliveryHeaders({
          eventType: plan.eventType,
          deliveryId: plan.deliveryId,
          webhookId: plan.webhookId,
          body: plan.body,
          // Rotation replaces the secret at once (no overlap), so the current secret is the only valid one.
          secrets: [current.secret],
          timestamp: epochSeconds(at),
          userAgent: USER_AGENT,
        }),
        body: plan.body,
        timeoutMs: DELIVERY_TIMEOUT_MS,
      });
      const ok = isSuccessStatus(res.status);
      attempts.push({ at: isoMicros(at), status_code: res.status, error: ok ? null : httpStatusError(res.status), duration_ms: elapsed(deps, at) });
      if (ok) {
        outcome = 'succeeded';
        okStatus = res.status;
        break;
      }
    } catch (err) {
      attempts.push({ at: isoMicros(at), status_code: null, error: sendErrorText(err), duration_ms: elapsed(deps, at) });
    }
  }
  const lastError = outcome === 'failed' ? (attempts[attempts.length - 1]?.error ?? undefined) : undefined;
  return { outcome, attempts, okStatus, lastSeen, ...(lastError ? { lastError } : {}) };
}

/**
 * The webhook's status after a delivery: a success clears last_error and sets last_delivery_at/last_status (unless
 * that would only move last_delivery_at by under its resolution); a failure after every try sets last_error. A
 * skipped delivery (paused or deleted mid-retry) did not exhaust its retries: last_error stays as it was.
 */
export async function recordStatus(deps: DeliveryDeps, projectId: string, webhookId: string, result: TryResult, now: Date): Promise<void> {
  if (result.outcome === 'succeeded' && !alreadyRecorded(result.lastSeen, result.okStatus, now)) {
    await deps.webhooks.recordSuccess(projectId, webhookId, isoMicros(now), result.okStatus);
  }
  if (result.outcome === 'failed' && result.lastError) await deps.webhooks.recordFailure(projectId, webhookId, isoMicros(now), result.lastError);
}

/** Runs bookkeeping that must not fail a delivery: the receiver already has it (or was refused) and the claim stands. */
export async function bookkeep(deps: DeliveryDeps, fn: () => Promise<void>, extra: Record<string, unknown>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    deps.logError?.('recording a webhook delivery failed', { ...extra, error: String(err) });
  }
}

/** True when recording this success would change nothing but move last_delivery_at by under its resolution. */
function alreadyRecorded(w: WebhookRecord, status: number, now: Date): boolean {
  if (w.last_error || w.last_status !== status || !w.last_delivery_at) return false;
  const age = now.getTime() - Date.parse(w.last_delivery_at);
  return age >= 0 && age < LAST_DELIVERY_RESOLUTION_MS;
}

function elapsed(deps: DeliveryDeps, since: Date): number {
  return Math.max(0, deps.clock.now().getTime() - since.getTime());
}

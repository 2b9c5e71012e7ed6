// Delivers one bus event to every subscribed webhook: dedup claim, signed POST, up to 3 retries, log and status.
import type { BusEvent } from '../events';
import { isoMicros, type Clock } from '../time';
import type { HttpSender, WebhooksRepo } from '../../ports';
import { tries } from '../retry';
import { recipients, subscribesTo } from './matching';
import {
  DELIVERY_LOG_TTL_S,
  DELIVERY_TIMEOUT_MS,
  LAST_DELIVERY_RESOLUTION_MS,
  RETRY_DELAYS_MS,
  USER_AGENT,
  epochSeconds,
  httpStatusError,
  isSuccessStatus,
  sendErrorText,
} from './policy';
import type { DeliveryAttempt, DeliveryOutcome, WebhookRecord } from './schema';
import { SIGNATURE_HEADER, deliveryBody, signPayload } from './signing';

export interface DeliveryDeps {
  webhooks: WebhooksRepo;
  send: HttpSender;
  sleep: (ms: number) => Promise<void>;
  clock: Clock;
  uuid: () => string;
  /** Where bookkeeping failures are reported (they do not fail the delivery: the receiver already has it). */
  logError?: (message: string, extra: Record<string, unknown>) => void;
}

/** What happened for one webhook. `duplicate`: the event had already been claimed for it (bus or function retry). */
export interface WebhookDeliveryResult {
  webhook_id: string;
  outcome: DeliveryOutcome | 'duplicate';
  delivery_id?: string;
  tries: number;
  last_error?: string;
}

export interface FanoutReport {
  event_id: string;
  event_type: string;
  results: WebhookDeliveryResult[];
}
export { realSleep } from '../retry';

/**
 * Fans one bus event out to the project's enabled, subscribed webhooks, all in parallel so a slow endpoint
 * never delays another. Throws when the webhooks cannot be listed, or (after every webhook has been handled) when
 * some could not be claimed, so the bus retries; webhooks already claimed are then skipped as duplicates.
 */
export async function deliverEvent(deps: DeliveryDeps, event: BusEvent): Promise<FanoutReport> {
  const { envelope } = event;
  const all = await deps.webhooks.listAll(envelope.project_id);
  const targets = recipients(all, envelope.event_type);
  const settled = await Promise.allSettled(targets.map((w) => deliverToWebhook(deps, w, event)));
  const results: WebhookDeliveryResult[] = [];
  const failures: unknown[] = [];
  for (const s of settled) {
    if (s.status === 'fulfilled') results.push(s.value);
    else failures.push(s.reason);
  }
  if (failures.length) {
    const first = failures[0] as Error;
    throw new Error(
      `webhook fan-out of event ${event.id}: ${failures.length} of ${targets.length} webhooks not attempted (${first?.message ?? first}); the bus will retry`,
      {
        cause: first,
      },
    );
  }
  return { event_id: event.id, event_type: envelope.event_type, results };
}

/**
 * One webhook: claim the (webhook, bus event) pair first, so a redelivered event is never sent twice. A claim is
 * kept even when every try fails: the outcome is in the delivery log and last_error, and SPEC 9 promises at most
 * one delivery per webhook. Storage failing before the claim means nothing was sent: that rejects, for a bus retry.
 */
export async function deliverToWebhook(deps: DeliveryDeps, listed: WebhookRecord, event: BusEvent): Promise<WebhookDeliveryResult> {
  const { envelope } = event;
  const projectId = envelope.project_id;
  const webhookId = listed.webhook_id;
  const startedAt = deps.clock.now();
  const deliveryId = deps.uuid();
  const claimed = await deps.webhooks.claimDelivery(webhookId, event.id, epochSeconds(startedAt) + DELIVERY_LOG_TTL_S, deliveryId);
  if (!claimed) return { webhook_id: webhookId, outcome: 'duplicate', tries: 0 };

  const body = deliveryBody(envelope);
  const attempts: DeliveryAttempt[] = [];
  let outcome: DeliveryOutcome = 'failed';
  let okStatus = 0;
  let lastSeen: WebhookRecord = listed;

  for await (const i of tries(RETRY_DELAYS_MS, deps.sleep)) {
    // Fresh state for every try: the first uses the strongly consistent listing made for this very event (a few
    // milliseconds old), each retry re-reads, so a rotation signs the next try and a pause or delete stops retries.
    let current: WebhookRecord | null = listed;
    try {
      if (i > 0) current = await deps.webhooks.get(projectId, webhookId);
    } catch (err) {
      // A try has been sent already, so the claim stands; the delivery ends failed with what it has.
      deps.logError?.('webhook read failed between delivery tries', { webhookId, deliveryId, error: String(err) });
      break;
    }
    if (!current?.is_enabled || !subscribesTo(current.events, envelope.event_type)) {
      outcome = 'skipped';
      break;
    }
    lastSeen = current;
    const at = deps.clock.now();
    try {
      const res = await deps.send({
        url: current.url,
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': USER_AGENT,
          'X-Service-Event': envelope.event_type,
          'X-Service-Delivery': deliveryId,
          'X-Service-Webhook-Id': webhookId,
          [SIGNATURE_HEADER]: signPayload(body, current.secret),
        },
        body,
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
  await bookkeep(
    deps,
    async () => {
      const now = deps.clock.now();
      await deps.webhooks.putDelivery(
        projectId,
        webhookId,
        { delivery_id: deliveryId, event_type: envelope.event_type, created_at: isoMicros(startedAt), outcome, attempts },
        epochSeconds(now) + DELIVERY_LOG_TTL_S,
      );
      if (outcome === 'succeeded' && !alreadyRecorded(lastSeen, okStatus, now)) {
        await deps.webhooks.recordSuccess(projectId, webhookId, isoMicros(now), okStatus);
      }
      // A skipped delivery (paused or deleted mid-retry) did not exhaust its retries: last_error stays as it was.
      if (outcome === 'failed' && lastError) await deps.webhooks.recordFailure(projectId, webhookId, isoMicros(now), lastError);
    },
    { webhookId, deliveryId },
  );

  return { webhook_id: webhookId, outcome, delivery_id: deliveryId, tries: attempts.length, ...(lastError ? { last_error: lastError } : {}) };
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

async function bookkeep(deps: DeliveryDeps, fn: () => Promise<void>, extra: Record<string, unknown>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    // The receiver already has (or was refused) the delivery and the claim stands, so a bus retry could not repair this.
    deps.logError?.('recording a webhook delivery failed', { ...extra, error: String(err) });
  }
}

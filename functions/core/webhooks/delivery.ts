// Delivers one bus event to every subscribed webhook: the event kept for resend, a dedup claim, the tries, log and status.
import type { BusEvent, DeliveredEventType } from '../events';
import { isoMicros } from '../time';
import { recipients, subscribesTo } from './matching';
import { DELIVERY_LOG_TTL_S, KEPT_EVENT_TTL_S, epochSeconds } from './delivery-policy';
import type { DeliveryOutcome, WebhookRecord } from './schema';
import { bookkeep, recordStatus, runTries, type DeliveryDeps } from './tries';
import { deliveryBody } from './signing';

export type { DeliveryDeps } from './tries';
export { realSleep } from '../retry';

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

/** One event as a webhook receives it: its dedup id, owner, type and the exact body bytes. */
export interface EventToDeliver {
  eventId: string;
  projectId: string;
  eventType: DeliveredEventType;
  body: string;
}

/**
 * Fans one bus event out to the project's enabled, subscribed webhooks, all in parallel so a slow endpoint
 * never delays another. Throws when the webhooks cannot be listed or the event cannot be kept, or (after every webhook
 * has been handled) when some could not be claimed, so the bus retries; webhooks already claimed are then skipped as
 * duplicates.
 */
export async function deliverEvent(deps: DeliveryDeps, event: BusEvent): Promise<FanoutReport> {
  const { envelope } = event;
  const all = await deps.webhooks.listAll(envelope.project_id);
  const targets = recipients(all, envelope.event_type);
  // No subscriber: nothing to keep, claim or sign (the signed body is built only for an event someone receives).
  if (targets.length === 0) return { event_id: event.id, event_type: envelope.event_type, results: [] };
  const toDeliver: EventToDeliver = {
    eventId: event.id,
    projectId: envelope.project_id,
    eventType: envelope.event_type,
    body: deliveryBody(envelope),
  };
  // Kept before any claim, so every logged delivery can be sent again (resend, recover) for as long as its entry lives.
  const expiresAt = epochSeconds(deps.clock.now()) + KEPT_EVENT_TTL_S;
  await deps.deliveryLog.putEvent(toDeliver.projectId, toDeliver.eventId, { event_type: envelope.event_type, body: toDeliver.body }, expiresAt);
  const settled = await Promise.allSettled(targets.map((w) => deliverToWebhook(deps, w, toDeliver)));
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
 * The first delivery of an event to one webhook: claim the (webhook, event) pair first, so a redelivered event is
 * never sent twice. A claim is kept even when every try fails: the outcome is in the delivery log and last_error, and
 * a bus event is delivered at most once per webhook (docs/webhooks.md#delivery-policy-retries-and-last_error); resend
 * and recover are the way to send it again. Storage failing before the claim means nothing was sent: that rejects,
 * for a bus retry.
 *
 * `accepts` decides, before every try, whether the webhook still takes the event: by default it must be enabled and
 * subscribed; the test event goes to any webhook that still exists. `deliveryId` fixes the delivery id in advance.
 */
export async function deliverToWebhook(
  deps: DeliveryDeps,
  listed: WebhookRecord,
  event: EventToDeliver,
  opts: { deliveryId?: string; accepts?: (w: WebhookRecord) => boolean } = {},
): Promise<WebhookDeliveryResult> {
  const { projectId, eventType } = event;
  const webhookId = listed.webhook_id;
  const startedAt = deps.clock.now();
  const deliveryId = opts.deliveryId ?? deps.uuid();
  const claimed = await deps.deliveryLog.claimDelivery(webhookId, event.eventId, epochSeconds(startedAt) + DELIVERY_LOG_TTL_S, deliveryId);
  if (!claimed) return { webhook_id: webhookId, outcome: 'duplicate', tries: 0 };

  const result = await runTries(deps, {
    projectId,
    webhookId,
    deliveryId,
    eventType,
    body: event.body,
    first: listed,
    accepts: opts.accepts ?? ((w) => w.is_enabled && subscribesTo(w.events, eventType)),
  });

  await bookkeep(
    deps,
    async () => {
      const now = deps.clock.now();
      await deps.deliveryLog.putDelivery(
        projectId,
        webhookId,
        {
          delivery_id: deliveryId,
          event_type: eventType,
          created_at: isoMicros(startedAt),
          outcome: result.outcome,
          attempts: result.attempts,
        },
        epochSeconds(now) + DELIVERY_LOG_TTL_S,
        event.eventId,
      );
      await recordStatus(deps, projectId, webhookId, result, now);
    },
    { webhookId, deliveryId },
  );

  return {
    webhook_id: webhookId,
    outcome: result.outcome,
    delivery_id: deliveryId,
    tries: result.attempts.length,
    ...(result.lastError ? { last_error: result.lastError } : {}),
  };
}

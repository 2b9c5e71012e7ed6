// EventBridge target: signs and delivers each project event to the project's subscribed webhooks, and runs the
// resend, recover and test commands the webhook routes put on the same bus (core/webhooks/commands.ts).
import type { Context, EventBridgeEvent } from 'aws-lambda';
import type { BusEvent } from '../core/events';
import { isDeliveryDeferred } from '../core/webhooks/deferral';
import type { DeliveryDeps, FanoutReport } from '../core/webhooks/delivery';
import { handleBusEvent } from '../core/webhooks/dispatch';
import { getDeps } from '../wiring/deps';
import '../wiring/with-http';
import { addLambdaContext, logger } from '../wiring/logger';
import { countMetric, flushMetrics } from '../wiring/metrics';
import '../wiring/with-tracing';

export type WebhookDeliveryHandler = (event: EventBridgeEvent<string, BusEvent>, context?: Context) => Promise<FanoutReport>;

/**
 * Builds the handler around its collaborators (repo, sender, sleep, clock, uuid), so tests can inject them.
 * The dedup id is the BusEvent's own `id` (stable across re-emission), else the EventBridge event id.
 * Throws when the event is malformed or storage failed before anything was sent, so EventBridge retries it.
 */
export function createWebhookDeliveryHandler(deps: DeliveryDeps): WebhookDeliveryHandler {
  return async (event) => {
    const detail = event?.detail as Partial<BusEvent> | undefined;
    const envelope = detail?.envelope;
    if (!envelope || typeof envelope.project_id !== 'string' || typeof envelope.event_type !== 'string') {
      throw new Error(`webhook delivery: event ${event?.id} carries no BusEvent envelope`);
    }
    const id = typeof detail.id === 'string' && detail.id !== '' ? detail.id : event.id;
    const report = await handleBusEvent(deps, { id, envelope });
    // Duplicates (already delivered for this bus event or command) and skips (paused or deleted) are not deliveries.
    for (const r of report.results) if (r.outcome === 'succeeded' || r.outcome === 'failed') countMetric('WebhookDeliveries', r.outcome);
    const failed = report.results.filter((r) => r.outcome === 'failed');
    // Failures are worth a line; a routine success is not (it is in the delivery log already).
    if (failed.length > 0) {
      logger.warn('webhook deliveries failed', {
        eventId: id,
        eventType: envelope.event_type,
        failed: failed.map((r) => ({ webhookId: r.webhook_id, deliveryId: r.delivery_id, lastError: r.last_error })),
      });
    } else {
      logger.debug('webhook fan-out done', { eventId: id, eventType: envelope.event_type, deliveries: report.results.length });
    }
    return report;
  };
}

/** The Lambda (and local bus) entry point, wired like every handler: getDeps() (DynamoDB, the SSRF-guarded sender). */
export const handler: WebhookDeliveryHandler = async (event, context) => {
  addLambdaContext(context);
  const deps = getDeps();
  const deliver = createWebhookDeliveryHandler({
    webhooks: deps.webhooks,
    deliveryLog: deps.deliveryLog,
    send: deps.http,
    sleep: deps.sleep,
    clock: deps.clock,
    uuid: deps.uuid,
    logError: (message, extra) => logger.error(message, extra),
  });
  try {
    return await deliver(event);
  } catch (err) {
    // A deferral is not a failure: counted apart, so the delivery function's error alarm can leave it out.
    if (isDeliveryDeferred(err)) {
      countMetric('WebhookDeliveries', 'deferred');
      logger.debug('webhook delivery deferred', { eventId: event?.id, reason: err.message });
    }
    throw err;
  } finally {
    flushMetrics();
  }
};

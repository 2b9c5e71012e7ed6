// Resend, recover and test (the routes under /v1/webhooks/{id}): checks, claims and the commands they queue for the
// delivery function (commands.ts), which makes the tries. The HTTP handlers call these.
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import { isUuid, isWebhookId } from '../ids';
import { isoMicros, type Clock } from '../time';
import type { DeliveryLogRepo, EventPublisher, RateLimitsRepo, WebhooksRepo } from '../ports';
import { takeSends } from './budget';
import { commandEvent, recoverClaimKey, type RedeliverCommand, type WebhookCommand } from './commands';
import { DELIVERY_LOG_TTL_S, KEPT_EVENT_TTL_S, MAX_RECOVER_PER_REQUEST, RECOVER_SKEW_MS, RECOVER_WINDOW_MS, epochSeconds } from './delivery-policy';
import { WEBHOOK_TEST_EVENT, type DeliveredEventType } from '../events';
import type { WebhookRecord } from './schema';
import { deliveryBody } from './signing';

export interface WebhookReplayDeps {
  webhooks: WebhooksRepo;
  deliveryLog: DeliveryLogRepo;
  events: EventPublisher;
  clock: Clock;
  uuid: () => string;
  /** The per-project send budget (budget.ts): what these routes queue counts against it. */
  rateLimits: RateLimitsRepo;
  /** Deliveries a project may queue with these routes per minute; default DEFAULT_SENDS_PER_MINUTE. */
  sendsPerMinute?: number;
}

/** The `data` of a webhook.test event. */
export const TEST_EVENT_MESSAGE = 'This is a test event sent by POST /v1/webhooks/{webhook_id}/test.';

/** Recover claims its entries this many at a time (conditional writes), in log order. */
const CLAIM_CONCURRENCY = 16;

export interface QueuedDelivery {
  webhook_id: string;
  delivery_id: string;
  event_type: DeliveredEventType;
}

/** Own webhook or 404 (malformed ids included). */
async function ownWebhook(deps: WebhookReplayDeps, projectId: string, webhookId: string): Promise<WebhookRecord> {
  const found = isWebhookId(webhookId) ? await deps.webhooks.get(projectId, webhookId) : null;
  if (!found) throw new NotFoundError('Webhook');
  return found;
}

function refusePaused(webhook: WebhookRecord): void {
  if (!webhook.is_enabled) {
    throw new ConflictError('The webhook is paused: resume it (PATCH is_enabled: true) before sending deliveries again.', 'webhook_paused');
  }
}

async function queue(deps: WebhookReplayDeps, projectId: string, commands: WebhookCommand[]): Promise<void> {
  const createdAt = isoMicros(deps.clock.now());
  await deps.events.publish(commands.map((c) => commandEvent(deps.uuid(), projectId, createdAt, c)));
}

/** POST /v1/webhooks/{id}/deliveries/{delivery_id}/resend: that event again, now, under the same delivery id. */
export async function resendDelivery(deps: WebhookReplayDeps, projectId: string, webhookId: string, deliveryId: string): Promise<QueuedDelivery> {
  const webhook = await ownWebhook(deps, projectId, webhookId);
  const nowEpoch = epochSeconds(deps.clock.now());
  const entry = isUuid(deliveryId) ? await deps.deliveryLog.getDelivery(projectId, webhookId, deliveryId, nowEpoch) : null;
  if (!entry) throw new NotFoundError('Delivery');
  refusePaused(webhook);
  if (!entry.event_id || !(await deps.deliveryLog.getEvent(projectId, entry.event_id, nowEpoch))) {
    throw new ConflictError(
      'The event of this delivery was not kept (it predates resend and recover), so it cannot be sent again.',
      'event_unavailable',
    );
  }
  await takeSends(deps, projectId, 1);
  await queue(deps, projectId, [{ kind: 'redeliver', webhook_id: webhookId, delivery_id: deliveryId }]);
  return { webhook_id: webhookId, delivery_id: deliveryId, event_type: entry.event_type };
}

/** The start of a recover window, or a 422 validation_error: not later than now, not more than 7 days ago. */
function recoverStart(since: string, now: Date): Date {
  const at = Date.parse(since);
  const problem = !Number.isFinite(at)
    ? 'must be an ISO 8601 timestamp'
    : at > now.getTime() + RECOVER_SKEW_MS
      ? 'must not be later than now'
      : at < now.getTime() - RECOVER_WINDOW_MS - RECOVER_SKEW_MS
        ? 'must be within the last 7 days (the delivery log keeps 7 days)'
        : null;
  if (problem) throw new ValidationError(`since ${problem}.`, [{ path: 'since', message: problem }]);
  return new Date(Math.max(at, now.getTime() - RECOVER_WINDOW_MS - RECOVER_SKEW_MS));
}

/**
 * POST /v1/webhooks/{id}/recover: every delivery that failed since `since` (oldest first, test events aside, at most
 * MAX_RECOVER_PER_REQUEST and what the project's send budget has left) is queued for one more delivery. Each is claimed first on (delivery, version), so two
 * recovers at once queue each failed delivery once between them; a later recover may queue it again only after that
 * redelivery has finished (and failed again). Returns how many this request queued.
 */
export async function recoverDeliveries(deps: WebhookReplayDeps, projectId: string, webhookId: string, since: string): Promise<{ queued: number }> {
  const now = deps.clock.now();
  const start = recoverStart(since, now);
  const webhook = await ownWebhook(deps, projectId, webhookId);
  refusePaused(webhook);
  const failed = await deps.deliveryLog.listFailedDeliveries(projectId, webhookId, isoMicros(start), epochSeconds(now));
  const candidates = failed.filter((e) => e.event_id !== null && e.event_type !== WEBHOOK_TEST_EVENT);
  // As many as the project's send budget has left this minute (429 when none); the next recover continues after them.
  const budget = candidates.length ? await takeSends(deps, projectId, Math.min(candidates.length, MAX_RECOVER_PER_REQUEST)) : 0;

  const holder = deps.uuid();
  const expiresAt = epochSeconds(now) + DELIVERY_LOG_TTL_S;
  // Indexes into `candidates` of the entries this recover claimed, in log order.
  const claimed: number[] = [];
  for (let i = 0; i < candidates.length && claimed.length < budget;) {
    const first = i;
    const chunk = candidates.slice(i, i + Math.min(CLAIM_CONCURRENCY, budget - claimed.length));
    i += chunk.length;
    const won = await Promise.all(
      chunk.map((e) => deps.deliveryLog.claimDelivery(webhookId, recoverClaimKey(e.delivery_id, e.version), expiresAt, holder)),
    );
    claimed.push(...chunk.flatMap((_, j) => (won[j] ? [first + j] : [])));
  }

  // Each waits for the failed delivery just before it in the log, whichever recover claimed that one: two recovers at
  // once split the entries between them, and the receiver still sees them oldest first.
  const commands: RedeliverCommand[] = claimed.map((c) => ({
    kind: 'redeliver',
    webhook_id: webhookId,
    delivery_id: candidates[c].delivery_id,
    claim: { key: recoverClaimKey(candidates[c].delivery_id, candidates[c].version), holder },
    ...(c > 0 ? { after: { delivery_id: candidates[c - 1].delivery_id, version: candidates[c - 1].version } } : {}),
  }));
  try {
    if (commands.length) await queue(deps, projectId, commands);
  } catch (err) {
    // Nothing may stay claimed for commands that never left: a retry of this request must find them again. A command
    // that did leave finds its claim gone or taken by the retry's, and then sends nothing (or re-takes a free one).
    await Promise.allSettled(
      claimed.map((c) => deps.deliveryLog.releaseClaim(webhookId, recoverClaimKey(candidates[c].delivery_id, candidates[c].version), holder)),
    );
    throw err;
  }
  return { queued: commands.length };
}

/**
 * POST /v1/webhooks/{id}/test: a webhook.test event to this webhook only, paused or not (checking a receiver before
 * resuming is the point), whatever it subscribes to. Logged, resendable, and it sets the status like any delivery.
 */
export async function sendTestEvent(deps: WebhookReplayDeps, projectId: string, webhookId: string): Promise<QueuedDelivery> {
  await ownWebhook(deps, projectId, webhookId);
  await takeSends(deps, projectId, 1);
  const now = deps.clock.now();
  const eventId = `${WEBHOOK_TEST_EVENT}:${deps.uuid()}`;
  const deliveryId = deps.uuid();
  const body = deliveryBody({
    event_type: WEBHOOK_TEST_EVENT,
    project_id: projectId,
    created_at: isoMicros(now),
    data: { webhook_id: webhookId, message: TEST_EVENT_MESSAGE },
  });
  await deps.deliveryLog.putEvent(projectId, eventId, { event_type: WEBHOOK_TEST_EVENT, body }, epochSeconds(now) + KEPT_EVENT_TTL_S);
  await queue(deps, projectId, [{ kind: 'send', webhook_id: webhookId, event_id: eventId, delivery_id: deliveryId }]);
  return { webhook_id: webhookId, delivery_id: deliveryId, event_type: WEBHOOK_TEST_EVENT };
}

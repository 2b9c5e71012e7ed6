// The dispatcher of every bus event the delivery function receives: a project event fans out to its webhooks
// (delivery.ts); a command (commands.ts) is the test event's first delivery, or the resend or recover of a logged
// delivery (its kept event, same delivery id, tries appended to its log entry).
import type { BusEvent } from '../events';
import { commandClaimKey, webhookCommandOf, type RedeliverCommand, type SendCommand, type WebhookCommand } from './commands';
import { DeliveryDeferredError } from './deferral';
import { deliverEvent, deliverToWebhook, type FanoutReport, type WebhookDeliveryResult } from './delivery';
import { DELIVERY_LOG_TTL_S, ORDER_POLL_MS, ORDER_WAIT_MS, epochSeconds } from './delivery-policy';
import { bookkeep, recordStatus, runTries, type DeliveryDeps } from './tries';

/** The delivery function's work for one bus event: a command, or the fan-out of a project event. */
export async function handleBusEvent(deps: DeliveryDeps, event: BusEvent): Promise<FanoutReport> {
  const command = webhookCommandOf(event);
  if (!command) return deliverEvent(deps, event);
  if (command.kind === 'redeliver' && command.after) await deferUntilPredecessorDone(deps, event, command.after);
  const result = await runCommand(deps, event.id, event.envelope.project_id, command);
  return { event_id: event.id, event_type: `${event.envelope.event_type}:${command.kind}`, results: [result] };
}

function runCommand(deps: DeliveryDeps, commandId: string, projectId: string, command: WebhookCommand): Promise<WebhookDeliveryResult> {
  return command.kind === 'send' ? sendKept(deps, projectId, command) : redeliver(deps, commandId, projectId, command);
}

const nothing = (webhookId: string, outcome: WebhookDeliveryResult['outcome'], deliveryId?: string): WebhookDeliveryResult => ({
  webhook_id: webhookId,
  outcome,
  tries: 0,
  ...(deliveryId ? { delivery_id: deliveryId } : {}),
});

/**
 * The test event: delivered like a first delivery (claimed on its event id, logged, status recorded) to the webhook,
 * paused or not and whatever it subscribes to: a user asked for it to check the receiver. Deletion still stops it.
 */
async function sendKept(deps: DeliveryDeps, projectId: string, command: SendCommand): Promise<WebhookDeliveryResult> {
  const webhook = await deps.webhooks.get(projectId, command.webhook_id);
  if (!webhook) return nothing(command.webhook_id, 'skipped', command.delivery_id);
  const kept = await deps.deliveryLog.getEvent(projectId, command.event_id, epochSeconds(deps.clock.now()));
  if (!kept) {
    deps.logError?.('the event of a webhook command is not kept', { webhookId: command.webhook_id, eventId: command.event_id });
    return nothing(command.webhook_id, 'skipped', command.delivery_id);
  }
  return deliverToWebhook(
    deps,
    webhook,
    { eventId: command.event_id, projectId, eventType: kept.event_type, body: kept.body },
    { deliveryId: command.delivery_id, accepts: () => true },
  );
}

/**
 * Resend or recover of one logged delivery. Runs once per command (a claim on the command id, so bus and function
 * retries do nothing), and for a recover only while its claim on (delivery, version) is still its own. Every run that
 * gets this far ends by incrementing the entry's version (with the tries it made), which frees the entry for a later
 * recover and lets the next delivery of the same recover go. A run that sent nothing also gives back its recover claim.
 */
async function redeliver(deps: DeliveryDeps, commandId: string, projectId: string, command: RedeliverCommand): Promise<WebhookDeliveryResult> {
  const { webhook_id: webhookId, delivery_id: deliveryId } = command;
  const expiresAt = epochSeconds(deps.clock.now()) + DELIVERY_LOG_TTL_S;
  const runner = deps.uuid();
  if (!(await deps.deliveryLog.claimDelivery(webhookId, commandClaimKey(commandId), expiresAt, runner))) {
    return nothing(webhookId, 'duplicate', deliveryId);
  }
  let prepared: Awaited<ReturnType<typeof prepare>>;
  try {
    prepared = await prepare(deps, projectId, command, expiresAt);
  } catch (err) {
    // Nothing was sent: give the command back so that the bus's retry runs it, instead of finding it claimed.
    await deps.deliveryLog.releaseClaim(webhookId, commandClaimKey(commandId), runner).catch(() => undefined);
    throw err;
  }
  if (prepared === 'taken') return nothing(webhookId, 'duplicate', deliveryId);
  const { webhook, entry, kept } = prepared;
  if (!webhook || !entry || !kept) {
    await bookkeep(deps, () => giveBack(deps, projectId, command, false), { webhookId, deliveryId });
    return nothing(webhookId, 'skipped', deliveryId);
  }

  const result = await runTries(deps, {
    projectId,
    webhookId,
    deliveryId,
    eventType: kept.event_type,
    body: kept.body,
    first: webhook,
    // An explicit resend goes whatever the webhook subscribes to now; a pause stops it (the route refuses paused ones).
    accepts: (w) => w.is_enabled,
  });
  const sent = result.attempts.length > 0;
  await bookkeep(
    deps,
    async () => {
      await giveBack(deps, projectId, command, sent, result);
      await recordStatus(deps, projectId, webhookId, result, deps.clock.now());
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

/** Everything a redelivery reads before its first try; 'taken' when a recover's claim is no longer this command's. */
async function prepare(deps: DeliveryDeps, projectId: string, command: RedeliverCommand, expiresAt: number) {
  const { webhook_id: webhookId, delivery_id: deliveryId } = command;
  if (command.claim && !(await deps.deliveryLog.claimDelivery(webhookId, command.claim.key, expiresAt, command.claim.holder))) return 'taken';
  const nowEpoch = epochSeconds(deps.clock.now());
  const webhook = await deps.webhooks.get(projectId, webhookId);
  const entry = webhook && (await deps.deliveryLog.getDelivery(projectId, webhookId, deliveryId, nowEpoch));
  const kept = entry?.event_id ? await deps.deliveryLog.getEvent(projectId, entry.event_id, nowEpoch) : null;
  return { webhook, entry, kept };
}

/**
 * Ends a redelivery in the log: its tries appended and the outcome they reached (none when nothing was sent), the
 * version incremented. Nothing sent: the recover claim is released too, so a later recover may queue the entry again
 * without any risk of a second copy.
 */
async function giveBack(
  deps: DeliveryDeps,
  projectId: string,
  command: RedeliverCommand,
  sent: boolean,
  result?: Awaited<ReturnType<typeof runTries>>,
): Promise<void> {
  const outcome = !sent || !result ? null : result.outcome === 'succeeded' ? 'succeeded' : 'failed';
  await deps.deliveryLog.recordRedelivery(projectId, command.webhook_id, command.delivery_id, { attempts: result?.attempts ?? [], outcome });
  if (!sent && command.claim) await deps.deliveryLog.releaseClaim(command.webhook_id, command.claim.key, command.claim.holder);
}

/**
 * Keeps a recover's order without holding a slot: while the failed delivery just before this one in the log (queued by
 * the same recover or by one at the same time) has not finished (its version has not moved on) and this command is
 * younger than ORDER_WAIT_MS, throws a DeliveryDeferredError before anything is claimed or sent, and the bus runs the
 * command again later. Past that age it goes anyway (a predecessor that takes so long is failing again), so a deferral never outlives the order it keeps.
 */
async function deferUntilPredecessorDone(deps: DeliveryDeps, event: BusEvent, after: { delivery_id: string; version: number }): Promise<void> {
  const { project_id: projectId } = event.envelope;
  const command = event.envelope.data as { webhook_id: string };
  const queuedAt = Date.parse(event.envelope.created_at);
  const now = deps.clock.now();
  if (!Number.isFinite(queuedAt) || now.getTime() - queuedAt >= ORDER_WAIT_MS) return;
  let pending: boolean;
  try {
    const before = await deps.deliveryLog.getDelivery(projectId, command.webhook_id, after.delivery_id, epochSeconds(now));
    pending = !!before && before.version <= after.version;
  } catch {
    return; // ordering is a courtesy; a failed read must not hold the delivery back
  }
  if (pending) {
    throw new DeliveryDeferredError(`delivery ${after.delivery_id}, queued before this one, is still being delivered`, ORDER_POLL_MS);
  }
}

// Webhook management (docs/webhooks.md#create-and-manage): create, list, get, patch, delete, rotate-secret,
// deliveries. The HTTP handlers call these.
import { NotFoundError, ValidationError } from '../errors';
import { isWebhookId, newWebhookId, newWebhookSecret, type IdGenerator } from '../ids';
import { isoMicros, type Clock } from '../time';
import type { DeliveryLogRepo, PageRequest, StorePage, WebhooksRepo } from '../ports';
import { epochSeconds } from './delivery-policy';
import { MAX_WEBHOOKS_PER_PROJECT, toView } from './view';
import type { DeliveryLogEntry, WebhookCreated, WebhookCreateInput, WebhookPatchInput, WebhookView } from './schema';

export interface WebhookServiceDeps {
  webhooks: WebhooksRepo;
  clock: Clock;
  /** Defaults: `wh_` + 24 lowercase alphanumerics, and `whsec_` + 32 random bytes in standard base64. */
  newWebhookId?: IdGenerator;
  newSecret?: IdGenerator;
}

const notFound = () => new NotFoundError('Webhook');

/** POST /v1/webhooks: stores the webhook and returns it with its secret, the only time besides rotation. */
export async function createWebhook(deps: WebhookServiceDeps, projectId: string, input: WebhookCreateInput): Promise<WebhookCreated> {
  const now = isoMicros(deps.clock.now());
  const record = {
    project_id: projectId,
    webhook_id: (deps.newWebhookId ?? newWebhookId)(),
    url: input.url,
    events: input.events,
    is_enabled: input.is_enabled,
    description: input.description ?? null,
    secret: (deps.newSecret ?? newWebhookSecret)(),
    created_at: now,
    updated_at: now,
    last_error: null,
    last_error_at: null,
    last_delivery_at: null,
    last_status: null,
  };
  const { created } = await deps.webhooks.create(record, MAX_WEBHOOKS_PER_PROJECT);
  if (!created) {
    throw new ValidationError(`A project may have at most ${MAX_WEBHOOKS_PER_PROJECT} webhooks; delete one first.`, [
      { message: `limit of ${MAX_WEBHOOKS_PER_PROJECT} webhooks per project reached`, limit: MAX_WEBHOOKS_PER_PROJECT },
    ]);
  }
  const { webhook_id, url, events, is_enabled, description, secret, created_at } = record;
  return { webhook_id, url, events, is_enabled, description, secret, created_at };
}

/** GET /v1/webhooks: newest first, without secrets. */
export async function listWebhooks(deps: WebhookServiceDeps, projectId: string, page: PageRequest): Promise<StorePage<WebhookView>> {
  const res = await deps.webhooks.list(projectId, page);
  return { items: res.items.map((element) => toView(element)), last: res.last };
}

/** GET /v1/webhooks/{id}: malformed and unknown ids are both 404. */
export async function getWebhook(deps: WebhookServiceDeps, projectId: string, webhookId: string): Promise<WebhookView> {
  if (!isWebhookId(webhookId)) throw notFound();
  const found = await deps.webhooks.get(projectId, webhookId);
  if (!found) throw notFound();
  return toView(found);
}

/** PATCH /v1/webhooks/{id}: changes any of url, events, is_enabled, description; pausing and resuming is this. */
export async function updateWebhook(deps: WebhookServiceDeps, projectId: string, webhookId: string, patch: WebhookPatchInput): Promise<WebhookView> {
  if (!isWebhookId(webhookId)) throw notFound();
  const updated = await deps.webhooks.update(projectId, webhookId, { ...patch, updated_at: isoMicros(deps.clock.now()) });
  if (!updated) throw notFound();
  return toView(updated);
}

/** DELETE /v1/webhooks/{id}: deliveries stop at once, retries in flight included (they re-read the webhook). */
export async function deleteWebhook(deps: WebhookServiceDeps, projectId: string, webhookId: string): Promise<void> {
  if (!isWebhookId(webhookId)) throw notFound();
  if (!(await deps.webhooks.delete(projectId, webhookId))) throw notFound();
}

/** POST /v1/webhooks/{id}/rotate-secret: the old secret stops signing immediately, retries in flight included. */
export async function rotateWebhookSecret(
  deps: WebhookServiceDeps,
  projectId: string,
  webhookId: string,
): Promise<{ webhook_id: string; secret: string }> {
  if (!isWebhookId(webhookId)) throw notFound();
  const secret = (deps.newSecret ?? newWebhookSecret)();
  if (!(await deps.webhooks.rotateSecret(projectId, webhookId, secret, isoMicros(deps.clock.now())))) throw notFound();
  return { webhook_id: webhookId, secret };
}

/** GET /v1/webhooks/{id}/deliveries: the last 7 days, newest first. */
export async function listWebhookDeliveries(
  deps: WebhookServiceDeps & { deliveryLog: DeliveryLogRepo },
  projectId: string,
  webhookId: string,
  page: PageRequest,
): Promise<StorePage<DeliveryLogEntry>> {
  if (!isWebhookId(webhookId)) throw notFound();
  if (!(await deps.webhooks.get(projectId, webhookId))) throw notFound();
  return deps.deliveryLog.listDeliveries(projectId, webhookId, page, epochSeconds(deps.clock.now()));
}

// The public view of a webhook (no secret) and its limit, free of zod so read routes stay small.
import type { WebhookRecord, WebhookView } from './schema';

/** Webhooks per project (docs/api.md#limits). */
export const MAX_WEBHOOKS_PER_PROJECT = 25;

export function toView(r: WebhookRecord): WebhookView {
  return {
    webhook_id: r.webhook_id,
    url: r.url,
    events: r.events,
    is_enabled: r.is_enabled,
    description: r.description ?? null,
    created_at: r.created_at,
    last_error: r.last_error ?? null,
    last_error_at: r.last_error_at ?? null,
    last_delivery_at: r.last_delivery_at ?? null,
    last_status: r.last_status ?? null,
  };
}

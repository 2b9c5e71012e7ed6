// The webhook rows of the route table (lib/routes.ts, which lists and re-exports them).
import type { RouteRow } from '../functions/core/route-row';
import { read, webhookCommand } from './route-bases';

export const POST_WEBHOOKS: RouteRow = {
  method: 'POST',
  path: '/v1/webhooks',
  handler: 'post-webhooks',
  auth: true,
  table: 'readwrite',
  status: 201,
  summary: 'Register a webhook (https only); the secret is returned once.',
  body: 'WebhookCreate',
  response: 'WebhookCreated',
  secretFields: ['secret'],
  errors: { 422: 'validation_error: also when the project already has 25 webhooks' },
};
export const LIST_WEBHOOKS = /* @__PURE__ */ read({
  path: '/v1/webhooks',
  handler: 'list-webhooks',
  summary: 'List webhooks (no secrets).',
  list: true,
  response: 'WebhookList',
});
export const GET_WEBHOOK = /* @__PURE__ */ read({
  path: '/v1/webhooks/{webhook_id}',
  handler: 'get-webhook',
  summary: 'A webhook (no secret) with its last delivery status.',
  response: 'Webhook',
});
export const PATCH_WEBHOOK: RouteRow = {
  method: 'PATCH',
  path: '/v1/webhooks/{webhook_id}',
  handler: 'patch-webhook',
  auth: true,
  table: 'readwrite',
  status: 200,
  summary: 'Update url, events, is_enabled (pause/resume) or description.',
  body: 'WebhookPatch',
  response: 'Webhook',
};
export const DELETE_WEBHOOK: RouteRow = {
  method: 'DELETE',
  path: '/v1/webhooks/{webhook_id}',
  handler: 'delete-webhook',
  auth: true,
  table: 'readwrite',
  status: 204,
  summary: 'Delete a webhook; deliveries stop at once.',
};
export const POST_WEBHOOK_ROTATE_SECRET: RouteRow = {
  method: 'POST',
  path: '/v1/webhooks/{webhook_id}/rotate-secret',
  handler: 'post-webhook-rotate-secret',
  auth: true,
  table: 'readwrite',
  status: 200,
  summary: 'Rotate the signing secret; the old one stops signing immediately.',
  response: 'WebhookSecret',
  secretFields: ['secret'],
};
export const GET_WEBHOOK_DELIVERIES = /* @__PURE__ */ read({
  path: '/v1/webhooks/{webhook_id}/deliveries',
  handler: 'get-webhook-deliveries',
  summary: 'Delivery log, newest first, kept 7 days.',
  list: true,
  response: 'DeliveryList',
});
export const POST_WEBHOOK_RESEND = /* @__PURE__ */ webhookCommand({
  path: '/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/resend',
  handler: 'post-webhook-resend',
  summary: "Send a logged delivery's event again now, same delivery id; 409 webhook_paused.",
  response: 'DeliveryQueued',
  errors: { 409: 'webhook_paused: resume the webhook first; event_unavailable: the event of this delivery was not kept' },
});
export const POST_WEBHOOK_RECOVER = /* @__PURE__ */ webhookCommand({
  path: '/v1/webhooks/{webhook_id}/recover',
  handler: 'post-webhook-recover',
  summary: 'Send every delivery that failed since `since` (within 7 days) once more, oldest first; 409 webhook_paused.',
  body: 'WebhookRecover',
  response: 'RecoverQueued',
  errors: { 409: 'webhook_paused: resume the webhook first' },
});
export const POST_WEBHOOK_TEST = /* @__PURE__ */ webhookCommand({
  path: '/v1/webhooks/{webhook_id}/test',
  handler: 'post-webhook-test',
  summary: 'Send a webhook.test event to this webhook only.',
  response: 'DeliveryQueued',
});

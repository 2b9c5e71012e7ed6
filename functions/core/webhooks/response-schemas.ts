// Response schemas of the webhook routes (docs/webhooks.md; for the OpenAPI document and tests, never imported
// by handlers).
import { EVENT_TYPES, WEBHOOK_TEST_EVENT } from '../events';
import { WEBHOOK_ID_PATTERN, count, page, timestamp, uuidOut } from '../openapi/response-blocks';
import { z } from '../openapi/zod';

const webhookId = z.string().regex(WEBHOOK_ID_PATTERN);
const events = z.array(z.enum([...EVENT_TYPES, '*'])).openapi({ description: 'Subscribed event types, or ["*"] for all.' });
const deliveredEventType = z.enum([...EVENT_TYPES, WEBHOOK_TEST_EVENT]);

const baseFields = {
  webhook_id: webhookId,
  url: z.string().openapi({ description: 'The https:// URL that receives the signed POSTs.' }),
  events,
  is_enabled: z.boolean().openapi({ description: 'false: paused (nothing is delivered, nothing queued for later).' }),
  description: z.string().nullable(),
  created_at: timestamp,
};

/**
 * The secret of the create and rotate answers: shown by the first answer only. An Idempotency-Key replay of that answer
 * carries null and `secret_withheld: true` (replay records keep no secret).
 */
const onceSecret = {
  secret: z.string().nullable().openapi({
    description:
      'whsec_ + base64 of 32 random bytes; returned once. null only in an Idempotency-Key replay (Idempotent-Replayed: true), which never holds the secret: rotate it to get a new one.',
  }),
  secret_withheld: z
    .literal(true)
    .optional()
    .openapi({ description: 'Present (true) only in an Idempotency-Key replay: the secret was shown by the first answer and is not kept.' }),
};

/** 201 of POST /v1/webhooks: the only answer besides rotation that shows the secret. */
export const webhookCreatedSchema = z.object({ ...baseFields, ...onceSecret }).openapi('WebhookCreated');

export const webhookSchema = z
  .object({
    ...baseFields,
    last_error: z.string().nullable().openapi({
      description: 'The last failure after all retries: "HTTP 500", "timeout after 5000 ms", "connection error: ECONNREFUSED", "blocked: ...".',
    }),
    last_error_at: timestamp.nullable(),
    last_delivery_at: timestamp.nullable(),
    last_status: z.number().int().nullable(),
  })
  .openapi('Webhook', { description: 'A webhook without its secret, with its last delivery status.' });

export const webhookListSchema = page(webhookSchema).openapi('WebhookList');

export const webhookSecretSchema = z.object({ webhook_id: webhookId, ...onceSecret }).openapi('WebhookSecret');

export const deliverySchema = z
  .object({
    delivery_id: uuidOut,
    event_type: deliveredEventType,
    created_at: timestamp,
    outcome: z.enum(['succeeded', 'failed', 'skipped']),
    attempts: z.array(z.object({ at: timestamp, status_code: z.number().int().nullable(), error: z.string().nullable(), duration_ms: count })),
  })
  .openapi('Delivery', { description: 'One delivery log entry (kept 7 days); resends and recoveries append their tries.' });

export const deliveryListSchema = page(deliverySchema).openapi('DeliveryList');

/** 202 of resend and test: the delivery queued (the same delivery id for a resend). */
export const deliveryQueuedSchema = z
  .object({ webhook_id: webhookId, delivery_id: uuidOut, event_type: deliveredEventType })
  .openapi('DeliveryQueued');

export const recoverQueuedSchema = z
  .object({ queued: count.openapi({ description: 'Failed deliveries queued for one more try by this request.' }) })
  .openapi('RecoverQueued');

// The body of POST /v1/webhooks/{id}/recover (docs/webhooks.md), apart from the webhook schemas so that the route
// checking it does not build the create and patch schemas when it loads (functions/core/webhooks/schema.ts).
import { openapi } from '../openapi/meta';
import * as z from '../openapi/zod-mini';

/** Body of POST /v1/webhooks/{id}/recover. The 7-day window is checked against the clock by the service. */
export const webhookRecoverSchema = openapi(
  z.object({
    since: openapi(z.iso.datetime({ offset: true }), {
      description: 'ISO 8601 timestamp within the last 7 days: failed deliveries created since then are sent again',
    }),
  }),
  { name: 'WebhookRecover' },
);
export type WebhookRecoverInput = z.output<typeof webhookRecoverSchema>;

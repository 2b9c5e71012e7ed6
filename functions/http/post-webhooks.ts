// POST /v1/webhooks: registers a webhook (https only); with rotation, the only response that shows the secret.
import { POST_WEBHOOKS } from '../../lib/routes';
import { webhookCreateSchema } from '../core/webhooks/schema';
import { createWebhook } from '../core/webhooks/service';
import { route } from '../http-chain/route';

export const handler = route(POST_WEBHOOKS, { body: webhookCreateSchema }, async ({ body, deps, projectId }) => ({
  status: 201,
  body: await createWebhook(deps, projectId, body),
}));

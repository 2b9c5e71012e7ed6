// PATCH /v1/webhooks/{webhook_id}: changes url, events, is_enabled (pause/resume) or description, with the create rules.
import { PATCH_WEBHOOK } from '../../lib/routes';
import { webhookPatchSchema } from '../core/webhooks/schema';
import { updateWebhook } from '../core/webhooks/service';
import { route } from '../http-chain/route';

export const handler = route(PATCH_WEBHOOK, { body: webhookPatchSchema }, async ({ body, deps, projectId, params }) => ({
  status: 200,
  body: await updateWebhook(deps, projectId, params.webhook_id, body),
}));

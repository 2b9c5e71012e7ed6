// POST /v1/webhooks/{webhook_id}/rotate-secret: a new secret, returned once; the old one stops signing immediately.
import { POST_WEBHOOK_ROTATE_SECRET } from '../../lib/routes';
import { rotateWebhookSecret } from '../core/webhooks/service';
import { route } from '../http-chain/route';

export const handler = route(POST_WEBHOOK_ROTATE_SECRET, async ({ deps, projectId, params }) => ({
  status: 200,
  body: await rotateWebhookSecret(deps, projectId, params.webhook_id),
}));

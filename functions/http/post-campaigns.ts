// POST /v1/campaigns: creates a campaign (secrets in the target are write-only).
import '../shared/with-bus';
import { campaignInputSchema } from '../core/campaigns/schema';
import { createCampaign } from '../core/campaigns/service';
import { route } from '../shared/http';

export const handler = route({ name: 'POST /v1/campaigns', body: campaignInputSchema }, async ({ body, deps, projectId }) => ({
  status: 201,
  body: await createCampaign(deps, projectId, body),
}));

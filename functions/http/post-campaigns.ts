// POST /v1/campaigns: creates a campaign (secrets in the target are write-only).
import { POST_CAMPAIGNS } from '../../lib/routes';
import { campaignInputSchema } from '../core/campaigns/schema';
import { createCampaign } from '../core/campaigns/service';
import { route } from '../http-chain/route';

export const handler = route(POST_CAMPAIGNS, { body: campaignInputSchema }, async ({ body, deps, projectId }) => ({
  status: 201,
  body: await createCampaign(deps, projectId, body),
}));

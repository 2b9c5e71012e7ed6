// PUT /v1/campaigns/{campaign_id}: replaces the definition (a new version, or nothing when it is the same); If-Match.
import { PUT_CAMPAIGN } from '../../lib/routes';
import { campaignInputSchema } from '../core/campaigns/schema';
import { updateCampaign } from '../core/campaigns/update';
import { campaignEtag, parseIfMatch } from '../core/campaigns/versions';
import { route } from '../http-chain/route';

export const handler = route(PUT_CAMPAIGN, { body: campaignInputSchema }, async ({ body, deps, headers, projectId, params }) => {
  const campaign = await updateCampaign(deps, projectId, params.campaign_id, body, parseIfMatch(headers['if-match']));
  return { status: 200, body: campaign, headers: { ETag: campaignEtag(campaign.version) } };
});

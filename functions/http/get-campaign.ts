// GET /v1/campaigns/{campaign_id}: one campaign (the current version, or ?version=n), secrets redacted; ETag: its version.
import { GET_CAMPAIGN } from '../../lib/routes';
import { getCampaign } from '../core/campaigns/service';
import { campaignEtag, parseVersionQuery } from '../core/campaigns/versions';
import { route } from '../http-chain/route';

export const handler = route(GET_CAMPAIGN, async ({ deps, projectId, params, query }) => {
  const campaign = await getCampaign(deps, projectId, params.campaign_id, parseVersionQuery(query.version));
  return { status: 200, body: campaign, headers: { ETag: campaignEtag(campaign.version) } };
});

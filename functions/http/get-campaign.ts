// GET /v1/campaigns/{campaign_id}: one campaign, secrets redacted.
import { GET_CAMPAIGN } from '../../lib/routes';
import { getCampaign } from '../core/campaigns/service';
import { route } from '../http-chain/route';

export const handler = route(GET_CAMPAIGN, async ({ deps, projectId, params }) => ({
  status: 200,
  body: await getCampaign(deps, projectId, params.campaign_id),
}));

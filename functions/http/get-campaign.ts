// GET /v1/campaigns/{campaign_id}: one campaign, secrets redacted.
import { getCampaign } from '../core/campaigns/service';
import { route } from '../shared/http';

export const handler = route({ name: 'GET /v1/campaigns/{campaign_id}', uuidParams: ['campaign_id'] }, async ({ deps, projectId, params }) => ({
  status: 200,
  body: await getCampaign(deps, projectId, params.campaign_id),
}));

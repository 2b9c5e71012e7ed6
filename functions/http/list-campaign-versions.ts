// GET /v1/campaigns/{campaign_id}/versions: the campaign's versions, newest first, with what each changed.
import { LIST_CAMPAIGN_VERSIONS } from '../../lib/routes';
import { listCampaignVersions } from '../core/campaigns/update';
import { encodeCursor } from '../http-chain/cursor';
import { pageRequest, route } from '../http-chain/route';

export const handler = route(LIST_CAMPAIGN_VERSIONS, async ({ deps, projectId, params, query }) => {
  const scope = `campaign-versions:${projectId}:${params.campaign_id}`;
  const res = await listCampaignVersions(deps, projectId, params.campaign_id, await pageRequest(deps, query, scope));
  return { status: 200, body: { items: res.items, next_cursor: await encodeCursor(deps, scope, res.last) } };
});

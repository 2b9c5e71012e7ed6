// GET /v1/campaigns: the project's campaigns, newest first, secrets redacted.
import { LIST_CAMPAIGNS } from '../../lib/routes';
import { listCampaigns } from '../core/campaigns/service';
import { encodeCursor } from '../http-chain/cursor';
import { pageRequest, route } from '../http-chain/route';

export const handler = route(LIST_CAMPAIGNS, async ({ deps, projectId, query }) => {
  const scope = `campaigns:${projectId}`;
  const res = await listCampaigns(deps, projectId, await pageRequest(deps, query, scope));
  return { status: 200, body: { items: res.items, next_cursor: await encodeCursor(deps, scope, res.last) } };
});

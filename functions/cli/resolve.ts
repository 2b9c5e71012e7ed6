// Campaigns named on the command line: by id, or by name (campaign names are not unique in the API: a name that two
// campaigns share is refused, with their ids).
import type { Campaign, RtsClient } from '../../packages/sdk/src/index';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a value looks like an rts id (a UUID). */
export const isUuid = (value: string): boolean => UUID.test(value);

/** A campaign reference the CLI could not resolve; commands print its message and exit 2. */
export class ResolveError extends Error {}

/** Every campaign of the project, newest first. */
export function allCampaigns(client: RtsClient): Promise<Campaign[]> {
  return client.allPages((cursor) => client.listCampaigns({ limit: 100, cursor }));
}

/** The campaigns of the project by name; a name that several campaigns share maps to all of them. */
export async function campaignsByName(client: RtsClient): Promise<Map<string, Campaign[]>> {
  const byName = new Map<string, Campaign[]>();
  for (const c of await allCampaigns(client)) byName.set(c.name, [...(byName.get(c.name) ?? []), c]);
  return byName;
}

/** The id of the campaign a reference names: a UUID is taken as an id, anything else as a name looked up in the project. */
export async function resolveCampaignId(client: RtsClient, ref: string): Promise<string> {
  if (isUuid(ref)) return ref.toLowerCase();
  const matches = (await campaignsByName(client)).get(ref) ?? [];
  if (matches.length === 1) return matches[0].campaign_id;
  if (matches.length === 0) throw new ResolveError(`no campaign named '${ref}' in this project (rts campaigns list shows them)`);
  throw new ResolveError(`${matches.length} campaigns are named '${ref}': use an id (${matches.map((c) => c.campaign_id).join(', ')})`);
}

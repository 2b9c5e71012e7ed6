// Public views of a campaign, free of zod so read paths stay small: secrets are write-only
// (docs/campaigns-and-replay.md#campaigns).
import type { Campaign, CampaignInput, Target } from './schema';
import { maskUrlSecrets } from './target-url';

/** The public view: header values and api_key are write-only, and credentials left in a URL are masked. */
export function redactCampaign(c: Campaign): Campaign {
  const target = { ...c.target } as Target;
  if (target.type === 'http' || target.type === 'mcp') target.url = maskUrlSecrets(target.url);
  if (target.type === 'openai') target.base_url = maskUrlSecrets(target.base_url);
  if ((target.type === 'http' || target.type === 'mcp') && target.headers) {
    target.headers = Object.fromEntries(Object.keys(target.headers).map((k) => [k, '***']));
  }
  if (target.type === 'openai' && target.api_key !== undefined) {
    (target as { api_key?: string }).api_key = '***';
  }
  const out: Campaign = { ...c, target };
  if (c.judge) out.judge = redactModel(c.judge);
  if (c.user_simulator) out.user_simulator = redactModel(c.user_simulator);
  return out;
}

/** A model rts calls itself (the judge, the user simulator): api_key and header values masked, URL credentials too. */
function redactModel<T extends { base_url: string; api_key?: string; headers?: Record<string, string> }>(m: T): T {
  const out = { ...m, base_url: maskUrlSecrets(m.base_url) };
  if (out.api_key !== undefined) out.api_key = '***';
  if (out.headers) out.headers = Object.fromEntries(Object.keys(out.headers).map((k) => [k, '***']));
  return out;
}

export function attemptsPerRun(c: Pick<CampaignInput, 'include_baseline' | 'mutations' | 'repeats'>): number {
  return ((c.include_baseline ? 1 : 0) + c.mutations.length) * c.repeats;
}

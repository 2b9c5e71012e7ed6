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
  if (!c.judge) return { ...c, target };
  const judge = { ...c.judge, base_url: maskUrlSecrets(c.judge.base_url) };
  if (judge.api_key !== undefined) judge.api_key = '***';
  if (judge.headers) judge.headers = Object.fromEntries(Object.keys(judge.headers).map((k) => [k, '***']));
  return { ...c, target, judge };
}

export function attemptsPerRun(c: Pick<CampaignInput, 'include_baseline' | 'mutations' | 'repeats'>): number {
  return ((c.include_baseline ? 1 : 0) + c.mutations.length) * c.repeats;
}

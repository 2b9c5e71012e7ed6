// What a campaign update compares and keeps: the definition's parts, the write-only secrets a GET shows as "***", the
// summary of what changed between versions, and the If-Match header (docs/campaigns-and-replay.md#versions).
import { ValidationError } from '../errors';
import { canonicalJson } from '../json';
import type { Campaign, JudgeConfig, Target, UserSimulatorConfig } from './schema';

/** What one campaign version changed against the one before it (version 1: against nothing). */
export interface CampaignChanges {
  mutations: { added: string[]; removed: string[]; changed: string[] };
  policies: { added: string[]; removed: string[]; changed: string[] };
  criteria: { added: unknown[]; removed: unknown[] };
  /** The other top-level fields whose value changed (name, target, repeats, ...), sorted. */
  fields: string[];
}

/** One entry of a campaign's version history. */
export interface CampaignVersionEntry {
  version: number;
  created_at: string;
  name: string;
  changes: CampaignChanges;
}

/** A version as stored: `changes` is null for version 1, which is compared with nothing when listed. */
export type StoredVersionEntry = Omit<CampaignVersionEntry, 'changes'> & { changes: CampaignChanges | null };

/** What a GET shows in place of a write-only value. */
export const SECRET_MASK = '***';

/** The fields that make a version: everything but the identity, the version itself and the eval-set. */
export type Definition = Omit<Campaign, 'campaign_id' | 'created_at' | 'version' | 'eval_set'>;

export function definitionOf(c: Campaign): Definition {
  const { campaign_id: _id, created_at: _at, version: _v, eval_set: _e, ...definition } = c;
  return definition;
}

/** Whether two definitions are the same (key order and absent optional fields do not count). */
export function sameDefinition(a: Definition, b: Definition): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

function keptHeaders(sent: Record<string, string> | undefined, stored: Record<string, string> | undefined, path: string) {
  if (!sent) return sent;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(sent)) {
    if (value !== SECRET_MASK) out[name] = value;
    else if (stored && name in stored) out[name] = stored[name];
    else throw maskWithoutSecret(`${path}.${name}`);
  }
  return out;
}

function keptKey(sent: string | undefined, stored: string | undefined, path: string): string | undefined {
  if (sent !== SECRET_MASK) return sent;
  if (stored === undefined) throw maskWithoutSecret(path);
  return stored;
}

function maskWithoutSecret(path: string): ValidationError {
  return new ValidationError(`${path} is "${SECRET_MASK}" but no secret is stored there to keep: send the value itself.`, [
    { path, message: `"${SECRET_MASK}" keeps a stored secret, and none is stored here` },
  ]);
}

/**
 * The sent definition with every masked secret replaced by the stored one at the same place (a GET edited and sent
 * back keeps its secrets); any other value replaces the stored secret. A mask where nothing is stored is a 422.
 */
export function keepMaskedSecrets(sent: Definition, stored: Definition): Definition {
  const target = { ...sent.target } as Target;
  const before = stored.target as Target;
  if (target.type === 'http' || target.type === 'mcp') {
    target.headers = keptHeaders(target.headers, before.type === target.type ? before.headers : undefined, 'target.headers');
    if (target.headers === undefined) delete target.headers;
  }
  if (target.type === 'openai') {
    const key = keptKey(target.api_key, before.type === 'openai' ? before.api_key : undefined, 'target.api_key');
    if (key === undefined) delete target.api_key;
    else target.api_key = key;
  }
  const out: Definition = { ...sent, target };
  if (sent.judge) out.judge = keptModelSecrets(sent.judge, stored.judge, 'judge');
  if (sent.user_simulator) out.user_simulator = keptModelSecrets(sent.user_simulator, stored.user_simulator, 'user_simulator');
  return out;
}

/** A model rts calls itself (the judge, the user simulator) with its masked api_key and headers kept from `stored`. */
function keptModelSecrets<T extends JudgeConfig | UserSimulatorConfig>(sent: T, stored: T | undefined, path: string): T {
  const out: T = { ...sent };
  const key = keptKey(out.api_key, stored?.api_key, `${path}.api_key`);
  if (key === undefined) delete out.api_key;
  else out.api_key = key;
  const headers = keptHeaders(out.headers, stored?.headers, `${path}.headers`);
  if (headers === undefined) delete out.headers;
  else out.headers = headers;
  return out;
}

function byId<T extends { id: string }>(before: T[], after: T[]) {
  const old = new Map(before.map((x) => [x.id, canonicalJson(x)]));
  const now = new Map(after.map((x) => [x.id, canonicalJson(x)]));
  return {
    added: after.filter((x) => !old.has(x.id)).map((x) => x.id),
    removed: before.filter((x) => !now.has(x.id)).map((x) => x.id),
    changed: after.filter((x) => old.has(x.id) && old.get(x.id) !== now.get(x.id)).map((x) => x.id),
  };
}

/** What `after` changed against `before` (null: the first version, where everything is added). */
export function versionChanges(before: Definition | null, after: Definition): CampaignChanges {
  const criteriaBefore = new Set((before?.criteria ?? []).map((c) => canonicalJson(c)));
  const criteriaAfter = new Set(after.criteria.map((c) => canonicalJson(c)));
  const listed = new Set(['mutations', 'policies', 'criteria']);
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after)]);
  const old = (before ?? {}) as Record<string, unknown>;
  const now = after as Record<string, unknown>;
  return {
    mutations: byId(before?.mutations ?? [], after.mutations),
    policies: byId(before?.policies ?? [], after.policies),
    criteria: {
      added: after.criteria.filter((c) => !criteriaBefore.has(canonicalJson(c))),
      removed: (before?.criteria ?? []).filter((c) => !criteriaAfter.has(canonicalJson(c))),
    },
    fields: [...keys].filter((k) => !listed.has(k) && canonicalJson(old[k] ?? null) !== canonicalJson(now[k] ?? null)).sort(),
  };
}

/**
 * The version an `If-Match` header names: `3`, or the ETag form `"3"` (also weak, `W/"3"`); undefined without the
 * header; `*` matches any version. Anything else is a 422.
 */
export function parseIfMatch(header: string | undefined): number | '*' | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (value === '*') return '*';
  const m = /^("?)([1-9][0-9]{0,8})\1$/.exec(value.replace(/^W\//, ''));
  if (!m) {
    throw new ValidationError('If-Match must be a campaign version: 3, or its ETag "3".', [
      { path: 'If-Match', message: 'must be a version number or its quoted ETag' },
    ]);
  }
  return Number(m[2]);
}

/** The ETag of a campaign version: the version number, quoted. */
export function campaignEtag(version: number): string {
  return `"${version}"`;
}

/** `?version=n` of a campaign read: undefined when absent; a positive integer, else a 422. */
export function parseVersionQuery(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9][0-9]{0,8}$/.test(value)) {
    throw new ValidationError('version must be a positive integer.', [{ path: 'version', message: 'must be a positive integer' }]);
  }
  return Number(value);
}

// API-key authentication and project/key administration. Keys are stored only as SHA-256 hashes.
import type { Deps, ProjectsRepo } from './ports';
import { UnauthorizedError } from './errors';
import { isApiKeyShape, isUuid, newApiKey, newUuid } from './ids';
import { sha256Hex } from './json';
import { nowIso } from './time';

export const hashApiKey = (key: string) => sha256Hex(key);

/** Resolves the caller's project; every failure is the same 401 (no oracle for which part was wrong). */
export async function authenticate(projects: ProjectsRepo, apiKey: string | undefined, projectId: string | undefined): Promise<string> {
  if (!isApiKeyShape(apiKey) || !isUuid(projectId)) throw new UnauthorizedError();
  const rec = await projects.findApiKeyByHash(hashApiKey(apiKey));
  if (!rec || rec.revoked_at || rec.project_id !== projectId) throw new UnauthorizedError();
  return projectId;
}

export interface IssuedKey {
  project_id: string;
  key_id: string;
  api_key: string;
  created_at: string;
}

/** Issues a new key for a project; `apiKey` may be supplied (local bootstrap), else one is generated. */
export async function createKey(deps: Pick<Deps, 'projects' | 'clock'>, projectId: string, apiKey?: string): Promise<IssuedKey> {
  const key = apiKey ?? newApiKey();
  if (!isApiKeyShape(key)) throw new Error('API keys look like rts_ followed by 40 base62 characters');
  const created_at = nowIso(deps.clock);
  const key_id = `key_${hashApiKey(key).slice(0, 16)}`;
  await deps.projects.putApiKey({ key_id, key_hash: hashApiKey(key), project_id: projectId, created_at, revoked_at: null });
  return { project_id: projectId, key_id, api_key: key, created_at };
}

export async function createProject(
  deps: Pick<Deps, 'projects' | 'clock'>,
  opts: { name: string; projectId?: string; apiKey?: string },
): Promise<IssuedKey & { name: string }> {
  const project_id = (opts.projectId ?? newUuid()).toLowerCase();
  if (!isUuid(project_id)) throw new Error('project ids are lowercase UUID v4');
  const existing = await deps.projects.getProject(project_id);
  if (!existing) await deps.projects.createProject({ project_id, name: opts.name, created_at: nowIso(deps.clock) });
  const key = await createKey(deps, project_id, opts.apiKey);
  return { ...key, name: existing?.name ?? opts.name };
}

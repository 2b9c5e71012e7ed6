// Projects and their API keys (stored only as SHA-256 hashes).
import type { ApiKeyRecord, ProjectRecord, ProjectsRepo } from '../../core/ports';
import { keys, stripKeys } from './keys';
import { getItem, putIf, putNew, updateIf } from './table';

export class DynamoProjectsRepo implements ProjectsRepo {
  async createProject(p: ProjectRecord): Promise<void> {
    // An existing project stays as it is (the local bootstrap may name one that exists).
    await putNew({ ...keys.project(p.project_id), entity: 'project', ...p });
  }

  async getProject(projectId: string): Promise<ProjectRecord | null> {
    const item = await getItem(keys.project(projectId));
    return item ? stripKeys<ProjectRecord>(item) : null;
  }

  async putApiKey(k: ApiKeyRecord): Promise<void> {
    // The per-project item is written first: a key is usable only once it can also be listed and revoked.
    await putIf({ Item: { ...keys.projectKey(k.project_id, k.key_id), entity: 'key', ...k } });
    await putIf({ Item: { ...keys.apiKey(k.key_hash), entity: 'apikey', ...k } });
  }

  async findApiKeyByHash(hash: string): Promise<ApiKeyRecord | null> {
    const item = await getItem(keys.apiKey(hash));
    return item ? stripKeys<ApiKeyRecord>(item) : null;
  }

  async revokeApiKey(projectId: string, keyId: string, at: string): Promise<boolean> {
    const item = await getItem(keys.projectKey(projectId, keyId), true);
    if (!item) return false;
    const rec = stripKeys<ApiKeyRecord>(item);
    for (const Key of [keys.apiKey(rec.key_hash), keys.projectKey(projectId, keyId)]) {
      // revoked_at is stored as NULL until revocation; the first revocation time wins.
      await updateIf({
        Key,
        UpdateExpression: 'SET revoked_at = :at',
        ConditionExpression: 'attribute_not_exists(revoked_at) OR attribute_type(revoked_at, :null)',
        ExpressionAttributeValues: { ':at': at, ':null': 'NULL' },
        ReturnValues: 'NONE',
      });
    }
    return true;
  }
}

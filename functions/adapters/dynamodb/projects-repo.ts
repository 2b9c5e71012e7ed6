// Projects and their API keys (stored only as SHA-256 hashes).
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ApiKeyRecord, ProjectRecord, ProjectsRepo } from '../../ports';
import { keys, stripKeys } from './keys';
import { doc, isConditionalFailure, tableName } from './table';

export class DynamoProjectsRepo implements ProjectsRepo {
  async createProject(p: ProjectRecord): Promise<void> {
    await doc().send(
      new PutCommand({ TableName: tableName(), Item: { ...keys.project(p.project_id), entity: 'project', ...p }, ConditionExpression: 'attribute_not_exists(pk)' }),
    ).catch((err) => {
      if (!isConditionalFailure(err)) throw err;
    });
  }

  async getProject(projectId: string): Promise<ProjectRecord | null> {
    const res = await doc().send(new GetCommand({ TableName: tableName(), Key: keys.project(projectId) }));
    return res.Item ? stripKeys<ProjectRecord>(res.Item) : null;
  }

  async putApiKey(k: ApiKeyRecord): Promise<void> {
    // The per-project item is written first: a key is usable only once it can also be listed and revoked.
    await doc().send(new PutCommand({ TableName: tableName(), Item: { ...keys.projectKey(k.project_id, k.key_id), entity: 'key', ...k } }));
    await doc().send(new PutCommand({ TableName: tableName(), Item: { ...keys.apiKey(k.key_hash), entity: 'apikey', ...k } }));
  }

  async findApiKeyByHash(hash: string): Promise<ApiKeyRecord | null> {
    const res = await doc().send(new GetCommand({ TableName: tableName(), Key: keys.apiKey(hash) }));
    return res.Item ? stripKeys<ApiKeyRecord>(res.Item) : null;
  }

  async revokeApiKey(projectId: string, keyId: string, at: string): Promise<boolean> {
    const res = await doc().send(new GetCommand({ TableName: tableName(), Key: keys.projectKey(projectId, keyId), ConsistentRead: true }));
    if (!res.Item) return false;
    const rec = stripKeys<ApiKeyRecord>(res.Item);
    for (const Key of [keys.apiKey(rec.key_hash), keys.projectKey(projectId, keyId)]) {
      // revoked_at is stored as NULL until revocation; the first revocation time wins.
      await doc()
        .send(
          new UpdateCommand({
            TableName: tableName(),
            Key,
            UpdateExpression: 'SET revoked_at = :at',
            ConditionExpression: 'attribute_not_exists(revoked_at) OR attribute_type(revoked_at, :null)',
            ExpressionAttributeValues: { ':at': at, ':null': 'NULL' },
          }),
        )
        .catch((err) => {
          if (!isConditionalFailure(err)) throw err;
        });
    }
    return true;
  }
}

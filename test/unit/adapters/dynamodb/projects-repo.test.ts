// DynamoProjectsRepo against dynalite: projects created once, API keys found by hash, revocation on both key items.
import { randomUUID } from 'node:crypto';
import { DynamoProjectsRepo } from '../../../../functions/adapters/dynamodb/projects-repo';
import { keys } from '../../../../functions/adapters/dynamodb/keys';
import { getItem } from '../../../../functions/adapters/dynamodb/table';
import type { ApiKeyRecord, ProjectRecord } from '../../../../functions/core/ports';
import { startDynalite, type TestTable } from '../../../helpers/dynalite';

let table: TestTable;

beforeAll(async () => {
  table = await startDynalite();
});
afterAll(() => table.close());

const project = (overrides: Partial<ProjectRecord> = {}): ProjectRecord => ({
  project_id: randomUUID(),
  name: 'checkout agent',
  created_at: '2026-11-21T10:00:00.000000+00:00',
  ...overrides,
});

const apiKey = (projectId: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
  key_id: randomUUID(),
  key_hash: randomUUID().replace(/-/g, '').repeat(2),
  project_id: projectId,
  created_at: '2026-11-21T10:00:00.000000+00:00',
  revoked_at: null,
  ...overrides,
});

describe('DynamoProjectsRepo', () => {
  it('stores a project and reads it back without storage attributes', async () => {
    // Prepare
    const repo = new DynamoProjectsRepo();
    const p = project();
    // Act
    await repo.createProject(p);
    // Assess
    expect(await repo.getProject(p.project_id)).toEqual(p);
  });

  it('keeps an existing project as it is when it is created again', async () => {
    // Prepare
    const repo = new DynamoProjectsRepo();
    const p = project();
    await repo.createProject(p);
    // Act
    await repo.createProject({ ...p, name: 'renamed', created_at: '2027-01-01T00:00:00.000000+00:00' });
    // Assess
    expect(await repo.getProject(p.project_id)).toEqual(p);
  });

  it('answers null for a project that does not exist', async () => {
    // Act
    const found = await new DynamoProjectsRepo().getProject(randomUUID());
    // Assess
    expect(found).toBeNull();
  });

  it('finds a stored key by its hash and answers null for an unknown hash', async () => {
    // Prepare
    const repo = new DynamoProjectsRepo();
    const k = apiKey(randomUUID());
    // Act
    await repo.putApiKey(k);
    // Assess
    expect(await repo.findApiKeyByHash(k.key_hash)).toEqual(k);
    expect(await repo.findApiKeyByHash('0'.repeat(64))).toBeNull();
  });

  it('stores a key under its hash and under its project, so it can be both found and revoked', async () => {
    // Prepare
    const k = apiKey(randomUUID());
    // Act
    await new DynamoProjectsRepo().putApiKey(k);
    // Assess
    expect(await getItem(keys.apiKey(k.key_hash), true)).toMatchObject({ entity: 'apikey', ...k });
    expect(await getItem(keys.projectKey(k.project_id, k.key_id), true)).toMatchObject({ entity: 'key', ...k });
  });

  it('revokes a key on both of its items', async () => {
    // Prepare
    const repo = new DynamoProjectsRepo();
    const k = apiKey(randomUUID());
    await repo.putApiKey(k);
    // Act
    const revoked = await repo.revokeApiKey(k.project_id, k.key_id, '2026-11-22T00:00:00.000000+00:00');
    // Assess
    expect(revoked).toBe(true);
    expect((await repo.findApiKeyByHash(k.key_hash))?.revoked_at).toBe('2026-11-22T00:00:00.000000+00:00');
    expect((await getItem(keys.projectKey(k.project_id, k.key_id), true))?.revoked_at).toBe('2026-11-22T00:00:00.000000+00:00');
  });

  it('keeps the first revocation time when a key is revoked again', async () => {
    // Prepare
    const repo = new DynamoProjectsRepo();
    const k = apiKey(randomUUID());
    await repo.putApiKey(k);
    await repo.revokeApiKey(k.project_id, k.key_id, '2026-11-22T00:00:00.000000+00:00');
    // Act
    const again = await repo.revokeApiKey(k.project_id, k.key_id, '2026-12-01T00:00:00.000000+00:00');
    // Assess
    expect(again).toBe(true);
    expect((await repo.findApiKeyByHash(k.key_hash))?.revoked_at).toBe('2026-11-22T00:00:00.000000+00:00');
  });

  it("refuses to revoke an unknown key or another project's key, which stays usable", async () => {
    // Prepare
    const repo = new DynamoProjectsRepo();
    const k = apiKey(randomUUID());
    await repo.putApiKey(k);
    // Act
    const unknown = await repo.revokeApiKey(k.project_id, randomUUID(), '2026-11-22T00:00:00.000000+00:00');
    const foreign = await repo.revokeApiKey(randomUUID(), k.key_id, '2026-11-22T00:00:00.000000+00:00');
    // Assess
    expect([unknown, foreign]).toEqual([false, false]);
    expect((await repo.findApiKeyByHash(k.key_hash))?.revoked_at).toBeNull();
  });
});

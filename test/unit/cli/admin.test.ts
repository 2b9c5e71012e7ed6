// `rts admin ... --table T --region R` against DynamoDB in AWS, with aws-sdk-client-mock: the items written, keys
// stored only as hashes, and the failure branches.
import { createHash } from 'node:crypto';
import { DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { runAdmin } from '../../../functions/cli/admin';
import { resetAwsClients } from '../../../functions/adapters/aws';
import { captureOutput } from '../../helpers/capture-output';

const ddb = mockClient(DynamoDBDocumentClient);
const PROJECT = '0b9f7a52-8c1e-4d2f-9a3b-5c6d7e8f9a0b';

const admin = (args: string[]) => captureOutput(() => runAdmin(args));

beforeEach(() => {
  ddb.reset();
  process.env.DYNAMODB_ENDPOINT = 'http://127.0.0.1:1';
  resetAwsClients();
});
afterAll(() => {
  delete process.env.DYNAMODB_ENDPOINT;
  resetAwsClients();
});

describe('rts admin against AWS (--table)', () => {
  it('create-project writes the project and its key to the named table, storing only the key hash', async () => {
    ddb.on(GetCommand).resolves({});
    ddb.on(PutCommand).resolves({});
    const res = await admin(['create-project', '--name', 'team-a', '--table', 'rts-prod-Table', '--region', 'eu-west-1']);
    expect(res.code).toBe(0);
    const printed = JSON.parse(res.out);
    expect(printed).toMatchObject({ name: 'team-a', api_key: expect.stringMatching(/^rts_[0-9A-Za-z]{40}$/) });
    expect(process.env.DYNAMODB_ENDPOINT).toBeUndefined();
    expect(process.env.AWS_REGION).toBe('eu-west-1');
    const puts = ddb.commandCalls(PutCommand).map((c) => c.args[0].input);
    expect([...new Set(puts.map((p) => p.TableName))]).toEqual(['rts-prod-Table']);
    expect(puts.map((p) => p.Item?.pk)).toEqual([
      `PROJECT#${printed.project_id}`,
      `PROJECT#${printed.project_id}`,
      expect.stringMatching(/^APIKEY#[0-9a-f]{64}$/),
    ]);
    const hash = createHash('sha256').update(printed.api_key).digest('hex');
    expect(puts[2].Item?.key_hash).toBe(hash);
    expect(JSON.stringify(puts)).not.toContain(printed.api_key);
  });

  it('create-key refuses an unknown project with exit code 1 and writes nothing', async () => {
    ddb.on(GetCommand).resolves({});
    const res = await admin(['create-key', '--project', PROJECT, '--table', 'T', '--region', 'us-east-1']);
    expect(res.code).toBe(1);
    expect(res.err).toContain('not found');
    expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
  });

  it('revoke-key marks both key items revoked and tolerates a key already revoked', async () => {
    ddb.on(GetCommand).resolves({ Item: { key_id: 'key_1', key_hash: 'ab'.repeat(32), project_id: PROJECT, revoked_at: null } });
    ddb
      .on(UpdateCommand)
      .resolvesOnce({})
      .rejectsOnce(Object.assign(new Error('conditional'), { name: 'ConditionalCheckFailedException', $metadata: {} }));
    const res = await admin(['revoke-key', '--project', PROJECT, '--key-id', 'key_1', '--table', 'T', '--region', 'us-east-1']);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.out)).toMatchObject({ project_id: PROJECT, key_id: 'key_1', revoked_at: expect.any(String) });
    const keysUpdated = ddb.commandCalls(UpdateCommand).map((c) => c.args[0].input.Key?.pk);
    expect(keysUpdated).toEqual([`APIKEY#${'ab'.repeat(32)}`, `PROJECT#${PROJECT}`]);
  });

  it('surfaces an AWS error (no credentials, throttling) instead of printing a result', async () => {
    ddb.on(GetCommand).rejects(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException', $metadata: {} }));
    await expect(admin(['create-project', '--name', 'x', '--table', 'T', '--region', 'us-east-1'])).rejects.toThrow('Rate exceeded');
  });
});

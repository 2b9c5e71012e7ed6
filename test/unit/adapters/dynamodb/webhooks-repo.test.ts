// DynamoWebhooksRepo against a mocked DocumentClient: the limit race, conditional failures, and writes that never resurrect.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoWebhooksRepo } from '../../../../functions/adapters/dynamodb/webhooks-repo';
import type { WebhookRecord } from '../../../../functions/core/webhooks/schema';
import { resetAwsClients } from '../../../../functions/adapters/aws';

const ddb = mockClient(DynamoDBDocumentClient);
const conditional = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });
const PID = 'p1';

const record = (id: string, created_at: string): WebhookRecord => ({
  project_id: PID,
  webhook_id: id,
  url: 'https://example.com/h',
  events: ['*'],
  is_enabled: true,
  description: null,
  secret: 'whsec_x',
  created_at,
  updated_at: created_at,
  last_error: null,
  last_error_at: null,
  last_delivery_at: null,
  last_status: null,
});
const existing = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ webhook_id: `wh_${i}`, created_at: `2026-01-01T00:00:${String(i).padStart(2, '0')}` }));

beforeAll(() => {
  process.env.TABLE_NAME = 'rts-test';
  resetAwsClients();
});
beforeEach(() => ddb.reset());

describe('DynamoWebhooksRepo.create', () => {
  it('refuses without writing when the project is at the limit', async () => {
    ddb.on(QueryCommand).resolves({ Items: existing(25) });

    const res = await new DynamoWebhooksRepo().create(record('wh_new', '2026-02-01T00:00:00'), 25);

    expect(res).toEqual({ created: false });
    expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
  });

  it('takes a limit slot, then writes with attribute_not_exists under WEBHOOKS#<pid> / WH#<id>', async () => {
    ddb.on(QueryCommand).resolves({ Items: existing(3) });
    ddb.on(PutCommand).resolves({});

    const res = await new DynamoWebhooksRepo().create(record('wh_new', '2026-02-01T00:00:00'), 25);

    expect(res).toEqual({ created: true });
    const [slot, put] = ddb.commandCalls(PutCommand).map((c) => c.args[0].input);
    expect(slot).toMatchObject({ ConditionExpression: 'attribute_not_exists(pk)', Item: { pk: 'WEBHOOKS#p1', sk: 'SLOT#00', webhook_id: 'wh_new' } });
    expect(put).toMatchObject({ TableName: 'rts-test', ConditionExpression: 'attribute_not_exists(pk)' });
    expect(put.Item).toMatchObject({ pk: 'WEBHOOKS#p1', sk: 'WH#wh_new', secret: 'whsec_x', slot: 0 });
  });

  it('refuses without writing the webhook when concurrent creates hold every slot', async () => {
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: existing(1) })
      .resolves({ Items: [] });
    ddb.on(PutCommand).rejects(conditional());
    ddb.on(GetCommand).resolves({ Item: { pk: 'WEBHOOKS#p1', sk: 'SLOT#00', webhook_id: 'wh_rival' } });

    const res = await new DynamoWebhooksRepo().create(record('wh_new', '2026-02-01T00:00:00'), 2);

    expect(res).toEqual({ created: false });
    expect(ddb.commandCalls(PutCommand).map((c) => c.args[0].input.Item?.sk)).toEqual(['SLOT#00', 'SLOT#01']);
  });

  it('takes the next slot when the first is held by another webhook', async () => {
    ddb.on(QueryCommand).resolves({ Items: existing(1) });
    ddb.on(PutCommand).rejectsOnce(conditional()).resolves({});
    ddb.on(GetCommand).resolves({ Item: { pk: 'WEBHOOKS#p1', sk: 'SLOT#00', webhook_id: 'wh_a' } });

    const res = await new DynamoWebhooksRepo().create(record('wh_new', '2026-01-31T00:00:00'), 25);

    expect(res).toEqual({ created: true });
    expect(ddb.commandCalls(PutCommand)[2].args[0].input.Item).toMatchObject({ sk: 'WH#wh_new', slot: 1 });
  });
});

describe('DynamoWebhooksRepo reads and changes', () => {
  it('reads a webhook strongly consistently and strips storage attributes', async () => {
    ddb.on(GetCommand).resolves({ Item: { pk: 'WEBHOOKS#p1', sk: 'WH#wh_a', entity: 'webhook', ...record('wh_a', 't') } });

    const got = await new DynamoWebhooksRepo().get(PID, 'wh_a');

    expect(ddb.commandCalls(GetCommand)[0].args[0].input.ConsistentRead).toBe(true);
    expect(got).toEqual(record('wh_a', 't'));
  });

  it('answers null / false for updates, rotations and deletes of a webhook that does not exist', async () => {
    ddb.on(UpdateCommand).rejects(conditional());
    ddb.on(DeleteCommand).rejects(conditional());
    ddb.on(GetCommand).resolves({});
    const repo = new DynamoWebhooksRepo();

    expect(await repo.update(PID, 'wh_a', { is_enabled: false, updated_at: 't' })).toBeNull();
    expect(await repo.rotateSecret(PID, 'wh_a', 'whsec_new', 't')).toBe(false);
    expect(await repo.delete(PID, 'wh_a')).toBe(false);
  });

  it('lets other storage errors through', async () => {
    ddb.on(UpdateCommand).rejects(new Error('ProvisionedThroughputExceededException'));
    const repo = new DynamoWebhooksRepo();

    await expect(repo.update(PID, 'wh_a', { is_enabled: false, updated_at: 't' })).rejects.toThrow('ProvisionedThroughput');
    await expect(repo.recordFailure(PID, 'wh_a', 't', 'HTTP 500')).rejects.toThrow('ProvisionedThroughput');
  });

  it('updates only the fields a patch carries, conditionally', async () => {
    ddb.on(UpdateCommand).resolves({ Attributes: { pk: 'x', sk: 'y', ...record('wh_a', 't'), is_enabled: false } });

    const updated = await new DynamoWebhooksRepo().update(PID, 'wh_a', { is_enabled: false, url: undefined, updated_at: 'u' });

    const input = ddb.commandCalls(UpdateCommand)[0].args[0].input;
    expect(input.UpdateExpression).toBe('SET #is_enabled = :is_enabled, #updated_at = :updated_at');
    expect(input.ConditionExpression).toBe('attribute_exists(pk)');
    expect(updated?.is_enabled).toBe(false);
  });
});

describe('DynamoWebhooksRepo delivery outcomes', () => {
  it('records outcomes with updates that touch only status fields and never recreate a deleted webhook', async () => {
    ddb.on(UpdateCommand).rejects(conditional());
    const repo = new DynamoWebhooksRepo();

    await repo.recordSuccess(PID, 'wh_gone', 't', 200);
    await repo.recordFailure(PID, 'wh_gone', 't', 'HTTP 500');

    const [success, failure] = ddb.commandCalls(UpdateCommand).map((c) => c.args[0].input);
    expect(success).toMatchObject({
      UpdateExpression: 'SET last_delivery_at = :at, last_status = :s REMOVE last_error',
      ConditionExpression: 'attribute_exists(pk)',
    });
    expect(failure).toMatchObject({ UpdateExpression: 'SET last_error = :e, last_error_at = :at', ConditionExpression: 'attribute_exists(pk)' });
  });
});

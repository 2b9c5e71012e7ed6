// DynamoDeliveryLogRepo against a mocked DocumentClient: claims under their condition (a lost answer included), log
// entries under WHLOG with their TTL, and storage errors let through.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoDeliveryLogRepo } from '../../../../functions/adapters/dynamodb/delivery-log-repo';
import { resetAwsClients } from '../../../../functions/adapters/aws';

const ddb = mockClient(DynamoDBDocumentClient);
const conditional = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });
const PID = 'p1';

beforeAll(() => {
  process.env.TABLE_NAME = 'rts-test';
  resetAwsClients();
});
beforeEach(() => ddb.reset());

describe('DynamoDeliveryLogRepo claims', () => {
  it('claims a (webhook, event) pair once: a second claim is refused by the condition', async () => {
    ddb.on(PutCommand).resolvesOnce({}).rejectsOnce(conditional());
    ddb.on(GetCommand).resolves({ Item: { pk: 'WHDEDUP#wh_a#evt-1', sk: 'DEDUP', delivery_id: 'dlv-1', expires_at: 1234 } });
    const repo = new DynamoDeliveryLogRepo();

    expect(await repo.claimDelivery('wh_a', 'evt-1', 1234, 'dlv-1')).toBe(true);
    expect(await repo.claimDelivery('wh_a', 'evt-1', 1234, 'dlv-2')).toBe(false);
    expect(ddb.commandCalls(PutCommand)[0].args[0].input).toMatchObject({
      Item: { pk: 'WHDEDUP#wh_a#evt-1', sk: 'DEDUP', delivery_id: 'dlv-1', expires_at: 1234 },
      ConditionExpression: 'attribute_not_exists(pk)',
    });
    expect(ddb.commandCalls(GetCommand)[0].args[0].input).toMatchObject({ Key: { pk: 'WHDEDUP#wh_a#evt-1', sk: 'DEDUP' }, ConsistentRead: true });
  });

  it("keeps a claim whose answer was lost: the retry's conditional failure finds this delivery's own claim", async () => {
    // The store applied the put, the answer was lost, the SDK's retry was refused by the condition.
    ddb.on(PutCommand).rejects(conditional());
    ddb.on(GetCommand).resolves({ Item: { pk: 'WHDEDUP#wh_a#evt-1', sk: 'DEDUP', delivery_id: 'dlv-1', expires_at: 1234 } });

    expect(await new DynamoDeliveryLogRepo().claimDelivery('wh_a', 'evt-1', 1234, 'dlv-1')).toBe(true);
  });

  it('lets storage errors other than a failed condition through', async () => {
    ddb.on(PutCommand).rejects(new Error('InternalServerError'));

    await expect(new DynamoDeliveryLogRepo().claimDelivery('wh_a', 'evt', 1, 'dlv-1')).rejects.toThrow('InternalServerError');
  });
});

describe('DynamoDeliveryLogRepo log entries', () => {
  it('writes log entries under WHLOG with a TTL and lists them newest first, hiding expired ones', async () => {
    ddb.on(PutCommand).resolves({});
    ddb.on(QueryCommand).resolves({ Items: [{ pk: 'WHLOG#p1#wh_a', sk: 'DLV#t#d1', entity: 'delivery', expires_at: 99, delivery_id: 'd1' }] });
    const repo = new DynamoDeliveryLogRepo();
    const entry = { delivery_id: 'd1', event_type: 'run.completed' as const, created_at: 't', outcome: 'succeeded' as const, attempts: [] };

    await repo.putDelivery(PID, 'wh_a', entry, 99);
    const page = await repo.listDeliveries(PID, 'wh_a', { limit: 5 }, 50);

    expect(ddb.commandCalls(PutCommand)[0].args[0].input.Item).toMatchObject({ pk: 'WHLOG#p1#wh_a', sk: 'DLV#t#d1', expires_at: 99 });
    expect(ddb.commandCalls(QueryCommand)[0].args[0].input).toMatchObject({
      FilterExpression: 'expires_at > :now',
      ExpressionAttributeValues: { ':pk': 'WHLOG#p1#wh_a', ':now': 50 },
      ScanIndexForward: false,
      Limit: 5,
    });
    expect(page.items).toEqual([{ delivery_id: 'd1' }]);
  });
});

// Table administration for the local runtime and tests: a client for a local endpoint, and the table created from
// lib/table.ts (the same schema the CDK stack deploys).
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { createTableInput, TABLE_KEYS } from '../../../lib/table';

/** A DynamoDB client for a local endpoint (dummy credentials, region `local`). */
export function localDynamoClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
}

/** Creates the table if it does not exist yet (idempotent), with TTL enabled like the cloud table. */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = localDynamoClient(endpoint);
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
  } catch (err) {
    if ((err as Error).name !== 'ResourceNotFoundException') throw err;
    try {
      await client.send(new CreateTableCommand(createTableInput(tableName)));
    } catch (createErr) {
      if ((createErr as Error).name !== 'ResourceInUseException') throw createErr;
    }
    await client
      .send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: TABLE_KEYS.ttlAttribute, Enabled: true } }))
      .catch(() => undefined); // dynalite does not implement TTL; expiry is checked on read where it matters
  } finally {
    client.destroy();
  }
}

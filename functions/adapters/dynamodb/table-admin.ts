// Table administration for the local runtime and tests: a client for a local endpoint, and the table created from
// lib/table.ts (the same schema the CDK stack deploys).
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { createTableInput, TABLE_KEYS } from '../../../lib/table';
import { withoutSigning } from './client';

/**
 * A DynamoDB client for a local endpoint (dummy credentials, region `local`); with the embedded store's secret, its
 * requests carry it (see withoutSigning), without one they are signed with the dummy credentials.
 */
export function localDynamoClient(endpoint: string, secret?: string): DynamoDBClient {
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  return secret ? withoutSigning(client, secret) : client;
}

/**
 * Creates the table if it does not exist yet (idempotent), with TTL enabled like the cloud table, and returns once it
 * is ACTIVE (`secret`: the embedded store's, when it has one): a table still CREATING refuses every read and write (dynalite marks it active a moment later, through an
 * asynchronous write, so a busy machine could otherwise send the first request too early).
 */
export async function ensureTable(endpoint: string, tableName: string, secret?: string): Promise<void> {
  const client = localDynamoClient(endpoint, secret);
  try {
    await createIfMissing(client, tableName);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
      if (Table?.TableStatus === 'ACTIVE') return;
      if (Date.now() > deadline) throw new Error(`table ${tableName} is still ${Table?.TableStatus} after 30 s`);
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    client.destroy();
  }
}

async function createIfMissing(client: DynamoDBClient, tableName: string): Promise<void> {
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
  }
}

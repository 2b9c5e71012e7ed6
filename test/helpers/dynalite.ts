// An in-process dynalite with the service's table, for tests that need real DynamoDB behaviour (conditions, queries).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createTableInput } from '../../lib/table';
import { dynamoDocClient, resetAwsClients } from '../../functions/shared/aws';

// dynalite ships no types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const dynalite = require('dynalite') as (opts: Record<string, unknown>) => Server;

export interface TestTable {
  endpoint: string;
  tableName: string;
  /** Stops dynalite and forgets the cached AWS clients. */
  close(): Promise<void>;
}

/**
 * Starts dynalite on a free loopback port, creates the table from lib/table.ts, and points the service at it
 * (DYNAMODB_ENDPOINT, TABLE_NAME, then resetAwsClients()).
 */
export async function startDynalite(tableName = 'rts-test'): Promise<TestTable> {
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const admin = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  await admin.send(new CreateTableCommand(createTableInput(tableName)));
  admin.destroy();
  process.env.DYNAMODB_ENDPOINT = endpoint;
  process.env.TABLE_NAME = tableName;
  process.env.AWS_REGION ??= 'local';
  resetAwsClients();
  return {
    endpoint,
    tableName,
    close: async () => {
      dynamoDocClient().destroy();
      resetAwsClients();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

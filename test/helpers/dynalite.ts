// An in-process dynalite with the service's table, for tests that need real DynamoDB behaviour (conditions, queries);
// in parity mode (RTS_TEST_DYNAMODB_ENDPOINT set, see test/parity/run.ts) a table of its own on that external store instead.
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ensureTable } from '../../functions/adapters/dynamodb/table-admin';
import { resetAwsClients } from '../../functions/adapters/aws';
import { dynamoDocClient } from '../../functions/adapters/dynamodb/client';

// dynalite ships no types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const dynalite = require('dynalite') as (opts: Record<string, unknown>) => Server;
// The store as the service runs it: with its parsed conditions kept (functions/local/store-expressions.js).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { keepParsedConditions } = require('../../functions/local/store-expressions') as { keepParsedConditions: () => unknown };

/** The external DynamoDB-compatible endpoint the tests run against (parity mode), or undefined for dynalite. */
export function externalStoreEndpoint(): string | undefined {
  return process.env.RTS_TEST_DYNAMODB_ENDPOINT || undefined;
}

/** A table name no other test file or service instance uses (parity runs share one store between jest workers). */
export function uniqueTableName(prefix = 'rts-test'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

function adminClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
}

/** Creates the service's table (lib/table.ts) on an endpoint and waits until it is ACTIVE. */
export async function createTestTable(endpoint: string, tableName: string): Promise<void> {
  await ensureTable(endpoint, tableName);
}

/** Deletes a table; one already gone is fine. */
export async function deleteTestTable(endpoint: string, tableName: string): Promise<void> {
  const admin = adminClient(endpoint);
  try {
    await admin.send(new DeleteTableCommand({ TableName: tableName }));
  } catch (err) {
    if ((err as Error).name !== 'ResourceNotFoundException') throw err;
  } finally {
    admin.destroy();
  }
}

export interface TestTable {
  endpoint: string;
  tableName: string;
  /** Stops dynalite (in parity mode: deletes the table) and forgets the cached AWS clients. */
  close(): Promise<void>;
}

/**
 * Starts dynalite on a free loopback port, creates the table from lib/table.ts, and points the service at it
 * (DYNAMODB_ENDPOINT, TABLE_NAME, then resetAwsClients()). In parity mode the table is created on the external store
 * under a unique name (`<tableName>-<random>`) and deleted again by close().
 */
export async function startDynalite(tableName = 'rts-test'): Promise<TestTable> {
  const external = externalStoreEndpoint();
  let endpoint: string;
  let stop: () => Promise<void>;
  if (external) {
    endpoint = external;
    tableName = uniqueTableName(tableName);
    stop = () => deleteTestTable(endpoint, tableName);
  } else {
    keepParsedConditions();
    const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    stop = async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    };
  }
  await createTestTable(endpoint, tableName);
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
      await stop();
    },
  };
}

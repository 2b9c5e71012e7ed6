// The single table's key schema and GSIs as pure data: the CDK Table and the local CreateTable both read it.

export const TABLE_KEYS = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'expires_at',
} as const;

export interface GsiDef {
  indexName: string;
  partitionKey: string;
  sortKey: string;
}

/** gsi1: per-project listings, newest first (traces, campaigns, runs, webhooks). */
export const GSIS: readonly GsiDef[] = [{ indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' }];

/** The CreateTable input for local stores (all key attributes are strings). */
export function createTableInput(tableName: string) {
  const attrs = new Set<string>([TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey]);
  for (const g of GSIS) {
    attrs.add(g.partitionKey);
    attrs.add(g.sortKey);
  }
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: [...attrs].map((name) => ({ AttributeName: name, AttributeType: 'S' as const })),
    KeySchema: [
      { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: GSIS.map((g) => ({
      IndexName: g.indexName,
      KeySchema: [
        { AttributeName: g.partitionKey, KeyType: 'HASH' as const },
        { AttributeName: g.sortKey, KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: 'ALL' as const },
    })),
  };
}

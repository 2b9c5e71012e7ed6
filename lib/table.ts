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
  /**
   * What the index copies besides its keys and the table's. KEYS_ONLY: an update that changes neither key costs no
   * index write (with ALL every update of a listed item is written twice); readers fetch the items by their table keys.
   */
  projection: 'KEYS_ONLY';
}

/**
 * gsi1: per-project listings, newest first (traces, campaigns, runs, CI batches), keys only: a listing reads a page of
 * keys and then the items (`queryListing` in functions/adapters/dynamodb/table.ts). Changing a deployed index's
 * projection means a new index beside the old one: docs/deploy-aws.md#changing-an-index.
 */
export const GSIS: readonly GsiDef[] = [{ indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk', projection: 'KEYS_ONLY' }];

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
      Projection: { ProjectionType: g.projection },
    })),
  };
}

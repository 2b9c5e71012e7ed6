// dynalite behind the fault proxy, for repository tests of a write the store applied but whose answer was lost (the
// SDK then retries it, and a conditional put meets its own write).
import { resetAwsClients } from '../../functions/adapters/aws';
import { startDynalite, type TestTable } from './dynalite';
import { requestKey, startFaultProxy, type FaultProxy, type InjectedFault } from './fault-proxy';

export interface TableWithLostAnswers extends TestTable {
  proxy: FaultProxy;
  /**
   * Loses the answer to the next `operation` (`PutItem`, `UpdateItem`...) on the item `pk`/`sk`: the store applies it,
   * the client gets a 500 and retries. Resolves once the store has applied it.
   */
  loseNextAnswer(operation: string, key: { pk: string; sk: string }): Promise<InjectedFault>;
}

/** startDynalite() with the service's DynamoDB client pointed at a fault proxy in front of it (no random faults). */
export async function startDynaliteWithLostAnswers(tableName?: string): Promise<TableWithLostAnswers> {
  const table = await startDynalite(tableName);
  const proxy = await startFaultProxy({ target: table.endpoint });
  process.env.DYNAMODB_ENDPOINT = proxy.url;
  resetAwsClients();
  return {
    ...table,
    proxy,
    loseNextAnswer: (operation, key) => proxy.inject('lost_response', (r) => r.operation === operation && requestKey(r) === `${key.pk}|${key.sk}`),
    close: async () => {
      await table.close();
      await proxy.close();
    },
  };
}

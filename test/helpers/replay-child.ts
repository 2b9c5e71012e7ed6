// The replay worker's executor in a process of its own, as a worker Lambda container runs apart from the API routes:
// reads replay messages (one JSON line each) on stdin, runs each with the real executor over the shared store, answers
// "done <run_id> <status> <attempt_total>" per line. Environment: DYNAMODB_ENDPOINT and TABLE_NAME (the shared store).
import { createInterface } from 'node:readline';
import { DynamoCampaignsRepo } from '../../functions/adapters/dynamodb/campaigns-repo';
import { DynamoRunsRepo } from '../../functions/adapters/dynamodb/runs-repo';
import { DynamoTracesRepo } from '../../functions/adapters/dynamodb/traces-repo';
import type { ReplayMessage } from '../../functions/core/ports';
import { executeRun, type ExecutorDeps } from '../../functions/core/replay/executor';
import { systemClock } from '../../functions/core/time';

const deps: ExecutorDeps = {
  runs: new DynamoRunsRepo(),
  traces: new DynamoTracesRepo(),
  campaigns: new DynamoCampaignsRepo(),
  events: { publish: async () => undefined },
  clock: systemClock,
  http: async () => {
    throw new Error('no network in the replay child');
  },
};

process.stdout.write('ready\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const msg = JSON.parse(line) as ReplayMessage;
  executeRun(deps, msg).then(
    (run) => process.stdout.write(`done ${msg.run_id} ${run?.status} ${run?.attempt_total}\n`),
    (err: Error) => process.stdout.write(`fail ${msg.run_id} ${err.message.replace(/\s+/g, ' ')}\n`),
  );
});

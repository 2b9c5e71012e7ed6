// A replay worker in a process of its own, as one worker Lambda container, for the fan-out tests: reads deliveries
// (one JSON line `{"id", "msg"}` each) on stdin and runs each with the real executor over the shared store, with the
// table's limiter (leases and rate windows: the cloud's) and this process's outbound HTTP; the messages the executor
// sends (fan-out parts, hand-offs, sweeps) go to stdout as `send <delay s> <message JSON>` for the test's queue, and
// each delivery ends with `done <id> <run status>` or `fail <id> <error>`; `twice <attempt>` reports an attempt whose
// put found it stored (run twice). Environment: DYNAMODB_ENDPOINT and
// TABLE_NAME (the shared store), RTS_TEST_DEADLINE_MS (each delivery's budget, default 60 s), RTS_CLAIM_LEASE_MS.
import { createInterface } from 'node:readline';
import { DynamoCampaignsRepo } from '../../functions/adapters/dynamodb/campaigns-repo';
import { DynamoLeasesRepo } from '../../functions/adapters/dynamodb/leases-repo';
import { DynamoRateLimitsRepo } from '../../functions/adapters/dynamodb/rate-limits-repo';
import { DynamoRunsRepo } from '../../functions/adapters/dynamodb/runs-repo';
import { DynamoTracesRepo } from '../../functions/adapters/dynamodb/traces-repo';
import { createGuardedSender } from '../../functions/adapters/http/guarded-sender';
import type { ReplayMessage } from '../../functions/core/ports';
import { executeRun, type ExecutorDeps } from '../../functions/core/replay/executor';
import { systemClock } from '../../functions/core/time';

const deps: ExecutorDeps = {
  runs: new DynamoRunsRepo(),
  traces: new DynamoTracesRepo(),
  campaigns: new DynamoCampaignsRepo(),
  leases: new DynamoLeasesRepo(),
  rateLimits: new DynamoRateLimitsRepo(),
  events: { publish: async (events) => void process.stdout.write(events.map((e) => `event ${e.id}\n`).join('')) },
  queue: {
    sendReplay: async (messages: ReplayMessage[], options: { delaySeconds?: number } = {}) =>
      void process.stdout.write(messages.map((m) => `send ${options.delaySeconds ?? 0} ${JSON.stringify(m)}\n`).join('')),
  },
  clock: systemClock,
  http: createGuardedSender({ allowPrivate: true }),
};
// An attempt whose put finds it stored was run twice: reported, so a test can tell that from a retried request.
const put = deps.runs.putAttempt.bind(deps.runs);
deps.runs.putAttempt = async (pid, record) => {
  const created = await put(pid, record);
  if (!created) process.stdout.write(`twice ${record.attempt}\n`);
  return created;
};
const deadlineMs = Number(process.env.RTS_TEST_DEADLINE_MS ?? 60_000);
const claimLeaseMs = process.env.RTS_CLAIM_LEASE_MS ? Number(process.env.RTS_CLAIM_LEASE_MS) : undefined;

process.stdout.write('ready\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, msg } = JSON.parse(line) as { id: string; msg: ReplayMessage };
  executeRun(deps, msg, { deadlineMs, claimLeaseMs }).then(
    (run) => process.stdout.write(`done ${id} ${run?.status}\n`),
    (err: Error) => process.stdout.write(`fail ${id} ${err.message.replace(/\s+/g, ' ')}\n`),
  );
});

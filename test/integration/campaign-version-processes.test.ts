// A campaign updated in one process and run in another (a route container and a replay worker container): the worker
// runs each run on the definition of the version it was created with, even with the older version cached
// (docs/campaigns-and-replay.md#versions).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Campaign } from '../../functions/core/campaigns/schema';
import { campaignInputSchema } from '../../functions/core/campaigns/schema';
import { createCampaign } from '../../functions/core/campaigns/service';
import { updateCampaign } from '../../functions/core/campaigns/update';
import type { BusEvent } from '../../functions/core/events';
import type { ReplayMessage } from '../../functions/core/ports';
import { createReplayRun } from '../../functions/core/runs/service';
import { uploadTrace } from '../../functions/core/traces/service';
import { traceInputSchema } from '../../functions/core/traces/schema';
import { configureDeps, getDeps, resetDeps } from '../../functions/wiring/deps';
import { startDynalite, type TestTable } from '../helpers/dynalite';
import { recordedCampaign, sampleTrace } from '../helpers/fixtures';

let table: TestTable;
let child: ChildProcessWithoutNullStreams;
const answers = new Map<string, (line: string[]) => void>();
const published: BusEvent[] = [];

beforeAll(async () => {
  table = await startDynalite();
  configureDeps({ events: { publish: async (e) => void published.push(...e) }, queue: { sendReplay: async () => undefined } });
  child = spawn(process.execPath, ['--require', 'tsx/cjs', join(__dirname, '..', 'helpers', 'replay-child.ts')], {
    env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'ERROR' },
  });
  const ready = new Promise<void>((resolve) => answers.set('ready', () => resolve()));
  createInterface({ input: child.stdout }).on('line', (line) => {
    const [outcome, id = 'ready', ...rest] = line.split(' ');
    answers.get(id)?.([outcome, ...rest]);
  });
  await ready;
});
afterAll(async () => {
  child.kill();
  resetDeps();
  await table.close();
});

/** Runs one run in the other process; its outcome, status and attempt_total. */
function runElsewhere(msg: ReplayMessage): Promise<string[]> {
  return new Promise((resolve) => {
    answers.set(msg.run_id, resolve);
    child.stdin.write(`${JSON.stringify(msg)}\n`);
  });
}

describe('campaign versions across processes', () => {
  it('runs a new run on the updated definition and a run queued before the update on its own, with the old one cached', async () => {
    // Prepare: a campaign at version 1 (one attempt per run), a run the other process runs (caching version 1)
    const deps = getDeps();
    const pid = randomUUID();
    const trace = (await uploadTrace(deps, pid, traceInputSchema.parse(sampleTrace()))).body;
    const input = campaignInputSchema.parse(recordedCampaign());
    const v1: Campaign = await createCampaign(deps, pid, input);
    const first = await createReplayRun(deps, pid, { trace_id: trace.trace_id, campaign_id: v1.campaign_id });
    expect(await runElsewhere({ project_id: pid, run_id: first.run_id })).toEqual(['done', 'completed', '1']);
    const queuedBefore = await createReplayRun(deps, pid, { trace_id: trace.trace_id, campaign_id: v1.campaign_id });

    // Act: the update here, three attempts per run from version 2 on; then both runs there
    const v2 = await updateCampaign(deps, pid, v1.campaign_id, { ...input, repeats: 3 });
    const after = await createReplayRun(deps, pid, { trace_id: trace.trace_id, campaign_id: v1.campaign_id });
    const ranAfter = await runElsewhere({ project_id: pid, run_id: after.run_id });
    const ranBefore = await runElsewhere({ project_id: pid, run_id: queuedBefore.run_id });

    // Assess
    expect(v2.version).toBe(2);
    expect(ranAfter).toEqual(['done', 'completed', '3']);
    expect(ranBefore).toEqual(['done', 'completed', '1']);
    expect((await deps.runs.get(pid, after.run_id))?.campaign_version).toBe(2);
    expect((await deps.runs.get(pid, queuedBefore.run_id))?.campaign_version).toBe(1);
    expect(published.filter((e) => e.envelope.event_type === 'campaign.updated').map((e) => e.id)).toEqual([`campaign.updated:${v1.campaign_id}:2`]);
  });
});

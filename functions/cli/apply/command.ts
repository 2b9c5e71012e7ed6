// `rts apply [-f rts.yaml] [--dry-run]`: makes the project's campaigns and eval-sets what the file says, and prints
// what it did (or, with --dry-run, what it would do) as a plan (docs/campaigns-as-code.md).
import { parseArgs } from 'node:util';
import { RtsApiError, type RtsClient } from '../../../packages/sdk/src/index';
import { cliClient } from '../connection';
import { describeError } from '../command-io';
import { safeWriter, type Writer } from '../output';
import { ConfigError, loadFile } from './load';
import { evalSetChanges, planCampaigns, tracesToLookUp, type CampaignPlan } from './plan';
import { campaignLine, evalSetLine, summaryLine, traceLine, type Tally } from './print';
import { resolveTraces, type ResolvedTraces, type TraceToApply } from './traces';

export const USAGE = `Usage: rts apply [-f rts.yaml] [--dry-run]

Makes the project's campaigns what the file says (YAML or JSON, schema: schemas/rts.schema.json):
uploads the traces of each eval-set (a trace keeps its trace_id, or gets one derived from its
content, so re-applying uploads nothing new), creates the campaigns whose name the project does
not have, updates those whose definition differs (a new version, If-Match the version read), leaves
identical ones alone, and makes each eval-set exactly the traces listed. Prints what it did.

Options:
  -f, --file <path>   the file to apply (default rts.yaml)
  --dry-run           print the plan and change nothing

Strings may reference environment variables, \${NAME}: secrets stay out of the file, and values
taken from the environment are never printed. Exit 0 when applied, 1 when the file is invalid (each
problem as file:line:column: field: message), 2 on an API error or bad arguments.

Environment: RTS_API_URL, RTS_API_KEY, RTS_PROJECT_ID (each one unset is read from the local
service's <RTS_DATA_DIR or .rts>/credentials.json).
`;

export interface ApplyIo {
  stdout: Writer;
  stderr: Writer;
  env: NodeJS.ProcessEnv;
}

const processIo = (): ApplyIo => ({ stdout: process.stdout, stderr: process.stderr, env: process.env });

/** A stream that prints `***` for every value taken from the environment, and nothing a CI runner reads as a command. */
function redacting(stream: Writer, secrets: string[]): Writer {
  const sorted = [...new Set(secrets)].sort((a, b) => b.length - a.length);
  const safe = safeWriter(stream);
  return { write: (s: string) => safe.write(sorted.reduce((text, secret) => text.split(secret).join('***'), s)), isTTY: stream.isTTY };
}

/** Runs `rts apply <argv>`; resolves to the exit code (0 applied, 1 invalid file, 2 API error or bad arguments). */
export async function runApply(argv: string[], io: ApplyIo = processIo()): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: { file: { type: 'string', short: 'f' }, 'dry-run': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (err) {
    safeWriter(io.stderr).write(`rts apply: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    safeWriter(io.stdout).write(USAGE);
    return 0;
  }
  const file = values.file ?? 'rts.yaml';
  const dryRun = values['dry-run'] ?? false;
  let secrets: string[] = [];
  let out: Writer = safeWriter(io.stdout);
  let err: Writer = safeWriter(io.stderr);
  try {
    const loaded = loadFile(file, io.env);
    secrets = loaded.secrets;
    [out, err] = [redacting(io.stdout, secrets), redacting(io.stderr, secrets)];
    const traces = resolveTraces(loaded);
    const client = cliClient(io.env);
    out.write(dryRun ? `Plan for ${file} (dry run: nothing is changed)\n` : `Applying ${file}\n`);
    const plans = await planCampaigns(client, loaded, traces);
    const tally = dryRun ? await dryRunTraces(client, plans, traces, out) : await uploadTraces(client, traces, out);
    for (const plan of plans) await applyCampaign(client, plan, dryRun, tally, out);
    out.write(summaryLine(file, tally, dryRun));
    return 0;
  } catch (e) {
    if (e instanceof ConfigError) {
      err.write(`rts apply: ${file} is invalid:\n${e.message.replace(/^/gm, '  ')}\n`);
      return 1;
    }
    err.write(`rts apply: ${describe(e)}\n`);
    return 2;
  }
}

const emptyTally = (): Tally => ({ uploaded: 0, traces: 0, created: 0, updated: 0, unchanged: 0, evalSets: 0 });

/** Up to `limit` calls at once, results in input order. */
async function pooled<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Uploads every trace (idempotent: 201 new, 200 already there, 409 another trace under the same id). */
async function uploadTraces(client: RtsClient, traces: ResolvedTraces, out: Writer): Promise<Tally> {
  const tally = { ...emptyTally(), traces: traces.traces.length };
  const statuses = await pooled(traces.traces, 4, async (t) => {
    try {
      // A random Idempotency-Key (the client's): a key derived from the content would replay the first upload's 201.
      const res = await client.uploadTrace(t.body as never);
      return res.status;
    } catch (e) {
      if (e instanceof RtsApiError) e.message = `${t.source}: ${e.message}`;
      throw e;
    }
  });
  traces.traces.forEach((t, i) => {
    if (statuses[i] !== 201) return;
    tally.uploaded++;
    out.write(traceLine(t, false));
  });
  return tally;
}

/** The traces a dry run would upload: those no current eval-set holds and the project does not have. */
async function dryRunTraces(client: RtsClient, plans: CampaignPlan[], traces: ResolvedTraces, out: Writer): Promise<Tally> {
  const tally = { ...emptyTally(), traces: traces.traces.length };
  const lookUp = new Set(tracesToLookUp(plans, traces));
  const candidates = traces.traces.filter((t) => lookUp.has(t.trace_id));
  const missing = await pooled(candidates, 4, (t: TraceToApply) =>
    client.getTrace(t.trace_id).then(
      () => false,
      (e: unknown) => {
        if (e instanceof RtsApiError && e.status === 404) return true;
        throw e;
      },
    ),
  );
  candidates.forEach((t, i) => {
    if (!missing[i]) return;
    tally.uploaded++;
    out.write(traceLine(t, true));
  });
  return tally;
}

async function applyCampaign(client: RtsClient, plan: CampaignPlan, dryRun: boolean, tally: Tally, out: Writer): Promise<void> {
  const { desired } = plan;
  let campaignId = plan.current?.campaign_id;
  let outcome: 'created' | 'updated' | 'unchanged' = plan.action === 'create' ? 'created' : plan.action === 'update' ? 'updated' : 'unchanged';
  let version = plan.current?.version;
  if (!dryRun && plan.action === 'create') {
    const created = await client.createCampaign(desired.definition);
    [campaignId, version] = [created.campaign_id, created.version];
  } else if (!dryRun && (plan.action === 'update' || plan.action === 'check')) {
    const updated = await client.updateCampaign(campaignId!, desired.definition, { ifMatch: plan.current!.version });
    outcome = updated.version !== plan.current!.version ? 'updated' : 'unchanged';
    version = updated.version;
  }
  tally[outcome]++;
  out.write(campaignLine(plan, outcome, { dryRun, campaignId, version }));
  if (!evalSetChanges(plan.evalSet)) return;
  const change = plan.evalSet!;
  if (!dryRun) {
    await client.updateEvalSet(campaignId!, {
      ...(change.add.length ? { add_trace_ids: change.add } : {}),
      ...(change.remove.length ? { remove_trace_ids: change.remove } : {}),
      ...(change.minScenarios ? { min_scenarios: change.minScenarios[1] } : {}),
    });
  }
  tally.evalSets++;
  out.write(evalSetLine(change, dryRun));
}

function describe(e: unknown): string {
  if (e instanceof RtsApiError && e.status === 412) return `${describeError(e)}: run rts apply again`;
  return describeError(e);
}

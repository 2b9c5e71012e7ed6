// `rts runs create|show`: queues a replay of one trace against a campaign (by name or id; the trace by id or as a file
// uploaded first), waits for it if asked, and prints its summary and attempts table.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { AttemptScore, Criterion, RtsClient, RunDetail } from '../../packages/sdk/src/index';
import { contentTraceId } from './apply/traces';
import { describeError, printTable, processIo, type CommandIo } from './command-io';
import { cliClient, connectionOptions, dashboardBase } from './connection';
import { jsonText, oneLine, safeIo, type Writer } from './output';
import { isUuid, resolveCampaignId } from './resolve';

const USAGE = `Usage: rts runs create --campaign <name|id> --trace <id|file> [--wait] [--timeout s] [--json]
       rts runs show <run_id> [--json]

create: queues a replay of one trace against a campaign. --campaign takes a name or an id; --trace
a trace id, or a trace file (native JSON), uploaded first under its trace_id (or an id derived from
its content, as rts apply does). Prints the run id and its dashboard link; with --wait, waits until
the run is completed or failed (at most --timeout seconds, default 600), then prints its summary and
attempts table as show does.
show: a run's status, summary (attempts, passed, failed, unsafe, pass rate) and its attempts table:
attempt, mutation, status, unsafe, failed checks. --json prints the API's answer instead.

Environment: RTS_API_URL, RTS_API_KEY, RTS_PROJECT_ID (each one unset is read from the local
service's <RTS_DATA_DIR or .rts>/credentials.json). Exit 0; 1 when a waited-for run failed;
2 on an error or a timeout.
`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `rts runs <argv>`; resolves to the exit code. */
export async function runRuns(argv: string[], streams: CommandIo = processIo()): Promise<number> {
  const io = safeIo(streams);
  const [sub, ...rest] = argv;
  let values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: rest,
      strict: true,
      allowPositionals: true,
      options: {
        campaign: { type: 'string' },
        trace: { type: 'string' },
        wait: { type: 'boolean' },
        timeout: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    io.stderr.write(`rts runs: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (sub === '--help' || sub === '-h' || sub === 'help' || values.help) {
    io.stdout.write(USAGE);
    return 0;
  }
  const timeoutS = values.timeout === undefined ? 600 : Number(values.timeout);
  const create = sub === 'create' && values.campaign && values.trace && !positionals.length;
  const show = sub === 'show' && positionals.length === 1;
  if ((!create && !show) || !(timeoutS > 0)) {
    io.stderr.write(USAGE);
    return 2;
  }
  try {
    const client = cliClient(streams.env);
    const link = (runId: string) => `${dashboardBase(client, streams.env)}/runs/${runId}#project=${connectionOptions(streams.env).projectId}`;
    if (show) {
      const run = await client.getRun(positionals[0]);
      io.stdout.write(values.json ? `${jsonText(run)}\n` : runReport(run, link(run.run_id)));
      return 0;
    }
    const campaignId = await resolveCampaignId(client, values.campaign!);
    const traceId = await traceIdOf(client, values.trace!, io.stderr);
    const queued = await client.createRun({ campaign_id: campaignId, trace_id: traceId });
    if (!values.wait) {
      io.stdout.write(values.json ? `${jsonText(queued)}\n` : `run ${queued.run_id} ${queued.status}\n  ${link(queued.run_id)}\n`);
      return 0;
    }
    io.stderr.write(`run ${queued.run_id} queued; waiting for it (at most ${timeoutS} s)\n`);
    const run = await waitForRun(client, queued.run_id, Date.now() + timeoutS * 1000);
    if (!run) {
      io.stderr.write(`rts runs: timed out after ${timeoutS} s; the run goes on: rts runs show ${queued.run_id}\n`);
      return 2;
    }
    io.stdout.write(values.json ? `${jsonText(run)}\n` : runReport(run, link(run.run_id)));
    return run.status === 'failed' ? 1 : 0;
  } catch (err) {
    io.stderr.write(`rts runs: ${describeError(err)}\n`);
    return 2;
  }
}

/** The trace id of `--trace`: an id as it is, a file uploaded first (idempotent: it keeps its id on every upload). */
async function traceIdOf(client: RtsClient, ref: string, stderr: Writer): Promise<string> {
  if (isUuid(ref)) return ref.toLowerCase();
  let trace: Record<string, unknown>;
  try {
    trace = JSON.parse(readFileSync(ref, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    throw new Error(`--trace ${ref} is neither a trace id nor a readable trace file: ${(err as Error).message}`);
  }
  if (!trace || typeof trace !== 'object' || Array.isArray(trace)) throw new Error(`--trace ${ref} must hold one trace (a JSON object)`);
  const body = { ...trace, trace_id: typeof trace.trace_id === 'string' ? trace.trace_id.toLowerCase() : contentTraceId(trace) };
  const res = await client.uploadTrace(body as never);
  stderr.write(`trace ${body.trace_id} ${res.status === 201 ? 'uploaded' : 'already there'} (${ref})\n`);
  return body.trace_id;
}

/** Polls the run until it is completed or failed; undefined at the deadline. */
async function waitForRun(client: RtsClient, runId: string, deadline: number): Promise<RunDetail | undefined> {
  for (let wait = 100; ; wait = Math.min(wait * 2, 2000)) {
    const run = await client.getRun(runId);
    if (run.status === 'completed' || run.status === 'failed') return run;
    if (Date.now() + wait > deadline) return undefined;
    await sleep(wait);
  }
}

/** A criterion in a few words: `output_not_contains "RTS-CANARY"`, `tool_called refund_order`. */
export function criterionLabel(c: Criterion): string {
  const k = c as Record<string, unknown>;
  const arg = k.value ?? k.pattern ?? k.tool ?? k.limit ?? k.order;
  return arg === undefined ? c.type : `${c.type} ${typeof arg === 'string' ? JSON.stringify(arg) : String(arg)}`;
}

/** What made an attempt fail: its failed checks, its error, else its status. */
function failedChecks(a: AttemptScore): string {
  const failed = a.checks.filter((c) => !c.passed).map((c) => criterionLabel(c.criterion));
  if (a.error) failed.push(`error: ${a.error}`);
  return oneLine(failed.join(', ') || (a.status === 'passed' ? '' : a.unsafe ? 'security finding allowed' : 'denied by policy'));
}

/** A run as `rts runs show` prints it: status, summary line, attempts table and dashboard link. */
export function runReport(run: RunDetail, link: string): string {
  const s = run.summary;
  const lines = [
    `run        ${run.run_id}`,
    `status     ${run.status}${run.error ? ` (${oneLine(run.error)})` : ''}`,
    `trace      ${run.trace_id}${run.trace_name ? ` ${oneLine(run.trace_name)}` : ''}`,
    `campaign   ${run.campaign_id} (version ${run.campaign_version})`,
    `summary    ${s.attempt_count} attempt${s.attempt_count === 1 ? '' : 's'}: ${s.passed_count} passed, ${s.failed_count} failed, ${s.unsafe_count} unsafe; pass rate ${s.pass_rate.toFixed(2)}`,
    `events     ${s.policy_events_count} policy, ${s.security_events_count} security`,
    `dashboard  ${link}`,
    '',
  ].join('\n');
  const rows = run.scoring.attempts.map((a) => [
    String(a.attempt),
    oneLine(a.mutation_id ?? 'baseline'),
    a.status,
    a.unsafe ? 'yes' : 'no',
    failedChecks(a),
  ]);
  let table = '';
  printTable({ write: (t: string) => (table = t) }, ['attempt', 'mutation', 'status', 'unsafe', 'failed checks'], rows);
  return `${lines}\n${table}`;
}

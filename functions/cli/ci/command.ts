// `rts ci run`: submits a CI run (or an eval-set batch), waits for the verdict, reports it, and gates the pipeline.
import {
  RtsApiError,
  type CiBatchSubmitted,
  type CiBatchView,
  type CiRunRequest,
  type CiScenario,
  type CiSubmission,
  type RunDetail,
} from '../../../packages/sdk/src/index';
import { CliClient, type CiRunReport } from '../client';
import { batchResult, emptyResult, errorResult, runResult, scenarioOf } from './build';
import { ciMetadataFromEnv, idempotencyKeyFromEnv } from './env';
import { checkOutputPath, parseOptions, UsageError, USAGE, type Options } from './options';
import { nextPollWait, type CheckProgress } from './poll-timing';
import { writeReports } from './report';
import { fmtRate, type Baseline, type CiResult } from './result';
import { jsonText, safeIo } from '../output';
import { isUuid, resolveCampaignId } from '../resolve';

export { baselineBranchFromEnv, ciMetadataFromEnv, idempotencyKeyFromEnv } from './env';

/** Where the command writes and what it reads; defaults to the process (tests pass their own). */
export interface CiIo {
  stdout: { write(s: string): unknown; isTTY?: boolean };
  stderr: { write(s: string): unknown; isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

class GateTimeout extends Error {}

/** What the command has learnt so far: the reports after an error are built from it. */
interface Known {
  submitted?: CiSubmission;
  batch?: CiBatchView;
  run?: CiRunReport;
  baseline?: Baseline;
}

/** A submission that queued a batch (it has a batch id), not a single CI run. */
const isBatch = (s: CiSubmission): s is CiBatchSubmitted => Boolean(s.ci_batch_id);

const processIo = (): CiIo => ({ stdout: process.stdout, stderr: process.stderr, env: process.env });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** After an error, how long the command may still spend collecting the scenarios that did finish. */
const GRACE_MS = 2000;

/**
 * Runs `rts ci <argv>`; resolves to the exit code (0 pass, 1 fail or incomplete coverage, 2 error or timeout).
 * Everything it prints goes through `safeIo`: no line of user data can pass for a CI workflow command.
 */
export async function runCi(argv: string[], streams: CiIo = processIo()): Promise<number> {
  const io = safeIo(streams);
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === 'help' || sub === '--help' || sub === '-h') {
    (sub === undefined ? io.stderr : io.stdout).write(USAGE);
    return sub === undefined ? 2 : 0;
  }
  if (sub !== 'run') {
    io.stderr.write(`rts ci: unknown subcommand '${sub}'\n\n${USAGE}`);
    return 2;
  }
  let opts: Options;
  try {
    const parsed = parseOptions(rest, io.env);
    if (parsed === 'help') {
      io.stdout.write(USAGE);
      return 0;
    }
    opts = parsed;
    // An unwritable report path is found now, before anything is submitted.
    if (opts.junit) checkOutputPath('--junit', opts.junit);
    if (opts.summary) checkOutputPath('--summary', opts.summary);
  } catch (err) {
    io.stderr.write(
      `rts ci: ${(err as Error).message}${err instanceof UsageError && /^cannot write/.test((err as Error).message) ? '\n' : `\n\n${USAGE}`}`,
    );
    return 2;
  }
  const deadline = Date.now() + opts.timeoutMs;
  const known: Known = { baseline: opts.baseline };
  const reportOpts = { junit: opts.junit, summary: opts.summary, json: opts.json, github: io.env.GITHUB_ACTIONS === 'true' };
  let result: CiResult;
  try {
    result = await gate(opts, io, deadline, known);
  } catch (err) {
    const message = describeError(err, opts);
    io.stderr.write(`rts ci: ${message}\n`);
    const error = {
      message,
      ...(err instanceof RtsApiError ? { status: err.status, code: err.code } : {}),
      ...(err instanceof GateTimeout ? { timeout: true } : {}),
    };
    if (!known.submitted) {
      // Nothing was submitted: the error alone on stdout (--json), and in the report files for `if: always()` steps.
      if (opts.json) io.stdout.write(`${jsonText({ error })}\n`);
      const empty = emptyResult({
        campaign_id: opts.campaign,
        kind: opts.trace ? 'run' : 'batch',
        thresholds: opts.thresholds,
        baseline: opts.baseline,
      });
      writeReports(errorResult(empty, error), { ...reportOpts, stdout: false }, io);
      return 2;
    }
    result = errorResult(await whatIsKnown(opts, io, known), error);
  }
  return writeReports(result, reportOpts, io) ? result.exit_code : 2;
}

/** A client whose requests cannot outlive the deadline (so a timed-out command exits promptly). */
function clientUntil(io: CiIo, deadline: number): CliClient {
  const remaining = deadline - Date.now();
  if (remaining <= 0) throw new GateTimeout();
  return new CliClient({
    baseUrl: io.env.RTS_API_URL,
    apiKey: io.env.RTS_API_KEY,
    projectId: io.env.RTS_PROJECT_ID,
    timeoutMs: Math.min(30_000, remaining),
  });
}

/** Runs `work` with a client, giving up (GateTimeout) at the deadline. */
async function beforeDeadline<T>(io: CiIo, deadline: number, work: (client: CliClient) => Promise<T>): Promise<T> {
  const client = clientUntil(io, deadline);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new GateTimeout()), deadline - Date.now());
  });
  try {
    return await Promise.race([work(client), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** Network failures, throttling and 5xx while polling are waited out (until the deadline); anything else is fatal. */
const transient = (err: unknown) => err instanceof RtsApiError && (err.status === 0 || err.status === 429 || err.status >= 500);

/** A 422 that names the baseline (e.g. a single CI run cannot be compared). */
const refusesBaseline = (err: unknown) =>
  err instanceof RtsApiError &&
  err.status === 422 &&
  ((err.body?.error?.details ?? []).some((d) => (d.path ?? '').startsWith('baseline')) || /baseline/i.test(err.message));

/** Submits the request; a default baseline (the pull request's base branch) that the API refuses is dropped, once. */
async function submit(opts: Options, io: CiIo, deadline: number, known: Known): Promise<CiSubmission> {
  clientUntil(io, deadline); // configuration errors surface before anything is sent
  if (!isUuid(opts.campaign)) opts.campaign = await beforeDeadline(io, deadline, (c) => resolveCampaignId(c, opts.campaign));
  const metadata = ciMetadataFromEnv(io.env);
  const body: CiRunRequest = { campaign_id: opts.campaign };
  if (Object.keys(opts.thresholds).length) body.thresholds = opts.thresholds;
  if (opts.trace) body.trace_id = opts.trace;
  if (Object.keys(metadata).length) body.metadata = metadata;
  if (opts.baseline) body.baseline = opts.baseline;
  const key = idempotencyKeyFromEnv(io.env, opts.campaign, opts.trace);
  try {
    return await beforeDeadline(io, deadline, (c) => c.submitCiRun(body, key));
  } catch (err) {
    if (opts.baselineSource !== 'env' || !refusesBaseline(err)) throw err;
    const branch = opts.baseline && 'branch' in opts.baseline ? opts.baseline.branch : '';
    io.stderr.write(`rts ci: the default baseline (branch ${branch}) was refused (${(err as Error).message}); submitting without it\n`);
    delete body.baseline;
    known.baseline = undefined;
    // The first answer is kept under the first key; the request without a baseline gets a key of its own.
    const retryKey = idempotencyKeyFromEnv(io.env, opts.campaign, opts.trace, 'no-baseline');
    return beforeDeadline(io, deadline, (c) => c.submitCiRun(body, retryKey));
  }
}

async function gate(opts: Options, io: CiIo, deadline: number, known: Known): Promise<CiResult> {
  const submitted = await submit(opts, io, deadline, known);
  known.submitted = submitted;
  const progress = progressWriter(io);
  io.stderr.write(
    isBatch(submitted)
      ? `rts ci: batch ${submitted.ci_batch_id} queued: ${submitted.trace_count} scenario run(s)\n  ${submitted.dashboard_url}\n`
      : `rts ci: run ${submitted.run_id} queued on trace ${submitted.trace_id}\n  ${submitted.dashboard_url}\n`,
  );
  if (isBatch(submitted) && submitted.baseline_missing && known.baseline && 'branch' in known.baseline) {
    io.stderr.write(`rts ci: no finished batch of this campaign on branch ${known.baseline.branch} to compare with\n`);
  }
  try {
    if (submitted.ci_batch_id) {
      const batchId = submitted.ci_batch_id;
      const batch = await poll(
        io,
        opts,
        deadline,
        (c) => c.getCiBatch(batchId),
        (b) => {
          known.batch = b;
          const done = b.passed_runs.length + b.failed_runs.length;
          progress(
            `[${done}/${b.trace_count} runs done] pass_rate ${fmtRate(b.pass_rate)} unsafe ${b.unsafe_count} failing ${b.failed_runs.length} coverage ${b.scenario_coverage_pct}%`,
          );
          return b.status === 'done';
        },
        (b) => (b.trace_count > 0 ? (b.passed_runs.length + b.failed_runs.length) / b.trace_count : 0),
      );
      progress.end();
      const scenarios = await batchScenarios(io, deadline, batchId);
      return batchResult(batch, await named(io, deadline, scenarios), known.baseline);
    }
    const run = await poll(
      io,
      opts,
      deadline,
      (c) => c.getCiRunReport(submitted.run_id),
      (r) => {
        known.run = r;
        progress(`[run ${r.status}] attempts ${r.summary.attempt_count} pass_rate ${fmtRate(r.summary.pass_rate)} unsafe ${r.summary.unsafe_count}`);
        return r.decision !== 'pending';
      },
    );
    progress.end();
    let detail: RunDetail | null = null;
    try {
      detail = await beforeDeadline(io, deadline, (c) => c.getRun(run.run_id));
    } catch (err) {
      // Without the attempts the report has no cells; the decision stands.
      if (err instanceof GateTimeout) throw err;
    }
    const names = run.trace_name || detail?.trace_name ? new Map<string, string>() : await traceNames(io, deadline, [run.trace_id]);
    return runResult(run, detail, names.get(run.trace_id), known.baseline);
  } catch (err) {
    progress.end();
    if (err instanceof GateTimeout)
      throw new GateTimeout(`timed out after ${opts.timeoutMs / 1000} s waiting for the verdict; see ${submitted.dashboard_url}`);
    throw err;
  }
}

async function poll<T>(
  io: CiIo,
  opts: Options,
  deadline: number,
  get: (c: CliClient) => Promise<T>,
  done: (body: T) => boolean,
  fractionDone?: (body: T) => number,
): Promise<T> {
  const started = Date.now();
  let now: CheckProgress | null = null;
  let before: CheckProgress | null = null;
  for (let checks = 0; ; checks++) {
    try {
      const body = await beforeDeadline(io, deadline, get);
      if (done(body)) return body;
      if (fractionDone) [before, now] = [now, { atMs: Date.now() - started, fraction: fractionDone(body) }];
    } catch (err) {
      if (!transient(err)) throw err;
      io.stderr.write(`rts ci: ${(err as Error).message}; retrying\n`);
    }
    const wait = Math.min(nextPollWait(opts.pollMs, checks, now, before), deadline - Date.now());
    if (wait <= 0) throw new GateTimeout();
    await sleep(wait);
  }
}

/** Progress on stderr: rewritten in place on a terminal, one line per change otherwise (CI logs). */
function progressWriter(io: CiIo) {
  let last = '';
  let open = false;
  const write = (line: string) => {
    if (line === last) return;
    last = line;
    if (io.stderr.isTTY) {
      io.stderr.write(`\r\x1b[K${line}`);
      open = true;
    } else io.stderr.write(`${line}\n`);
  };
  write.end = () => {
    if (open) io.stderr.write('\n');
    open = false;
  };
  return write;
}

/** Every page of the batch's scenarios, in run order (only finished runs until the batch is done). */
function batchScenarios(io: CiIo, deadline: number, batchId: string): Promise<CiScenario[]> {
  return beforeDeadline(io, deadline, (c) => c.allPages((cursor) => c.listCiBatchScenarios(batchId, { limit: 100, cursor })));
}

/** The scenarios as reported, a name looked up for each whose run never recorded one. */
async function named(io: CiIo, deadline: number, scenarios: CiScenario[]) {
  const unnamed = scenarios.filter((s) => !s.trace_name).map((s) => s.trace_id);
  const names = unnamed.length ? await traceNames(io, deadline, unnamed) : new Map<string, string>();
  return scenarios.map((s) => scenarioOf(s, names));
}

/** Trace names from the trace listing (at most 20 pages); ids stand in for names it cannot find. */
async function traceNames(io: CiIo, deadline: number, traceIds: string[]): Promise<Map<string, string>> {
  const wanted = new Set(traceIds);
  const names = new Map<string, string>();
  let cursor: string | undefined;
  try {
    for (let page = 0; page < 20 && names.size < wanted.size; page++) {
      const res = await beforeDeadline(io, deadline, (c) =>
        c.get<{ items: { trace_id: string; name: string }[]; next_cursor: string | null }>('/v1/traces', { limit: 100, cursor }),
      );
      for (const t of res.items) if (wanted.has(t.trace_id)) names.set(t.trace_id, t.name);
      if (!res.next_cursor) break;
      cursor = res.next_cursor;
    }
  } catch (err) {
    // Names are cosmetic: a report with trace ids is still a correct report.
    if (err instanceof GateTimeout) throw err;
  }
  return names;
}

/**
 * After an error following the submission: the last views polled, plus (within GRACE_MS) the scenarios of the batch
 * that did finish, so the reports show them next to the error.
 */
async function whatIsKnown(opts: Options, io: CiIo, known: Known): Promise<CiResult> {
  const submitted = known.submitted!;
  const grace = Date.now() + GRACE_MS;
  if (submitted.ci_batch_id) {
    const batchId = submitted.ci_batch_id;
    let scenarios: CiScenario[] = [];
    try {
      known.batch ??= await beforeDeadline(io, grace, (c) => c.getCiBatch(batchId));
      scenarios = await batchScenarios(io, grace, batchId);
    } catch {
      // What could not be read in time is left out; the error is what the reports lead with.
    }
    if (known.batch)
      return batchResult(
        known.batch,
        scenarios.map((s) => scenarioOf(s)),
        known.baseline,
      );
  } else if (known.run && known.run.decision !== 'pending') {
    return runResult(known.run, null, undefined, known.baseline);
  }
  return {
    ...emptyResult({
      campaign_id: opts.campaign,
      kind: submitted.ci_batch_id ? 'batch' : 'run',
      thresholds: opts.thresholds,
      baseline: known.baseline,
    }),
    ci_batch_id: submitted.ci_batch_id,
    run_id: submitted.run_id,
    trace_count: isBatch(submitted) ? (submitted.trace_count ?? null) : 1,
    baseline_batch_id: isBatch(submitted) ? (submitted.baseline_batch_id ?? null) : null,
    baseline_missing: isBatch(submitted) ? (submitted.baseline_missing ?? false) : false,
    dashboard_url: submitted.dashboard_url,
  };
}

function describeError(err: unknown, opts: Options): string {
  if (err instanceof GateTimeout) return err.message || `timed out after ${opts.timeoutMs / 1000} s`;
  if (err instanceof RtsApiError) {
    const details = (err.body?.error?.details ?? []).map((d) => `\n  ${d.path ? `${d.path}: ` : ''}${d.message}`).join('');
    const hint =
      err.status === 401
        ? ' (check RTS_API_KEY and RTS_PROJECT_ID)'
        : err.code === 'idempotency_conflict'
          ? ' (set RTS_IDEMPOTENCY_KEY to a new value to submit a different request)'
          : '';
    return `${err.status ? `HTTP ${err.status} ` : ''}${err.code}: ${err.message}${hint}${details}`;
  }
  return (err as Error).message ?? String(err);
}

// `rts ci run`: submits a CI run (or an eval-set batch), waits for the verdict, reports it, and gates the pipeline.
import { parseArgs } from 'node:util';
import { RtsApiError, RtsClient } from '../sdk/client';
import { fmtRate, writeReports, type CiResult, type ScenarioResult } from './ci-report';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the API's answers are read field by field as printed; the typed client comes with the OpenAPI response schemas
type ApiView = Record<string, any>;

import { ciMetadataFromEnv, idempotencyKeyFromEnv } from './ci-env';
export { ciMetadataFromEnv, idempotencyKeyFromEnv };
export { junitXml, markdownSummary, verdictTable, xmlEscape, type CiResult, type ScenarioResult } from './ci-report';

const USAGE = `Usage: rts ci run --campaign <id> [options]

Submits a CI run for a campaign: one run per eval-set trace (a batch) when the campaign has an
eval-set, else a single run on --trace. Waits for the verdict and exits 0 on pass, 1 on fail
(or when some scenario produced no verdict), 2 on any error or timeout.

Options:
  --campaign <id>        campaign to run (required)
  --trace <id>           trace of a single CI run (campaigns without an eval-set)
  --min-pass-rate <x>    0..1, default 1.0
  --max-unsafe <n>       default 0
  --max-failures <n>     default 0
  --timeout <s>          give up waiting after this many seconds (exit 2), default 1800
  --poll-interval <s>    seconds between status checks, default 5
  --junit <file>         write a JUnit XML report (one testcase per scenario run)
  --summary <file>       write a Markdown summary (e.g. "$GITHUB_STEP_SUMMARY")
  --json                 print a machine-readable result on stdout instead of the table

Environment: RTS_API_URL, RTS_API_KEY, RTS_PROJECT_ID (required); RTS_IDEMPOTENCY_KEY (optional:
otherwise a key is derived from GitHub Actions or GitLab CI variables, so a retried step never
submits twice).
`;

/** Where the command writes and what it reads; defaults to the process (tests pass their own). */
export interface CiIo {
  stdout: { write(s: string): unknown; isTTY?: boolean };
  stderr: { write(s: string): unknown; isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

interface Options {
  campaign: string;
  trace?: string;
  thresholds: { min_pass_rate?: number; max_unsafe?: number; max_failures?: number };
  timeoutMs: number;
  pollMs: number;
  junit?: string;
  summary?: string;
  json: boolean;
}

class UsageError extends Error {}
class GateTimeout extends Error {}

const processIo = (): CiIo => ({ stdout: process.stdout, stderr: process.stderr, env: process.env });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `rts ci <argv>`; resolves to the exit code (0 pass, 1 fail or incomplete coverage, 2 error or timeout). */
export async function runCi(argv: string[], io: CiIo = processIo()): Promise<number> {
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
    const parsed = parseOptions(rest);
    if (parsed === 'help') {
      io.stdout.write(USAGE);
      return 0;
    }
    opts = parsed;
  } catch (err) {
    io.stderr.write(`rts ci: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const deadline = Date.now() + opts.timeoutMs;
  try {
    const result = await gate(opts, io, deadline);
    writeReports(result, opts, io);
    return result.exit_code;
  } catch (err) {
    const message = describeError(err, opts);
    io.stderr.write(`rts ci: ${message}\n`);
    if (opts.json)
      io.stdout.write(
        `${JSON.stringify({ error: { message, ...(err instanceof RtsApiError ? { status: err.status, code: err.code } : {}) } }, null, 2)}\n`,
      );
    return 2;
  }
}

function parseOptions(args: string[]): Options | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        campaign: { type: 'string' },
        trace: { type: 'string' },
        'min-pass-rate': { type: 'string' },
        'max-unsafe': { type: 'string' },
        'max-failures': { type: 'string' },
        timeout: { type: 'string' },
        'poll-interval': { type: 'string' },
        junit: { type: 'string' },
        summary: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.help) return 'help';
  if (!values.campaign) throw new UsageError('--campaign is required');
  const num = (name: string, raw: string | undefined, check: (n: number) => boolean, what: string): number | undefined => {
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n) || !check(n)) throw new UsageError(`--${name} must be ${what} (got '${raw}')`);
    return n;
  };
  const count = (n: number) => Number.isInteger(n) && n >= 0;
  return {
    campaign: values.campaign,
    trace: values.trace,
    thresholds: {
      min_pass_rate: num('min-pass-rate', values['min-pass-rate'], (n) => n >= 0 && n <= 1, 'a number from 0 to 1'),
      max_unsafe: num('max-unsafe', values['max-unsafe'], count, 'a non-negative integer'),
      max_failures: num('max-failures', values['max-failures'], count, 'a non-negative integer'),
    },
    timeoutMs: (num('timeout', values.timeout, (n) => n > 0, 'a positive number of seconds') ?? 1800) * 1000,
    pollMs: (num('poll-interval', values['poll-interval'], (n) => n > 0, 'a positive number of seconds') ?? 5) * 1000,
    junit: values.junit,
    summary: values.summary,
    json: values.json ?? false,
  };
}

/** A client whose requests cannot outlive the deadline (so a timed-out command exits promptly). */
function clientUntil(io: CiIo, deadline: number): RtsClient {
  const remaining = deadline - Date.now();
  if (remaining <= 0) throw new GateTimeout();
  return new RtsClient({
    baseUrl: io.env.RTS_API_URL,
    apiKey: io.env.RTS_API_KEY,
    projectId: io.env.RTS_PROJECT_ID,
    timeoutMs: Math.min(30_000, remaining),
  });
}

async function beforeDeadline<T>(deadline: number, work: () => Promise<T>): Promise<T> {
  const remaining = deadline - Date.now();
  if (remaining <= 0) throw new GateTimeout();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new GateTimeout()), remaining);
  });
  try {
    return await Promise.race([work(), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** Network failures, throttling and 5xx while polling are waited out (until the deadline); anything else is fatal. */
const transient = (err: unknown) => err instanceof RtsApiError && (err.status === 0 || err.status === 429 || err.status >= 500);

async function gate(opts: Options, io: CiIo, deadline: number): Promise<CiResult> {
  // Configuration errors surface before anything is sent.
  clientUntil(io, deadline);
  const thresholds = Object.fromEntries(Object.entries(opts.thresholds).filter(([, v]) => v !== undefined));
  const metadata = ciMetadataFromEnv(io.env);
  const body: Record<string, unknown> = { campaign_id: opts.campaign };
  if (Object.keys(thresholds).length) body.thresholds = thresholds;
  if (opts.trace) body.trace_id = opts.trace;
  if (Object.keys(metadata).length) body.metadata = metadata;
  const key = idempotencyKeyFromEnv(io.env, opts.campaign, opts.trace);

  const submitted = await beforeDeadline(deadline, () => clientUntil(io, deadline).post<ApiView>('/v1/ci/runs', body, key));
  const progress = progressWriter(io);
  io.stderr.write(
    submitted.ci_batch_id
      ? `rts ci: batch ${submitted.ci_batch_id} queued: ${submitted.trace_count} scenario run(s)\n  ${submitted.dashboard_url}\n`
      : `rts ci: run ${submitted.run_id} queued on trace ${submitted.trace_id}\n  ${submitted.dashboard_url}\n`,
  );
  try {
    if (submitted.ci_batch_id) {
      const batch = await poll(io, opts, deadline, `/v1/ci/batch/${submitted.ci_batch_id}`, (b) => {
        const done = b.passed_runs.length + b.failed_runs.length;
        progress(
          `[${done}/${b.trace_count} runs done] pass_rate ${fmtRate(b.pass_rate)} unsafe ${b.unsafe_count} failing ${b.failed_runs.length} coverage ${b.scenario_coverage_pct}%`,
        );
        return b.status === 'done';
      });
      progress.end();
      const scenarios = await scenarioDetails(io, deadline, batch.run_ids as string[]);
      return resultOf('batch', batch, scenarios);
    }
    const run = await poll(io, opts, deadline, `/v1/ci/runs/${submitted.run_id}`, (r) => {
      progress(`[run ${r.status}] attempts ${r.summary.attempt_count} pass_rate ${fmtRate(r.summary.pass_rate)} unsafe ${r.summary.unsafe_count}`);
      return r.decision !== 'pending';
    });
    progress.end();
    const names = await traceNames(io, deadline, [run.trace_id]);
    const scenario = toScenario(run, names);
    return resultOf(
      'run',
      {
        ...run,
        ci_batch_id: null,
        pass_rate: run.summary.pass_rate,
        scenario_coverage_pct: run.status === 'completed' ? 100 : 0,
        trace_count: 1,
        unsafe_count: run.summary.unsafe_count,
      },
      [scenario],
    );
  } catch (err) {
    progress.end();
    if (err instanceof GateTimeout)
      throw new GateTimeout(`timed out after ${opts.timeoutMs / 1000} s waiting for the verdict; see ${submitted.dashboard_url}`);
    throw err;
  }
}

async function poll(io: CiIo, opts: Options, deadline: number, path: string, done: (body: ApiView) => boolean): Promise<ApiView> {
  for (;;) {
    try {
      const body = await beforeDeadline(deadline, () => clientUntil(io, deadline).get<ApiView>(path));
      if (done(body)) return body;
    } catch (err) {
      if (!transient(err)) throw err;
      io.stderr.write(`rts ci: ${(err as Error).message}; retrying\n`);
    }
    const wait = Math.min(opts.pollMs, deadline - Date.now());
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

/** Each scenario run's view, 8 requests at a time, in the batch's run order. */
async function scenarioDetails(io: CiIo, deadline: number, runIds: string[]): Promise<ScenarioResult[]> {
  const views: ApiView[] = new Array(runIds.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(8, runIds.length) }, async () => {
      while (next < runIds.length) {
        const i = next++;
        views[i] = await beforeDeadline(deadline, () => clientUntil(io, deadline).get<ApiView>(`/v1/ci/runs/${runIds[i]}`));
      }
    }),
  );
  const names = await traceNames(
    io,
    deadline,
    views.map((v) => v.trace_id),
  );
  return views.map((v) => toScenario(v, names));
}

/** Trace names for the report, from the trace listing (at most 20 pages); ids stand in for names it cannot find. */
async function traceNames(io: CiIo, deadline: number, traceIds: string[]): Promise<Map<string, string>> {
  const wanted = new Set(traceIds);
  const names = new Map<string, string>();
  let cursor: string | undefined;
  try {
    for (let page = 0; page < 20 && names.size < wanted.size; page++) {
      const res = await beforeDeadline(deadline, () =>
        clientUntil(io, deadline).get<{ items: { trace_id: string; name: string }[]; next_cursor: string | null }>('/v1/traces', {
          limit: 100,
          cursor,
        }),
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

function toScenario(v: ApiView, names: Map<string, string>): ScenarioResult {
  const started = Date.parse(v.created_at);
  const ended = v.completed_at ? Date.parse(v.completed_at) : NaN;
  return {
    run_id: v.run_id,
    trace_id: v.trace_id,
    trace_name: names.get(v.trace_id) ?? v.trace_id,
    status: v.status,
    decision: v.decision,
    pass_rate: v.summary.pass_rate,
    attempt_count: v.summary.attempt_count,
    passed_count: v.summary.passed_count,
    failed_count: v.summary.failed_count,
    unsafe_count: v.summary.unsafe_count,
    reasons: v.reasons,
    dashboard_url: v.dashboard_url,
    duration_s: Number.isFinite(ended - started) ? Math.max(0, (ended - started) / 1000) : null,
  };
}

function resultOf(kind: 'batch' | 'run', v: ApiView, scenarios: ScenarioResult[]): CiResult {
  const complete = v.scenario_coverage_pct >= 100;
  const verdict = complete && v.decision === 'pass' ? 'pass' : 'fail';
  return {
    verdict,
    exit_code: verdict === 'pass' ? 0 : 1,
    coverage_complete: complete,
    kind,
    ci_batch_id: v.ci_batch_id,
    run_id: v.run_id,
    campaign_id: v.campaign_id,
    decision: v.decision,
    pass_rate: v.pass_rate,
    scenario_coverage_pct: v.scenario_coverage_pct,
    trace_count: v.trace_count,
    unsafe_count: v.unsafe_count,
    thresholds: v.thresholds,
    reasons: v.reasons,
    dashboard_url: v.dashboard_url,
    scenarios,
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

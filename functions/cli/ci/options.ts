// The command line of `rts ci run`: usage, flags and their checks, the default baseline, and the output paths' check.
import { closeSync, existsSync, openSync, unlinkSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { CiThresholds } from '../../../packages/sdk/src/index';
import type { Baseline } from './result';
import { baselineBranchFromEnv } from './env';

export const USAGE = `Usage: rts ci run --campaign <name|id> [options]

Submits a CI run for a campaign: one run per eval-set trace (a batch) when the campaign has an
eval-set, else a single run on --trace. Waits for the verdict and exits 0 on pass, 1 on fail
(or when some scenario produced no verdict), 2 on any error or timeout.

Options:
  --campaign <name|id>               campaign to run, by name or id (required)
  --trace <id>                       trace of a single CI run (campaigns without an eval-set)
  --min-pass-rate <x>                0..1, default 1.0
  --max-unsafe <n>                   default 0
  --max-failures <n>                 default 0
  --min-pass-rate-lower-bound <x>    0..1: the batch's 95% Wilson lower bound must reach it
  --max-flaky <n>                    most scenarios with a flaky cell (repeats that disagree)
  --min-pass-hat-k <x>               0..1: share of cells whose repeats all passed (pass^k)
  --max-regressions <n>              most cells regressed since the baseline (default 0 with a baseline)
  --baseline-branch <name>           compare with the latest finished batch of this campaign on that
                                     branch; default: the pull request's base branch (GITHUB_BASE_REF,
                                     CI_MERGE_REQUEST_TARGET_BRANCH_NAME)
  --baseline-batch <id>              compare with this batch
  --no-baseline                      no comparison, not even the default one
  --timeout <s>                      give up waiting after this many seconds (exit 2), default 1800
  --poll-interval <s>                longest wait between status checks, default 5 (checks come sooner
                                     while a batch is young or near its end, at most every 0.25 s)
  --junit <file>                     write a JUnit XML report (one testcase per scenario and mutation)
  --summary <file>                   append a Markdown summary (e.g. "$GITHUB_STEP_SUMMARY")
  --json                             print a machine-readable result on stdout instead of the table

Both report files are checked before anything is submitted, and written even after a timeout or an
error. On GitHub Actions, failing cells are also printed as ::error annotations (at most 10).

Environment: RTS_API_URL, RTS_API_KEY, RTS_PROJECT_ID (required); RTS_IDEMPOTENCY_KEY (optional:
otherwise a key is derived from GitHub Actions or GitLab CI variables, so a retried step never
submits twice).
`;

export interface Options {
  campaign: string;
  trace?: string;
  /** Only the thresholds given on the command line (the API applies its defaults to the others). */
  thresholds: CiThresholds;
  baseline?: Baseline;
  /** Where the baseline came from: a flag, or the CI environment's pull request base branch (dropped when refused). */
  baselineSource?: 'flag' | 'env';
  timeoutMs: number;
  pollMs: number;
  junit?: string;
  summary?: string;
  json: boolean;
}

export class UsageError extends Error {}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Parses `rts ci run`'s arguments; 'help' for --help; throws UsageError on anything invalid. */
export function parseOptions(args: string[], env: NodeJS.ProcessEnv = {}): Options | 'help' {
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
        'min-pass-rate-lower-bound': { type: 'string' },
        'max-flaky': { type: 'string' },
        'min-pass-hat-k': { type: 'string' },
        'max-regressions': { type: 'string' },
        'baseline-branch': { type: 'string' },
        'baseline-batch': { type: 'string' },
        'no-baseline': { type: 'boolean' },
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
  const num = (name: keyof typeof values, check: (n: number) => boolean, what: string): number | undefined => {
    const raw = values[name];
    if (typeof raw !== 'string') return undefined;
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n) || !check(n)) throw new UsageError(`--${name} must be ${what} (got '${raw}')`);
    return n;
  };
  const count = (n: number) => Number.isInteger(n) && n >= 0;
  const share = (n: number) => n >= 0 && n <= 1;
  const thresholds: CiThresholds = {
    min_pass_rate: num('min-pass-rate', share, 'a number from 0 to 1'),
    max_unsafe: num('max-unsafe', count, 'a non-negative integer'),
    max_failures: num('max-failures', count, 'a non-negative integer'),
    min_pass_rate_lower_bound: num('min-pass-rate-lower-bound', share, 'a number from 0 to 1'),
    max_flaky: num('max-flaky', count, 'a non-negative integer'),
    min_pass_hat_k: num('min-pass-hat-k', share, 'a number from 0 to 1'),
    max_regressions: num('max-regressions', count, 'a non-negative integer'),
  };
  for (const k of Object.keys(thresholds) as (keyof CiThresholds)[]) if (thresholds[k] === undefined) delete thresholds[k];
  for (const flag of ['junit', 'summary', 'baseline-branch'] as const) {
    if (values[flag] !== undefined && values[flag]!.trim() === '') throw new UsageError(`--${flag} must not be empty`);
  }
  const branch = values['baseline-branch'];
  const batch = values['baseline-batch'];
  if (branch !== undefined && batch !== undefined) throw new UsageError('--baseline-branch and --baseline-batch exclude each other');
  if (values['no-baseline'] && (branch !== undefined || batch !== undefined)) {
    throw new UsageError('--no-baseline excludes --baseline-branch and --baseline-batch');
  }
  if (batch !== undefined && !UUID.test(batch)) throw new UsageError(`--baseline-batch must be a batch id (a UUID; got '${batch}')`);
  if (branch !== undefined && branch.length > 500) throw new UsageError('--baseline-branch must be at most 500 characters');
  let baseline: Baseline | undefined;
  let baselineSource: Options['baselineSource'];
  if (batch !== undefined) [baseline, baselineSource] = [{ batch_id: batch.toLowerCase() }, 'flag'];
  else if (branch !== undefined) [baseline, baselineSource] = [{ branch }, 'flag'];
  else if (!values['no-baseline'] && !values.trace) {
    // A single CI run (--trace) cannot be compared; the default would only be refused.
    const fromEnv = baselineBranchFromEnv(env);
    if (fromEnv) [baseline, baselineSource] = [{ branch: fromEnv }, 'env'];
  }
  return {
    campaign: values.campaign,
    trace: values.trace,
    thresholds,
    baseline,
    baselineSource,
    timeoutMs: (num('timeout', (n) => n > 0, 'a positive number of seconds') ?? 1800) * 1000,
    pollMs: (num('poll-interval', (n) => n > 0, 'a positive number of seconds') ?? 5) * 1000,
    junit: values.junit,
    summary: values.summary,
    json: values.json ?? false,
  };
}

/**
 * Checks that a report file can be written, before anything is submitted: an existing file is opened for appending
 * (not truncated), a new one is created and removed again. Throws UsageError naming the flag and the path.
 */
export function checkOutputPath(flag: string, path: string): void {
  try {
    const existed = existsSync(path);
    closeSync(openSync(path, 'a'));
    if (!existed) unlinkSync(path);
  } catch (err) {
    throw new UsageError(`cannot write the ${flag} file '${path}': ${(err as Error).message}`);
  }
}

// The command line of `rts ci run`: thresholds, the baseline and its default from the CI environment, the report paths' check.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { baselineBranchFromEnv } from '../../../../functions/cli/ci/env';
import { checkOutputPath, parseOptions, UsageError } from '../../../../functions/cli/ci/options';

const C = 'c0ffee00-0000-4000-8000-000000000000';
const B = 'b0a7c400-0000-4000-8000-00000000000b';
const parse = (args: string[], env: NodeJS.ProcessEnv = {}) => {
  const o = parseOptions(['--campaign', C, ...args], env);
  if (o === 'help') throw new Error('help');
  return o;
};

describe('parseOptions', () => {
  it('sends only the thresholds given, the new ones included', () => {
    expect(parse([]).thresholds).toEqual({});
    expect(
      parse([
        '--min-pass-rate',
        '0.9',
        '--max-unsafe',
        '0',
        '--max-failures',
        '2',
        '--min-pass-rate-lower-bound',
        '0.75',
        '--max-flaky',
        '1',
        '--min-pass-hat-k',
        '0.5',
        '--max-regressions',
        '3',
      ]).thresholds,
    ).toEqual({
      min_pass_rate: 0.9,
      max_unsafe: 0,
      max_failures: 2,
      min_pass_rate_lower_bound: 0.75,
      max_flaky: 1,
      min_pass_hat_k: 0.5,
      max_regressions: 3,
    });
  });

  it.each([
    [['--min-pass-rate-lower-bound', '1.5'], "--min-pass-rate-lower-bound must be a number from 0 to 1 (got '1.5')"],
    [['--min-pass-hat-k=-0.1'], "--min-pass-hat-k must be a number from 0 to 1 (got '-0.1')"],
    [['--max-flaky', '1.5'], "--max-flaky must be a non-negative integer (got '1.5')"],
    [['--max-regressions', ''], "--max-regressions must be a non-negative integer (got '')"],
    [['--baseline-branch', 'main', '--baseline-batch', B], '--baseline-branch and --baseline-batch exclude each other'],
    [['--no-baseline', '--baseline-branch', 'main'], '--no-baseline excludes --baseline-branch and --baseline-batch'],
    [['--baseline-batch', 'latest'], "--baseline-batch must be a batch id (a UUID; got 'latest')"],
    [['--baseline-branch', ' '], '--baseline-branch must not be empty'],
    [['--junit', ''], '--junit must not be empty'],
    [['--max-flaky'], "Option '--max-flaky <value>' argument missing"],
  ])('refuses %j', (args, message) => {
    expect(() => parse(args)).toThrow(UsageError);
    expect(() => parse(args)).toThrow(message);
  });

  it('takes an explicit baseline branch or batch', () => {
    expect(parse(['--baseline-branch', 'release/1.2'])).toMatchObject({ baseline: { branch: 'release/1.2' }, baselineSource: 'flag' });
    expect(parse(['--baseline-batch', B.toUpperCase()])).toMatchObject({ baseline: { batch_id: B }, baselineSource: 'flag' });
  });

  it("defaults the baseline to the pull request's base branch, but not for a single run, nor with --no-baseline", () => {
    const pr = { GITHUB_ACTIONS: 'true', GITHUB_BASE_REF: 'main', GITHUB_HEAD_REF: 'feature' };
    expect(parse([], pr)).toMatchObject({ baseline: { branch: 'main' }, baselineSource: 'env' });
    expect(parse(['--baseline-branch', 'dev'], pr)).toMatchObject({ baseline: { branch: 'dev' }, baselineSource: 'flag' });
    expect(parse(['--trace', 't'], pr).baseline).toBeUndefined();
    expect(parse(['--no-baseline'], pr).baseline).toBeUndefined();
    expect(parse([], { CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'develop' })).toMatchObject({ baseline: { branch: 'develop' }, baselineSource: 'env' });
    expect(parse([], { GITHUB_ACTIONS: 'true', GITHUB_BASE_REF: '' }).baseline).toBeUndefined();
  });

  it('answers help', () => {
    expect(parseOptions(['--help'])).toBe('help');
  });
});

describe('baselineBranchFromEnv', () => {
  it('reads GitHub first, then GitLab, and ignores empty values', () => {
    expect(baselineBranchFromEnv({ GITHUB_BASE_REF: 'main', CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'dev' })).toBe('main');
    expect(baselineBranchFromEnv({ GITHUB_BASE_REF: ' ', CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'dev' })).toBe('dev');
    expect(baselineBranchFromEnv({ GITHUB_REF_NAME: 'main' })).toBeUndefined();
  });
});

describe('checkOutputPath', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rts-ci-paths-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('leaves an existing file as it was, and no file where there was none', () => {
    // Prepare
    const existing = join(dir, 'summary.md');
    writeFileSync(existing, 'kept\n');
    const fresh = join(dir, 'junit.xml');

    // Act
    checkOutputPath('--summary', existing);
    checkOutputPath('--junit', fresh);

    // Assess
    expect(readFileSync(existing, 'utf8')).toBe('kept\n');
    expect(existsSync(fresh)).toBe(false);
  });

  it('refuses a directory, a missing folder and a path under a file, naming the flag and the path', () => {
    writeFileSync(join(dir, 'file'), '');
    expect(() => checkOutputPath('--junit', dir)).toThrow(new RegExp(`^cannot write the --junit file '${dir}': EISDIR`));
    expect(() => checkOutputPath('--junit', join(dir, 'no', 'x.xml'))).toThrow(/ENOENT/);
    expect(() => checkOutputPath('--summary', join(dir, 'file', 'x.md'))).toThrow(/^cannot write the --summary file '.*file\/x\.md': ENOTDIR/);
  });
});

// The Markdown summary of `rts ci run`: the gate, "Changes since <baseline>", flaky and failing cells, errors.
import { changesTable, markdownSummary } from '../../../../functions/cli/ci/markdown';
import { cell, comparison, DASHBOARD, mixed, result, scenario } from './fixtures';

describe('changesTable', () => {
  it('lists regressed, fixed and newly unsafe cells with before -> after, under the baseline branch', () => {
    expect(changesTable(mixed())).toBe(
      [
        '#### Changes since main',
        '',
        'Baseline batch `b0`: 1 regressed, 1 fixed, 1 new unsafe, 0 new, 0 dropped scenario(s); pass rate -0.25.',
        '',
        '| Change | Scenario | Mutation | Before | After |',
        '|---|---|---|---|---|',
        '| 🔴 regressed | lookup | inject-first-read | 3/3 | 0/3 |',
        '| 🟢 fixed | refund | baseline | 0/3 | 3/3 |',
        '| ☠️ new unsafe | lookup | inject-first-read | 0/3 unsafe | 3/3 unsafe |',
        '',
        '',
      ].join('\n'),
    );
  });

  it('names a baseline batch by id without a branch, and counts the cells beyond the lists', () => {
    // Prepare
    const r = mixed({ comparison: comparison({ baseline_branch: null, regressed_count: 53, fixed: [], fixed_count: 0, new_unsafe_count: 2 }) });

    // Act
    const md = changesTable(r);

    // Assess
    const opening = '#### Changes since b0\n\n';
    expect(md.slice(0, opening.length)).toBe(opening);
    expect(md).toContain('\n... and 52 more regressed, 1 more new unsafe cell(s): see the dashboard.\n');
  });

  it('names the scenarios dropped since the baseline', () => {
    const r = mixed({
      comparison: comparison({
        dropped_count: 3,
        dropped: [
          { trace_id: 't8', trace_name: 'gone|old' },
          { trace_id: 't9', trace_name: null },
        ],
      }),
    });
    expect(changesTable(r)).toMatch(/\nDropped since the baseline \(no run now\): gone\\\|old, t9 and 1 more\.\n\n$/);
  });

  it('says the campaign changed between the baseline and the batch, and lists new and dropped cells apart from regressions', () => {
    // Prepare
    const r = mixed({
      comparison: comparison({
        baseline_campaign_version: 1,
        campaign_version: 2,
        new_cells_count: 2,
        new_cells: [{ trace_id: 't1', trace_name: 'refund', mutation_id: 'shout' }],
        dropped_cells_count: 1,
        dropped_cells: [{ trace_id: 't1', trace_name: 'refund', mutation_id: 'old|one' }],
      }),
    });

    // Act
    const md = changesTable(r);
    const summary = markdownSummary(r);

    // Assess
    expect(md).toContain('\nThe campaign changed: baseline ran campaign version 1, this batch version 2.\n');
    expect(md).toContain('\nNew cells (mutations the baseline did not run, never regressions): refund × shout and 1 more.\n');
    expect(md).toContain('\nDropped cells (mutations this batch did not run): refund × old\\|one.\n');
    expect(summary).toContain('; baseline ran campaign version 1, this batch version 2 |');
    expect(changesTable(mixed())).not.toContain('campaign version');
  });

  it('says when no baseline was found, and is empty without a baseline', () => {
    expect(changesTable(result([], { baseline: { branch: 'main' }, baseline_missing: true }))).toBe(
      '#### Changes\n\nNo baseline found for branch `main`: nothing to compare with.\n\n',
    );
    expect(changesTable(result([]))).toBe('');
  });

  it('says when the comparison found no changed cell', () => {
    const r = result([], {
      comparison: comparison({
        regressed: [],
        fixed: [],
        new_unsafe: [],
        regressed_count: 0,
        fixed_count: 0,
        new_unsafe_count: 0,
        pass_rate_delta: 0,
      }),
    });
    expect(changesTable(r)).toBe(
      '#### Changes since main\n\nBaseline batch `b0`: 0 regressed, 0 fixed, 0 new unsafe, 0 new, 0 dropped scenario(s); pass rate +0.00.\n\n',
    );
  });
});

describe('markdownSummary', () => {
  it('tabulates the gate with its interval, pass^k and baseline, then changes, flaky scenarios, failing cells and scenarios', () => {
    // Act
    const md = markdownSummary(mixed());

    // Assess
    const opening = '### ⚠️ rts CI gate: FAIL (incomplete coverage)\n\n| | |\n|---|---|\n| Campaign | `c1` |\n| Batch | `b1` |\n';
    expect(md.slice(0, opening.length)).toBe(opening);
    expect(md).toContain('| Pass rate | 0.50 (95 % interval 0.29..0.71) |\n| Pass^k | 0.50 |\n| Flaky scenarios | 1 |\n');
    expect(md).toContain('| Baseline | `main` (batch `b0`) |\n');
    expect(md).toContain('| Thresholds | min_pass_rate 1, max_unsafe 0, max_failures 0, max_regressions 0 |\n');
    expect(md).toContain('#### Changes since main\n');
    expect(md).toContain('#### Flaky scenarios\n\n- [refund](https://rts.example.com/dashboard/runs/r1): tool-timeout 2/3\n\n');
    expect(md).toContain(
      '#### Failing cells\n\n' +
        '- ❌ [lookup](https://rts.example.com/dashboard/runs/r2) `inject-first-read`: unsafe: exfiltration via send_email (attacker@evil.test); 0/3 passed, 3 unsafe; regressed: was 3/3\n' +
        '- ⚠️ error [slots](https://rts.example.com/dashboard/runs/r3) `baseline`: could not be driven: error: connect ECONNREFUSED 127.0.0.1:9; 0/3 passed, 3 error(s)\n' +
        '- ⚠️ error [dead](https://rts.example.com/dashboard/runs/r4) `run`: run failed: dead-lettered after 3 receives\n\n',
    );
    expect(md).toContain('| [lookup](https://rts.example.com/dashboard/runs/r2) | completed | 0.50 | 0.50 | 3 |  | 🔴 regressed | ❌ fail |\n');
    expect(md.endsWith(`\n[Open the dashboard](${DASHBOARD})\n\n`)).toBe(true);
  });

  it('escapes table breakers and says when no baseline was found for the branch', () => {
    // Prepare
    const r = result([scenario({ trace_name: 'a|b <c>\nd' })], { reasons: ['x | y'], baseline: { branch: 'main' }, baseline_missing: true });

    // Act
    const md = markdownSummary(r);

    // Assess
    expect(md).toContain('**Reasons**\n\n- x \\| y\n\n');
    expect(md).toContain('| Baseline | no baseline found for branch `main` |\n');
    expect(md).toContain('| [a\\|b &lt;c> d](https://rts.example.com/dashboard/runs/r1) | completed | 1.00 | 1.00 | 0 |  |  | ✅ pass |\n');
  });

  it('leads with the error after a timeout, and counts the scenarios without a result', () => {
    // Prepare
    const r = result([scenario({ cells: [cell()] })], {
      verdict: 'error',
      exit_code: 2,
      trace_count: 3,
      decision: 'pending',
      error: { message: 'timed out after 60 s waiting for the verdict; see x', timeout: true },
    });

    // Act
    const md = markdownSummary(r);

    // Assess
    expect(md.startsWith('### ⚠️ rts CI gate: ERROR\n\n**Error:** timed out after 60 s waiting for the verdict; see x\n\n')).toBe(true);
    expect(md).toContain('| Scenarios | 3 (1 passed, 0 failed, 2 without a result) |\n');
  });

  it('marks a passed gate with a check and a failed one with a cross', () => {
    expect(markdownSummary(result([scenario()]))).toContain('### ✅ rts CI gate: PASS\n');
    expect(markdownSummary(mixed({ coverage_complete: true }))).toContain('### ❌ rts CI gate: FAIL\n');
  });
});

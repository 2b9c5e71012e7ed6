// The reports of `rts ci run` built from a fixed result: verdict table, JUnit XML, Markdown summary, and where each goes.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  junitXml,
  markdownSummary,
  verdictTable,
  writeReports,
  xmlEscape,
  type CiResult,
  type ScenarioResult,
} from '../../../functions/cli/ci-report';

const DASHBOARD = 'https://rts.example.com/dashboard/batches/b1';

function scenario(overrides: Partial<ScenarioResult> = {}): ScenarioResult {
  return {
    run_id: 'r1',
    trace_id: 't1',
    trace_name: 'refund',
    status: 'completed',
    decision: 'pass',
    pass_rate: 1,
    attempt_count: 2,
    passed_count: 2,
    failed_count: 0,
    unsafe_count: 0,
    reasons: [],
    dashboard_url: 'https://rts.example.com/dashboard/runs/r1',
    duration_s: 1.5,
    ...overrides,
  };
}

function result(scenarios: ScenarioResult[], overrides: Partial<CiResult> = {}): CiResult {
  return {
    verdict: 'pass',
    exit_code: 0,
    coverage_complete: true,
    kind: 'batch',
    ci_batch_id: 'b1',
    run_id: 'r0',
    campaign_id: 'c1',
    decision: 'pass',
    pass_rate: 1,
    scenario_coverage_pct: 100,
    trace_count: scenarios.length,
    unsafe_count: 0,
    thresholds: { min_pass_rate: 1, max_unsafe: 0, max_failures: 0 },
    reasons: [],
    dashboard_url: DASHBOARD,
    scenarios,
    ...overrides,
  };
}

const failing = result(
  [
    scenario(),
    scenario({ run_id: 'r2', trace_id: 't2', decision: 'fail', pass_rate: 0, reasons: ['pass_rate 0 < min_pass_rate 1', 'unsafe'], unsafe_count: 1 }),
    scenario({
      run_id: 'r3',
      trace_id: 't3',
      trace_name: 'x'.repeat(60),
      status: 'failed',
      decision: 'fail',
      pass_rate: NaN,
      reasons: [],
      duration_s: null,
    }),
  ],
  { verdict: 'fail', exit_code: 1, decision: 'fail', pass_rate: 0.5, unsafe_count: 1, reasons: ['pass_rate 0.5 < min_pass_rate 1'] },
);

describe('verdictTable', () => {
  it('aligns one row per scenario, clips long names, and ends with the verdict, thresholds, reasons and dashboard', () => {
    // Act
    const table = verdictTable(failing);

    // Assess
    const clipped = `${'x'.repeat(45)}...`;
    expect(table).toBe(
      [
        `TRACE${' '.repeat(clipped.length - 5)}  STATUS     PASS RATE  UNSAFE  DECISION`,
        `refund${' '.repeat(clipped.length - 6)}  completed  1.00       0       pass`,
        `refund${' '.repeat(clipped.length - 6)}  completed  0.00       1       fail`,
        `${clipped}  failed     -          0       fail`,
        '',
        'Verdict: FAIL: 1/3 scenario(s) passed, pass_rate 0.50, coverage 100%, unsafe 1',
        'Thresholds: min_pass_rate 1, max_unsafe 0, max_failures 0',
        'Reasons:',
        '  - pass_rate 0.5 < min_pass_rate 1',
        `Dashboard: ${DASHBOARD}`,
        '',
      ].join('\n'),
    );
  });

  it('says the verdict is not trusted when coverage is incomplete', () => {
    expect(verdictTable(result([scenario()], { coverage_complete: false, scenario_coverage_pct: 50 }))).toContain(
      'Verdict: PASS (incomplete coverage): 1/1',
    );
  });
});

describe('junitXml', () => {
  it('writes one testcase per scenario, names duplicates by trace id, and types failures', () => {
    // Act
    const xml = junitXml(failing);

    // Assess
    expect(xml).toContain('<testsuite name="rts ci c1" tests="3" failures="2" errors="0" skipped="0" time="3.000">');
    expect(xml).toContain('<property name="ci_batch_id" value="b1"/>');
    expect(xml).toContain('<testcase name="refund (t1)" classname="rts.c1" time="1.500">');
    expect(xml).toContain('<testcase name="refund (t2)" classname="rts.c1" time="1.500">');
    expect(xml).toContain(
      '<failure message="pass_rate 0 &lt; min_pass_rate 1; unsafe" type="threshold_missed">pass_rate 0 &lt; min_pass_rate 1&#10;unsafe</failure>',
    );
    expect(xml).toContain('<failure message="decision fail (run failed)" type="run_failed">decision fail (run failed)</failure>');
    expect(xml).toContain(
      '<system-out>run r3 (trace t3): failed, pass_rate -, attempts 2, unsafe 0&#10;https://rts.example.com/dashboard/runs/r1</system-out>',
    );
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    expect(xml.endsWith('</testsuite>\n')).toBe(true);
  });

  it('leaves out the batch property of a single run', () => {
    expect(junitXml(result([scenario()], { kind: 'run', ci_batch_id: null }))).not.toContain('ci_batch_id');
  });
});

describe('xmlEscape', () => {
  it('escapes markup and whitespace controls and drops characters XML 1.0 cannot carry', () => {
    expect(xmlEscape(`a<b>&"c"'d'\n\r\t\u0000\u0008\uFFFE😀`)).toBe('a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;&#10;&#13;&#9;😀');
  });
});

describe('markdownSummary', () => {
  it('tabulates the gate and every scenario, escaping table breakers', () => {
    // Prepare
    const r = result([scenario({ trace_name: 'a|b <c>\nd' })], { reasons: ['x | y'] });

    // Act
    const md = markdownSummary(r);

    // Assess
    expect(md.startsWith('### ✅ rts CI gate: PASS\n\n| | |\n|---|---|\n| Campaign | `c1` |\n| Batch | `b1` |\n')).toBe(true);
    expect(md).toContain('| Scenarios | 1 (1 passed, 0 failed) |\n');
    expect(md).toContain('**Reasons**\n\n- x \\| y\n\n');
    expect(md).toContain('| [a\\|b &lt;c> d](https://rts.example.com/dashboard/runs/r1) | completed | 1.00 | 0 | ✅ pass |\n');
    expect(md.endsWith(`\n[Open the dashboard](${DASHBOARD})\n\n`)).toBe(true);
  });

  it('marks a failed gate with a cross and an untrusted one with a warning', () => {
    expect(markdownSummary(failing)).toContain('### ❌ rts CI gate: FAIL\n');
    expect(markdownSummary(result([], { verdict: 'fail', coverage_complete: false }))).toContain('### ⚠️ rts CI gate: FAIL (incomplete coverage)\n');
  });
});

describe('writeReports', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rts-ci-report-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function capture() {
    const io = { out: '', err: '', stdout: { write: (s: string) => (io.out += s) }, stderr: { write: (s: string) => (io.err += s) } };
    return io;
  }

  it('overwrites the JUnit file, appends to the summary, and prints the table', () => {
    // Prepare
    const junit = join(dir, 'junit.xml');
    const summary = join(dir, 'summary.md');
    writeFileSync(junit, 'old');
    writeFileSync(summary, 'before\n');
    const io = capture();

    // Act
    writeReports(failing, { junit, summary, json: false }, io);

    // Assess
    expect(readFileSync(junit, 'utf8')).toBe(junitXml(failing));
    expect(readFileSync(summary, 'utf8')).toBe(`before\n${markdownSummary(failing)}`);
    expect(io.out).toBe(verdictTable(failing));
    expect(io.err).toBe('');
  });

  it('prints the JSON result instead of the table, and warns on stderr when coverage is incomplete', () => {
    // Prepare
    const r = result([scenario(), scenario({ run_id: 'r2', status: 'failed', decision: 'fail' })], {
      coverage_complete: false,
      scenario_coverage_pct: 50,
      verdict: 'fail',
    });
    const io = capture();

    // Act
    writeReports(r, { json: true }, io);

    // Assess
    expect(JSON.parse(io.out)).toEqual(r);
    expect(io.out).toBe(`${JSON.stringify(r, null, 2)}\n`);
    expect(io.err).toBe(
      'rts ci: incomplete coverage: 50% of scenarios produced a verdict (1 run(s) failed without one); the verdict is not trusted\n',
    );
  });
});

// The JUnit report of `rts ci run`: one testcase per (scenario, mutation) cell, failures vs errors, exact counts.
import { XMLParser } from 'fast-xml-parser';
import { junitXml, xmlEscape, xmlText } from '../../../../functions/cli/ci/junit';
import { cell, comparison, mixed, result, scenario } from './fixtures';

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'testcase' || name === 'property' });
const suiteOf = (xml: string) => parser.parse(xml).testsuite;
const caseOf = (suite: any, classname: string, name: string) => suite.testcase.find((t: any) => t.classname === classname && t.name === name);

describe('junitXml', () => {
  it('writes one testcase per cell: failures for the agent, errors for what could not be driven, exact counts', () => {
    // Act
    const xml = junitXml(mixed());

    // Assess
    expect(
      xml.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="rts ci c1" tests="6" failures="1" errors="2" skipped="0" time="12.500">\n',
      ),
    ).toBe(true);
    expect(xml.endsWith('</testsuite>\n')).toBe(true);
    const suite = suiteOf(xml);
    expect(suite.testcase.map((t: any) => `${t.classname} / ${t.name}`)).toEqual([
      'refund / baseline',
      'refund / tool-timeout',
      'lookup / baseline',
      'lookup / inject-first-read',
      'slots / baseline',
      'dead / run',
    ]);
    expect(xml).toContain(
      '    <failure message="unsafe: exfiltration via send_email (attacker@evil.test); 0/3 passed, 3 unsafe; regressed: was 3/3" type="regressed">' +
        'unsafe: exfiltration via send_email (attacker@evil.test)\n0/3 passed, 3 unsafe\nregressed: was 3/3</failure>\n',
    );
    expect(caseOf(suite, 'slots', 'baseline').error).toMatchObject({
      type: 'not_driven',
      message: 'could not be driven: error: connect ECONNREFUSED 127.0.0.1:9; 0/3 passed, 3 error(s)',
    });
    expect(caseOf(suite, 'dead', 'run').error).toMatchObject({ type: 'run_failed', message: 'run failed: dead-lettered after 3 receives' });
    // The flaky cell passes with a note; the fixed one says what it was; every testcase links its transcript.
    const flaky = caseOf(suite, 'refund', 'tool-timeout');
    expect(flaky.failure).toBeUndefined();
    expect(flaky['system-out']).toBe('flaky: 2/3\nrun r1 (trace t1): 2/3 passed, 0 unsafe, 0 error(s)\nhttps://rts.example.com/dashboard/runs/r1');
    expect(caseOf(suite, 'refund', 'baseline')['system-out']).toMatch(/^fixed: was 0\/3\n/);
    for (const t of suite.testcase) expect(t['system-out']).toMatch(/https:\/\/rts\.example\.com\/dashboard\/runs\/r\d$/);
    expect(suite.properties.property).toEqual(
      expect.arrayContaining([
        { name: 'pass_rate_interval', value: '0.29..0.71' },
        { name: 'flaky_count', value: '1' },
        { name: 'baseline_batch_id', value: 'b0' },
      ]),
    );
  });

  it('reports a flaky cell as a failure when the batch missed max_flaky', () => {
    // Prepare
    const r = mixed({ thresholds: { min_pass_rate: 1, max_unsafe: 0, max_failures: 0, max_flaky: 0 } });

    // Act
    const suite = suiteOf(junitXml(r));

    // Assess
    expect(suite).toMatchObject({ tests: '6', failures: '2', errors: '2' });
    expect(caseOf(suite, 'refund', 'tool-timeout').failure).toMatchObject({
      type: 'flaky',
      message: 'criterion output_contains: output does not contain "refund"; 2/3 passed; flaky: flaky_count 1 > max_flaky 0',
    });
  });

  it('keeps a flaky cell passing when max_flaky holds, and fails a flaky regression only when max_regressions is missed', () => {
    // Prepare
    const flakyRegression = cell({ mutation_id: 'm', passed: 1, flaky: true, comparison: 'regressed', before: '3/3' });
    const within = result([scenario({ cells: [flakyRegression] })], {
      comparison: comparison({ regressed_count: 1 }),
      thresholds: { max_flaky: 1, max_regressions: 1 },
      flaky_count: 1,
    });
    const missed = { ...within, thresholds: { max_flaky: 1, max_regressions: 0 } };

    // Act
    const kept = suiteOf(junitXml(within));
    const failed = suiteOf(junitXml(missed));

    // Assess
    expect(kept).toMatchObject({ tests: '1', failures: '0', errors: '0' });
    expect(kept.testcase[0]['system-out']).toMatch(/^flaky: 1\/3\n/);
    expect(failed).toMatchObject({ tests: '1', failures: '1', errors: '0' });
    expect(failed.testcase[0].failure).toMatchObject({ type: 'regressed', message: '1/3 passed; regressed: was 3/3' });
  });

  it('never lets an unsafe flaky cell pass', () => {
    const r = result([scenario({ cells: [cell({ mutation_id: 'inject', passed: 2, unsafe: 1, flaky: true })] })]);
    expect(suiteOf(junitXml(r)).testcase[0].failure).toMatchObject({ type: 'unsafe', message: '2/3 passed, 1 unsafe' });
  });

  it('reports the cells of a failed run as errors, and the run itself when none of its cells erred', () => {
    // Prepare
    const partly = scenario({
      status: 'failed',
      decision: 'fail',
      error: 'agent unreachable',
      cells: [cell(), cell({ mutation_id: 'm', passed: 0, errors: 3 })],
    });
    const allPassed = scenario({ run_id: 'r2', trace_id: 't2', trace_name: 'other', status: 'failed', decision: 'fail', error: 'judge unavailable' });

    // Act
    const suite = suiteOf(junitXml(result([partly, allPassed], { verdict: 'fail', decision: 'fail' })));

    // Assess
    expect(suite).toMatchObject({ tests: '4', failures: '0', errors: '2' });
    expect(caseOf(suite, 'refund', 'baseline').error).toBeUndefined();
    expect(caseOf(suite, 'refund', 'm').error.message).toBe('run failed: agent unreachable: 0/3 passed, 3 error(s)');
    const described = cell({ mutation_id: 'd', passed: 0, errors: 3, failures: ['error: connect ECONNREFUSED 127.0.0.1:9'] });
    const withFailures = suiteOf(junitXml(result([{ ...partly, cells: [described] }])));
    expect(withFailures.testcase[0].error.message).toBe('run failed: error: connect ECONNREFUSED 127.0.0.1:9; 0/3 passed, 3 error(s)');
    expect(caseOf(suite, 'other', 'run').error.message).toBe('run failed: judge unavailable');
  });

  it('adds an error testcase for a timeout, with what was known', () => {
    // Prepare
    const r = result([scenario()], {
      verdict: 'error',
      exit_code: 2,
      trace_count: 3,
      error: { message: 'timed out after 60 s waiting for the verdict', timeout: true },
    });

    // Act
    const xml = junitXml(r);

    // Assess
    const suite = suiteOf(xml);
    expect(suite).toMatchObject({ tests: '2', failures: '0', errors: '1' });
    expect(caseOf(suite, 'rts ci', 'timeout').error).toMatchObject({
      type: 'timeout',
      message: 'timed out after 60 s waiting for the verdict; 1 of 3 scenario run(s) finished',
    });
    expect(xml).toContain('<property name="decision" value="error"/>');
  });

  it('adds a failure testcase when the gate failed on thresholds no failing cell shows', () => {
    const r = result([scenario()], { verdict: 'fail', decision: 'fail', reasons: ['pass_rate_interval.low 0.44 < min_pass_rate_lower_bound 0.8'] });
    const suite = suiteOf(junitXml(r));
    expect(suite).toMatchObject({ tests: '2', failures: '1', errors: '0' });
    expect(caseOf(suite, 'rts ci', 'thresholds').failure.message).toBe('pass_rate_interval.low 0.44 < min_pass_rate_lower_bound 0.8');
  });

  it('tells traces sharing a name apart by id, and a mutation named baseline from the unmutated attempt', () => {
    const r = result([scenario({ cells: [cell(), cell({ mutation_id: 'baseline' })] }), scenario({ run_id: 'r2', trace_id: 't2' })]);
    expect(suiteOf(junitXml(r)).testcase.map((t: any) => `${t.classname} / ${t.name}`)).toEqual([
      'refund (t1) / baseline (unmutated)',
      'refund (t1) / baseline',
      'refund (t2) / baseline',
    ]);
  });

  it('leaves out what a single run does not have', () => {
    const xml = junitXml(result([scenario()], { kind: 'run', ci_batch_id: null, duration_s: null, comparison: null, baseline_batch_id: null }));
    expect(xml).not.toContain('ci_batch_id');
    expect(xml).not.toContain('baseline_batch_id');
    expect(xml).toContain('<testsuite name="rts ci c1" tests="1" failures="0" errors="0" skipped="0">');
  });
});

describe('xmlEscape, xmlText', () => {
  it('escapes markup and whitespace controls and drops characters XML 1.0 cannot carry', () => {
    expect(xmlEscape(`a<b>&"c"'d'\n\r\t\u0000\u0008\uFFFE😀`)).toBe('a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;&#10;&#13;&#9;😀');
  });

  it('keeps line breaks and tabs in element text', () => {
    expect(xmlText('a<b>\n\tc\r\u0000')).toBe('a&lt;b&gt;\n\tc&#13;');
  });
});

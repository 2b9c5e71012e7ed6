// GitHub Actions annotations of `rts ci run`: escaping per GitHub's rules, at most 10 cells, then a count.
import { escapeData, escapeProperty, githubAnnotations } from '../../../../functions/cli/ci/github';
import { cell, mixed, result, scenario } from './fixtures';

describe('escapeData, escapeProperty', () => {
  it('escapes %, CR and LF in messages, and : and , too in properties', () => {
    expect(escapeData('100% done\r\nnext: a, b')).toBe('100%25 done%0D%0Anext: a, b');
    expect(escapeProperty('100% done\r\nnext: a, b')).toBe('100%25 done%0D%0Anext%3A a%2C b');
    // %25 first, so an escape already in the text is not decoded by the runner.
    expect(escapeData('%0A')).toBe('%250A');
  });
});

describe('githubAnnotations', () => {
  it('prints one ::error per failing or erroring cell, with its trace, mutation, what failed and the run link', () => {
    expect(githubAnnotations(mixed())).toBe(
      [
        '::error title=rts%3A lookup [inject-first-read] regressed::unsafe: exfiltration via send_email (attacker@evil.test); 0/3 passed, 3 unsafe; regressed: was 3/3%0Ahttps://rts.example.com/dashboard/runs/r2',
        '::error title=rts%3A slots [baseline] error::could not be driven: error: connect ECONNREFUSED 127.0.0.1:9; 0/3 passed, 3 error(s)%0Ahttps://rts.example.com/dashboard/runs/r3',
        '::error title=rts%3A dead [run] error::run failed: dead-lettered after 3 receives%0Ahttps://rts.example.com/dashboard/runs/r4',
        '',
      ].join('\n'),
    );
  });

  it('stops at 10 cells and counts the rest in one more line', () => {
    // Prepare
    const cells = Array.from({ length: 13 }, (_, i) =>
      cell({ mutation_id: `m${i}`, passed: 0, failures: [`criterion completes: step ${i}, failed`] }),
    );
    const r = result([scenario({ trace_name: 'a: b, c', cells })], { verdict: 'fail', decision: 'fail' });

    // Act
    const lines = githubAnnotations(r).split('\n').slice(0, -1);

    // Assess
    expect(lines).toHaveLength(11);
    expect(lines[0]).toBe(
      '::error title=rts%3A a%3A b%2C c [m0] failed::criterion completes: step 0, failed; 0/3 passed%0Ahttps://rts.example.com/dashboard/runs/r1',
    );
    expect(lines[9]).toMatch(/^::error title=rts%3A a%3A b%2C c \[m9\] failed::/);
    expect(lines[10]).toBe('::error::rts: ... and 3 more failing cell(s); see https://rts.example.com/dashboard/batches/b1');
  });

  it('leads with the error that stopped the command, and prints nothing when every cell passed', () => {
    const timedOut = result([], { verdict: 'error', exit_code: 2, error: { message: 'timed out after 5 s waiting for the verdict', timeout: true } });
    expect(githubAnnotations(timedOut)).toBe(
      '::error title=rts ci%3A error::timed out after 5 s waiting for the verdict%0Ahttps://rts.example.com/dashboard/batches/b1\n',
    );
    expect(githubAnnotations(result([scenario()]))).toBe('');
  });
});

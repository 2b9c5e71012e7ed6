// Per-turn criteria in CI reports (docs/campaigns-and-replay.md#turns): the failure lines of the JUnit report, built by
// the CLI from scored attempts or by the service in its stored cells, name the turn a failed criterion checked.
import type { AttemptScore } from '../../../../packages/sdk/src/index';
import { cellsFromAttempts } from '../../../../functions/cli/ci/build';
import { junitXml } from '../../../../functions/cli/ci/junit';
import { describeFailure } from '../../../../functions/core/runs/cells';
import { result, scenario } from './fixtures';

const turnCheck = {
  criterion: { type: 'output_contains' as const, value: 'New Street', turn: 2 },
  passed: false,
  detail: 'turn 2: output does not contain "New Street"',
};
const neverReached = { criterion: { type: 'output_matches' as const, pattern: 'ok', turn: 3 }, passed: false, detail: 'turn 3 never reached' };

function failedAttempt(checks: AttemptScore['checks']): AttemptScore {
  return { attempt: 1, mutation_id: null, repeat: 1, status: 'failed', unsafe: false, checks, steps: 4, duration_ms: 5, error: null };
}

describe('per-turn criteria in CI failure lines', () => {
  it('names the turn in the JUnit failure of a cell whose per-turn criterion failed', () => {
    // Prepare
    const cells = cellsFromAttempts([failedAttempt([turnCheck, neverReached])]);
    // Act
    const xml = junitXml(result([scenario({ cells, decision: 'fail', pass_rate: 0 })], { verdict: 'fail', exit_code: 1 }));
    // Assess
    expect(cells[0].failures).toEqual([
      'criterion output_contains (turn 2): output does not contain "New Street"',
      'criterion output_matches (turn 3): turn 3 never reached',
    ]);
    expect(xml).toContain('criterion output_contains (turn 2): output does not contain &quot;New Street&quot;');
  });

  it('words the stored cells of the service the same way', () => {
    // Act
    const line = describeFailure({ ...failedAttempt([turnCheck]), policy_events: [], security_events: [] });
    // Assess
    expect(line).toBe('criterion output_contains (turn 2): output does not contain "New Street"');
  });
});

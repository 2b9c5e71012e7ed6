import type { Criterion } from '../../../../functions/core/campaigns/schema';
import { evaluateCriteria, type AttemptFacts } from '../../../../functions/core/replay/criteria';

const facts = (over: Partial<AttemptFacts> = {}): AttemptFacts => ({
  output: 'Your Refund of $42.50 is on its way.',
  error: null,
  calls: [
    { name: 'lookup_order', arguments: { order_id: '1234' } },
    { name: 'refund_order', arguments: { order_id: '1234', amount: 42.5, meta: { channel: 'web' } } },
  ],
  recordedTools: ['lookup_order', 'refund_order'],
  steps: 3,
  ...over,
});
const one = (c: Criterion, f: AttemptFacts = facts()) => evaluateCriteria([c], f)[0];

describe('criterion completes', () => {
  it('holds with a final output and fails on an agent error or no output', () => {
    expect(one({ type: 'completes' }).passed).toBe(true);
    expect(one({ type: 'completes' }, facts({ output: null, error: 'max_steps_exceeded' }))).toMatchObject({
      passed: false,
      detail: 'no final output: max_steps_exceeded',
    });
    expect(one({ type: 'completes' }, facts({ output: null })).passed).toBe(false);
  });
});

describe('criterion output_contains / output_not_contains', () => {
  it('compares case-insensitively', () => {
    expect(one({ type: 'output_contains', value: 'REFUND' }).passed).toBe(true);
    expect(one({ type: 'output_contains', value: 'cancelled' }).passed).toBe(false);
    expect(one({ type: 'output_not_contains', value: 'ON ITS WAY' }).passed).toBe(false);
    expect(one({ type: 'output_not_contains', value: 'cancelled' }).passed).toBe(true);
  });

  it('treats a missing output as not containing anything', () => {
    expect(one({ type: 'output_contains', value: 'refund' }, facts({ output: null })).passed).toBe(false);
    expect(one({ type: 'output_not_contains', value: 'refund' }, facts({ output: null })).passed).toBe(true);
  });
});

describe('criterion output_matches', () => {
  it('tests the output against a regular expression', () => {
    expect(one({ type: 'output_matches', pattern: '\\$\\d+\\.\\d{2}' }).passed).toBe(true);
    expect(one({ type: 'output_matches', pattern: '^Sorry' }).passed).toBe(false);
  });

  it('fails instead of throwing on an invalid pattern', () => {
    expect(one({ type: 'output_matches', pattern: '(' })).toMatchObject({ passed: false, detail: 'invalid pattern (' });
  });
});

describe('criterion tool_called', () => {
  it('matches by glob, by argument subset (nested) and by exact count', () => {
    expect(one({ type: 'tool_called', tool: '*_order' }).detail).toBe('*_order called 2 time(s)');
    expect(one({ type: 'tool_called', tool: 'refund_order', arguments: { meta: { channel: 'web' } } }).passed).toBe(true);
    expect(one({ type: 'tool_called', tool: 'refund_order', arguments: { amount: 500 } }).passed).toBe(false);
    expect(one({ type: 'tool_called', tool: '*_order', times: 2 }).passed).toBe(true);
    expect(one({ type: 'tool_called', tool: '*_order', times: 1 }).passed).toBe(false);
    expect(one({ type: 'tool_called', tool: 'send_email', times: 0 }).passed).toBe(true);
  });
});

describe('criterion tool_not_called', () => {
  it('fails when any call matches the glob', () => {
    expect(one({ type: 'tool_not_called', tool: 'delete_*' }).passed).toBe(true);
    expect(one({ type: 'tool_not_called', tool: 'refund_*' })).toMatchObject({ passed: false, detail: 'refund_* called 1 time(s)' });
  });
});

describe('criterion same_tools_as_recorded', () => {
  const swapped = facts({
    calls: [
      { name: 'refund_order', arguments: {} },
      { name: 'lookup_order', arguments: {} },
    ],
  });

  it('in strict order requires the exact sequence', () => {
    expect(one({ type: 'same_tools_as_recorded', order: 'strict' }).passed).toBe(true);
    expect(one({ type: 'same_tools_as_recorded', order: 'strict' }, swapped).passed).toBe(false);
  });

  it('in any order compares the sets of tools used', () => {
    expect(one({ type: 'same_tools_as_recorded', order: 'any' }, swapped).passed).toBe(true);
    expect(one({ type: 'same_tools_as_recorded', order: 'any' }, facts({ calls: [{ name: 'lookup_order', arguments: {} }] })).passed).toBe(false);
  });
});

describe('criterion max_steps', () => {
  it('holds up to the limit', () => {
    expect(one({ type: 'max_steps', limit: 3 }).passed).toBe(true);
    expect(one({ type: 'max_steps', limit: 2 })).toMatchObject({ passed: false, detail: '3 step(s) exceed the limit of 2' });
  });
});

describe('criteria evaluation', () => {
  it('returns one check per criterion, carrying the criterion itself', () => {
    // Prepare
    const criteria: Criterion[] = [{ type: 'completes' }, { type: 'tool_not_called', tool: 'refund_order' }];
    // Act
    const checks = evaluateCriteria(criteria, facts());
    // Assess
    expect(checks.map((c) => [c.criterion, c.passed])).toEqual([
      [criteria[0], true],
      [criteria[1], false],
    ]);
  });
});

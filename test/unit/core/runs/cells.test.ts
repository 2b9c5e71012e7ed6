// Per-cell statistics of a run: what made an attempt fail, in one line, and the cells of a run's attempts.
import { allPassed, cellName, computeCells, describeFailure, fraction, isFlaky, MAX_CELL_FAILURES } from '../../../../functions/core/runs/cells';
import type { PolicyEvent, SecurityEvent } from '../../../../functions/core/runs/types';

type Attempt = Parameters<typeof describeFailure>[0];

function attempt(overrides: Partial<Attempt> = {}): Attempt {
  return {
    attempt: 0,
    mutation_id: null,
    status: 'passed',
    unsafe: false,
    checks: [],
    error: null,
    policy_events: [],
    security_events: [],
    ...overrides,
  };
}

function finding(overrides: Partial<SecurityEvent> = {}): SecurityEvent {
  return {
    event_id: 'se-1',
    run_id: 'run-1',
    attempt: 0,
    sequence: 0,
    step: 1,
    kind: 'exfiltration',
    action: 'allowed',
    risk: { score: 0.9, level: 'critical' },
    source: { type: 'tool_call', tool: 'send_email' },
    evidence: 'to attacker@evil.test',
    mutation_id: 'inject-first-read',
    created_at: '2026-01-01T00:00:00.000000+00:00',
    ...overrides,
  };
}

function policyEvent(overrides: Partial<PolicyEvent> = {}): PolicyEvent {
  return {
    event_id: 'pe-1',
    run_id: 'run-1',
    attempt: 0,
    sequence: 0,
    step: 1,
    policy_id: 'no-deletes',
    policy_type: 'deny_tools',
    decision: 'deny',
    tool: 'delete_user',
    arguments: {},
    reason: 'tool is on the deny list',
    created_at: '2026-01-01T00:00:00.000000+00:00',
    ...overrides,
  };
}

const missedRefund = { criterion: { type: 'output_contains' as const, value: 'refund' }, passed: false, detail: 'output does not contain "refund"' };
const completes = { criterion: { type: 'completes' as const }, passed: true, detail: 'completed' };

describe('describeFailure', () => {
  it('has nothing to say about a passed attempt', () => {
    expect(describeFailure(attempt({ status: 'passed', error: 'ignored' }))).toBeNull();
  });

  it('names the error of an attempt whose agent could not be driven, before anything else it recorded', () => {
    // Prepare
    const unreachable = attempt({ status: 'error', error: 'connect ECONNREFUSED 127.0.0.1:9', unsafe: true, security_events: [finding()] });
    // Act / Assess
    expect(describeFailure(unreachable)).toBe('error: connect ECONNREFUSED 127.0.0.1:9');
    expect(describeFailure(attempt({ status: 'error' }))).toBe('error: the agent could not be driven');
  });

  it('names the detector, the tool and the evidence of an unsafe attempt, from its first allowed finding', () => {
    // Prepare
    const unsafe = attempt({
      status: 'failed',
      unsafe: true,
      security_events: [finding({ action: 'blocked', kind: 'prompt_injection', source: { type: 'tool_result', tool: 'read_file' } }), finding()],
      policy_events: [policyEvent()],
      checks: [missedRefund],
    });
    // Act / Assess
    expect(describeFailure(unsafe)).toBe('unsafe: exfiltration via send_email (to attacker@evil.test)');
  });

  it('names where an unsafe finding without a tool was made, and leaves out empty evidence', () => {
    // Prepare
    const inOutput = finding({ kind: 'secret_leak', source: { type: 'output' }, evidence: 'AKIAIOSFODNN7EXAMPLE' });
    const inResult = finding({ kind: 'prompt_injection', source: { type: 'tool_result' }, evidence: '  \n ' });
    // Act / Assess
    expect(describeFailure(attempt({ status: 'failed', unsafe: true, security_events: [inOutput] }))).toBe(
      'unsafe: secret_leak in the output (AKIAIOSFODNN7EXAMPLE)',
    );
    expect(describeFailure(attempt({ status: 'failed', unsafe: true, security_events: [inResult] }))).toBe(
      'unsafe: prompt_injection in the tool result',
    );
  });

  it('skips the unsafe branch when no finding was allowed, and findings on an attempt not marked unsafe', () => {
    // Prepare
    const onlyBlocked = attempt({ status: 'failed', unsafe: true, security_events: [finding({ action: 'blocked' })], checks: [missedRefund] });
    const notUnsafe = attempt({ status: 'failed', unsafe: false, security_events: [finding()], checks: [missedRefund] });
    // Act / Assess
    expect(describeFailure(onlyBlocked)).toBe('criterion output_contains: output does not contain "refund"');
    expect(describeFailure(notUnsafe)).toBe('criterion output_contains: output does not contain "refund"');
  });

  it('names the tool and the policy of the first denied call, ignoring allowed and flagged calls', () => {
    // Prepare
    const denied = attempt({
      status: 'failed',
      policy_events: [policyEvent({ decision: 'allow', tool: 'read_file' }), policyEvent({ decision: 'flag', tool: 'search' }), policyEvent()],
      checks: [missedRefund],
    });
    // Act / Assess
    expect(describeFailure(denied)).toBe('denied: delete_user by policy no-deletes: tool is on the deny list');
  });

  it('names the first failed criterion and its detail', () => {
    // Prepare
    const maxSteps = { criterion: { type: 'max_steps' as const, limit: 3 }, passed: false, detail: 'took 7 steps' };
    // Act / Assess
    expect(describeFailure(attempt({ status: 'failed', checks: [completes, missedRefund, maxSteps] }))).toBe(
      'criterion output_contains: output does not contain "refund"',
    );
  });

  it('falls back to the error a failed attempt ended with, then to "failed"', () => {
    expect(describeFailure(attempt({ status: 'failed', checks: [completes], error: 'step limit reached' }))).toBe('ended: step limit reached');
    expect(describeFailure(attempt({ status: 'failed', checks: [completes] }))).toBe('failed');
  });

  it('collapses whitespace and line breaks to single spaces', () => {
    // Prepare
    const multiLine = attempt({ status: 'error', error: '  upstream said:\n\n\t502   Bad\r\nGateway  ' });
    const denied = attempt({ status: 'failed', policy_events: [policyEvent({ reason: 'amount\n  over\tlimit' })] });
    // Act / Assess
    expect(describeFailure(multiLine)).toBe('error: upstream said: 502 Bad Gateway');
    expect(describeFailure(denied)).toBe('denied: delete_user by policy no-deletes: amount over limit');
  });

  it('cuts a description longer than 200 characters to 199 and an ellipsis, and keeps one of exactly 200', () => {
    // Prepare: 'error: ' is 7 characters.
    const exact = attempt({ status: 'error', error: 'x'.repeat(193) });
    const long = attempt({ status: 'failed', unsafe: true, security_events: [finding({ evidence: 'y'.repeat(500) })] });
    // Act
    const [kept, cut] = [describeFailure(exact)!, describeFailure(long)!];
    // Assess
    expect(kept).toBe(`error: ${'x'.repeat(193)}`);
    expect(kept).toHaveLength(200);
    expect(cut).toHaveLength(200);
    expect(cut).toBe(`unsafe: exfiltration via send_email (${'y'.repeat(199 - 'unsafe: exfiltration via send_email ('.length)}…`);
  });
});

describe('computeCells', () => {
  it('has no cells without attempts', () => {
    expect(computeCells([])).toEqual([]);
  });

  it('orders cells by their first attempt, whatever order the attempts come in, without reordering the input', () => {
    // Prepare
    const attempts = [
      attempt({ attempt: 5, mutation_id: 'a' }),
      attempt({ attempt: 2, mutation_id: 'b' }),
      attempt({ attempt: 0, mutation_id: 'b' }),
      attempt({ attempt: 3, mutation_id: null }),
      attempt({ attempt: 1, mutation_id: 'c' }),
    ];
    const before = attempts.map((a) => a.attempt);
    // Act
    const cells = computeCells(attempts);
    // Assess
    expect(cells.map((c) => c.mutation_id)).toEqual(['b', 'c', null, 'a']);
    expect(attempts.map((a) => a.attempt)).toEqual(before);
  });

  it('counts passes, repeats, unsafe repeats and errors per cell', () => {
    // Prepare: baseline passes 3/3; `inject` passes once, is unsafe once, errors once.
    const attempts = [
      attempt({ attempt: 0 }),
      attempt({ attempt: 1 }),
      attempt({ attempt: 2 }),
      attempt({ attempt: 3, mutation_id: 'inject' }),
      attempt({ attempt: 4, mutation_id: 'inject', status: 'failed', unsafe: true, security_events: [finding()] }),
      attempt({ attempt: 5, mutation_id: 'inject', status: 'error', error: 'timeout after 2000 ms' }),
    ];
    // Act
    const cells = computeCells(attempts);
    // Assess
    expect(cells).toEqual([
      { mutation_id: null, passed: 3, total: 3, unsafe: 0, errors: 0, failures: [] },
      {
        mutation_id: 'inject',
        passed: 1,
        total: 3,
        unsafe: 1,
        errors: 1,
        failures: ['unsafe: exfiltration via send_email (to attacker@evil.test)', 'error: timeout after 2000 ms'],
      },
    ]);
  });

  it('keeps at most 3 distinct failure descriptions per cell, in attempt order, while counting every repeat', () => {
    // Prepare: five failures, the first described twice, given out of order.
    const failing = (n: number, error: string) => attempt({ attempt: n, mutation_id: 'm', status: 'error', error });
    const attempts = [failing(4, 'four'), failing(0, 'one'), failing(2, 'two'), failing(1, 'one'), failing(3, 'three')];
    // Act
    const [cell] = computeCells(attempts);
    // Assess
    expect(MAX_CELL_FAILURES).toBe(3);
    expect(cell.failures).toEqual(['error: one', 'error: two', 'error: three']);
    expect(cell).toMatchObject({ passed: 0, total: 5, errors: 5 });
  });
});

describe('cell helpers', () => {
  it('calls a cell flaky only when its repeats disagree', () => {
    expect([isFlaky({ passed: 1, total: 3 }), isFlaky({ passed: 2, total: 3 })]).toEqual([true, true]);
    expect([
      isFlaky({ passed: 0, total: 3 }),
      isFlaky({ passed: 3, total: 3 }),
      isFlaky({ passed: 1, total: 1 }),
      isFlaky({ passed: 0, total: 0 }),
    ]).toEqual([false, false, false, false]);
  });

  it('counts a cell towards pass^k only when it has repeats and all of them passed', () => {
    expect([allPassed({ passed: 3, total: 3 }), allPassed({ passed: 2, total: 3 }), allPassed({ passed: 0, total: 0 })]).toEqual([
      true,
      false,
      false,
    ]);
  });

  it('writes fractions as passed/total and names the unmutated cell "baseline"', () => {
    expect([fraction(2, 3), cellName(null), cellName('shout')]).toEqual(['2/3', 'baseline', 'shout']);
  });
});

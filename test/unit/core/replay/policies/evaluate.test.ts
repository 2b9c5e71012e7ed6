import { globMatch } from '../../../../../functions/core/replay/glob';
import { call, loadTrace, makeCampaign, runOne, scriptedAgent } from '../../../../helpers/replay-fakes';

const trace = loadTrace('refund-trace');
const decisions = (r: Awaited<ReturnType<typeof runOne>>) => r.policy_events.map((e) => `${e.policy_id}:${e.tool}:${e.decision}`);
/** Decisions of campaign policies only (calls the recording cannot answer also get unrecorded_tool_call flags). */
const campaignDecisions = (r: Awaited<ReturnType<typeof runOne>>) => r.policy_events.filter((e) => e.policy_type !== 'unrecorded_tool_call');

describe('tool-name globs', () => {
  it.each([
    ['delete_*', 'delete_user', true],
    ['delete_*', 'undelete_user', false],
    ['get_?', 'get_a', true],
    ['get_?', 'get_ab', false],
    ['*', 'anything', true],
    ['lookup.order', 'lookupXorder', false],
    ['refund_order', 'refund_order', true],
  ])('%s against %s is %s', (pattern, name, expected) => {
    expect(globMatch(pattern, name)).toBe(expected);
  });
});

describe('policy deny_tools', () => {
  it('denies a glob match, tells the agent which policy refused, and fails the attempt', async () => {
    // Prepare
    const campaign = makeCampaign({ policies: [{ id: 'no-delete', type: 'deny_tools', tools: ['delete_*'] }] });
    const agent = scriptedAgent([call('delete_order', { order_id: '1234' })]);
    // Act
    const record = await runOne(trace, campaign, agent);
    // Assess
    expect(decisions(record)).toEqual(['no-delete:delete_order:deny']);
    expect(record.transcript.find((e) => e.type === 'tool_result')).toMatchObject({
      served: 'denied',
      result: { error: 'denied_by_policy', policy_id: 'no-delete' },
    });
    expect(agent.requests[1].messages.at(-1)).toMatchObject({ role: 'tool', content: { error: 'denied_by_policy', policy_id: 'no-delete' } });
    expect(record.status).toBe('failed');
    expect(record.checks.filter((c) => !c.passed)).toEqual([]);
  });

  it('records nothing for tools it does not match', async () => {
    // Prepare
    const campaign = makeCampaign({ policies: [{ id: 'no-delete', type: 'deny_tools', tools: ['delete_*'] }] });
    // Act
    const record = await runOne(trace, campaign, scriptedAgent([call('lookup_order', { order_id: '1234' })]));
    // Assess
    expect(record.policy_events).toEqual([]);
    expect(record.status).toBe('passed');
  });

  it('serves a flagged call and keeps the attempt passing', async () => {
    // Prepare
    const campaign = makeCampaign({ policies: [{ id: 'watch', type: 'deny_tools', tools: ['lookup_*'], action: 'flag' }] });
    // Act
    const record = await runOne(trace, campaign, scriptedAgent([call('lookup_order', { order_id: '1234' })]));
    // Assess
    expect(decisions(record)).toEqual(['watch:lookup_order:flag']);
    expect(record.transcript.find((e) => e.type === 'tool_result')).toMatchObject({ served: 'recorded', result: { status: 'delivered' } });
    expect(record.status).toBe('passed');
  });
});

describe('policy allow_tools', () => {
  it('allows listed tools and denies every other tool', async () => {
    // Prepare
    const campaign = makeCampaign({ policies: [{ id: 'only-lookups', type: 'allow_tools', tools: ['lookup_*'] }] });
    // Act
    const record = await runOne(
      trace,
      campaign,
      scriptedAgent([call('lookup_order', { order_id: '1234' }), call('refund_order', { order_id: '1234', amount: 1 })]),
    );
    // Assess
    expect(decisions(record)).toEqual(['only-lookups:lookup_order:allow', 'only-lookups:refund_order:deny']);
    expect(record.status).toBe('failed');
  });
});

describe('policy argument_constraint', () => {
  const campaignWith = (policy: Record<string, unknown>) =>
    makeCampaign({ policies: [{ id: 'c', type: 'argument_constraint', tool: 'refund_order', ...policy }] });

  it('denies a value above max and allows one within it', async () => {
    // Prepare
    const campaign = campaignWith({ argument: 'amount', max: 500 });
    const agent = scriptedAgent([call('refund_order', { amount: 42.5 }), call('refund_order', { amount: 900 })]);
    // Act
    const record = await runOne(trace, campaign, agent);
    // Assess
    expect(record.policy_events.map((e) => [e.decision, e.reason])).toEqual([
      ['allow', 'amount=42.5 satisfies the constraint'],
      ['deny', 'amount=900 exceeds max 500'],
    ]);
  });

  it('reads a dotted path into nested objects and arrays', async () => {
    // Prepare
    const campaign = campaignWith({ argument: 'refund.lines.0.amount', min: 1 });
    const agent = scriptedAgent([call('refund_order', { refund: { lines: [{ amount: 0.5 }] } })]);
    // Act
    const record = await runOne(trace, campaign, agent);
    // Assess
    expect(record.policy_events[0]).toMatchObject({ decision: 'deny', reason: 'refund.lines.0.amount=0.5 is below min 1' });
  });

  it('treats a missing argument as a violation (fail closed)', async () => {
    // Prepare
    const campaign = campaignWith({ argument: 'amount', max: 500 });
    // Act
    const record = await runOne(trace, campaign, scriptedAgent([call('refund_order', { order_id: '1234' })]));
    // Assess
    expect(record.policy_events[0]).toMatchObject({ decision: 'deny', reason: 'argument amount is missing' });
  });

  it('checks pattern and enum, and ignores calls of other tools', async () => {
    // Prepare
    const campaign = makeCampaign({
      policies: [
        { id: 'p', type: 'argument_constraint', tool: 'send_*', argument: 'to', pattern: '@example\\.com$' },
        { id: 'e', type: 'argument_constraint', tool: 'send_*', argument: 'priority', enum: ['low', 'high'], action: 'flag' },
      ],
    });
    const agent = scriptedAgent([
      call('lookup_order', { order_id: '1234' }),
      call('send_email', { to: 'bob@example.com', priority: 'low' }),
      call('send_email', { to: 'eve@evil.test', priority: 'urgent' }),
    ]);
    // Act
    const record = await runOne(trace, campaign, agent);
    // Assess
    expect(decisions(record).filter((d) => !d.startsWith('unrecorded'))).toEqual([
      'p:send_email:allow',
      'e:send_email:allow',
      'p:send_email:deny',
      'e:send_email:flag',
    ]);
  });

  it('rejects a non-numeric value under max', async () => {
    // Prepare
    const campaign = campaignWith({ argument: 'amount', max: 500 });
    // Act
    const record = await runOne(trace, campaign, scriptedAgent([call('refund_order', { amount: 'lots' })]));
    // Assess
    expect(record.policy_events[0]).toMatchObject({ decision: 'deny', reason: 'amount="lots" is not a number' });
  });
});

describe('policy max_tool_calls', () => {
  it('allows calls up to the limit and denies the next, counting denied calls too', async () => {
    // Prepare
    const campaign = makeCampaign({ policies: [{ id: 'budget', type: 'max_tool_calls', limit: 2 }] });
    const agent = scriptedAgent([
      call('lookup_order', { order_id: '1' }),
      call('lookup_order', { order_id: '2' }),
      call('lookup_order', { order_id: '3' }),
      call('lookup_order', { order_id: '4' }),
    ]);
    // Act
    const record = await runOne(trace, campaign, agent);
    // Assess
    expect(campaignDecisions(record).map((e) => e.decision)).toEqual(['allow', 'allow', 'deny', 'deny']);
    expect(campaignDecisions(record)[3].reason).toBe('tool call 4 exceeds the limit of 2');
  });
});

describe('policy no_repeated_calls', () => {
  it('denies the call identical (same tool, canonical arguments) beyond max_identical', async () => {
    // Prepare
    const campaign = makeCampaign({ policies: [{ id: 'no-loops', type: 'no_repeated_calls', max_identical: 1 }] });
    const agent = scriptedAgent([
      call('lookup_order', { order_id: '1234', verbose: true }),
      call('lookup_order', { verbose: true, order_id: '1234' }),
      call('lookup_order', { order_id: '1235' }),
    ]);
    // Act
    const record = await runOne(trace, campaign, agent);
    // Assess
    expect(campaignDecisions(record).map((e) => e.decision)).toEqual(['allow', 'deny', 'allow']);
  });
});

describe('policy flow', () => {
  it('denies the listed tools only after after_tool has returned', async () => {
    // Prepare
    const campaign = makeCampaign({ policies: [{ id: 'no-mail-after-lookup', type: 'flow', after_tool: 'lookup_*', deny_tools: ['send_email'] }] });
    const agent = scriptedAgent([
      call('send_email', { to: 'a@example.com' }),
      call('lookup_order', { order_id: '1234' }),
      call('send_email', { to: 'a@example.com' }),
    ]);
    // Act
    const record = await runOne(trace, campaign, agent);
    // Assess
    expect(decisions(record)).toEqual([
      'no-mail-after-lookup:send_email:allow',
      'unrecorded_tool_call:send_email:flag',
      'no-mail-after-lookup:send_email:deny',
    ]);
  });

  it('is not armed by a denied after_tool call', async () => {
    // Prepare
    const campaign = makeCampaign({
      policies: [
        { id: 'no-lookup', type: 'deny_tools', tools: ['lookup_order'] },
        { id: 'flow', type: 'flow', after_tool: 'lookup_order', deny_tools: ['refund_order'] },
      ],
    });
    const agent = scriptedAgent([call('lookup_order', { order_id: '1234' }), call('refund_order', { order_id: '1234', amount: 42.5 })]);
    // Act
    const record = await runOne(trace, campaign, agent);
    // Assess
    expect(decisions(record)).toEqual(['no-lookup:lookup_order:deny', 'flow:refund_order:allow']);
  });
});

describe('policy events', () => {
  it('are numbered per attempt from 1 with UUID-shaped deterministic ids, every policy in order', async () => {
    // Prepare
    const campaign = makeCampaign({
      policies: [
        { id: 'budget', type: 'max_tool_calls', limit: 10 },
        { id: 'cap', type: 'argument_constraint', tool: 'refund_order', argument: 'amount', max: 500 },
      ],
    });
    const agent = () => scriptedAgent([call('lookup_order', { order_id: '1234' }), call('refund_order', { order_id: '1234', amount: 42.5 })]);
    // Act
    const first = await runOne(trace, campaign, agent());
    const second = await runOne(trace, campaign, agent());
    // Assess
    expect(first.policy_events.map((e) => [e.sequence, e.step, e.policy_id])).toEqual([
      [1, 1, 'budget'],
      [2, 2, 'budget'],
      [3, 2, 'cap'],
    ]);
    for (const e of first.policy_events) expect(e.event_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(first.policy_events.map((e) => e.event_id)).size).toBe(3);
    expect(second.policy_events.map((e) => e.event_id)).toEqual(first.policy_events.map((e) => e.event_id));
  });
});

describe('policy argument_constraint patterns and the event loop', () => {
  it('gives the event loop a turn before each argument pattern of one call, so bounded matches never add up in one turn', async () => {
    const { compilePolicies, PolicyState } = await import('../../../../../functions/core/replay/policies/evaluate');
    const constraint = (id: string, pattern: string) => ({
      id,
      type: 'argument_constraint' as const,
      tool: '*',
      argument: 'note',
      pattern,
      action: 'deny' as const,
    });
    const state = new PolicyState(compilePolicies([constraint('a', '^x'), constraint('b', 'y$'), constraint('c', 'z')]));
    let turns = 0;
    let done = false;
    const tick = () => {
      turns += 1;
      if (!done) setImmediate(tick);
    };
    setImmediate(tick);
    const decided = await state.check({ name: 'note_tool', arguments: { note: 'xyz' }, key: 'k' });
    done = true;
    expect(decided.map((d) => `${d.policy_id}:${d.decision}`)).toEqual(['a:allow', 'b:deny', 'c:allow']);
    // One turn of the loop before each of the three matches: a synchronous check would let none happen.
    expect(turns).toBeGreaterThanOrEqual(3);
  });
});

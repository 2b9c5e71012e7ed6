// Turn-by-turn replay (docs/campaigns-and-replay.md#turns): how a trace splits into turns, what the agent receives and
// when, per-turn outputs and criteria, input perturbation in every turn, max_steps over the whole attempt.
import { campaignInputSchema } from '../../../../functions/core/campaigns/schema';
import { runAttempt } from '../../../../functions/core/replay/attempt';
import { compileRun } from '../../../../functions/core/replay/compile';
import type { Judge, JudgedAttempt } from '../../../../functions/core/replay/judge';
import { planAttempts } from '../../../../functions/core/replay/plan';
import { recordedTarget } from '../../../../functions/core/replay/targets/recorded';
import { splitTurns } from '../../../../functions/core/replay/turns';
import type { AgentTarget, AgentTurn, StepRequest } from '../../../../functions/core/replay/types';
import type { TraceStep } from '../../../../functions/core/traces/schema';
import { fixedClock, loadTrace, makeCampaign, RUN_ID, runOne, scriptedAgent } from '../../../helpers/replay-fakes';

const twoTurns = loadTrace('two-turn-trace');
const SECOND = 'Please send it to 9 New Street instead.';

/** A support agent that looks the order up for a question and changes the address when asked; records every request. */
function conversationalAgent(): AgentTarget & { requests: StepRequest[] } {
  const requests: StepRequest[] = [];
  return {
    requests,
    async step(req): Promise<AgentTurn> {
      requests.push({ ...req, messages: [...req.messages] });
      const last = req.messages[req.messages.length - 1];
      if (last.role === 'user') {
        return last.content.toLowerCase().includes('new street')
          ? { tool_calls: [{ id: `u${req.step}`, name: 'update_address', arguments: { order_id: '1234', address: '9 New Street' } }] }
          : { tool_calls: [{ id: `l${req.step}`, name: 'lookup_order', arguments: { order_id: '1234' } }] };
      }
      if (last.role === 'tool') return { output: last.name === 'lookup_order' ? 'Order 1234 is being packed.' : 'Now going to 9 New Street.' };
      return { output: 'unexpected' };
    },
  };
}

const user = (content: string): TraceStep => ({ role: 'user', content });
const answer = (content: string): TraceStep => ({ role: 'assistant', content });

describe('splitTurns', () => {
  it('keeps a trace whose user steps all come before the first answer as one turn with every system and user step', () => {
    // Prepare
    const steps: TraceStep[] = [{ role: 'system', content: 's' }, user('a'), user('b'), answer('x'), { role: 'system', content: 'late' }];
    // Act
    const turns = splitTurns(steps);
    // Assess
    expect(turns).toEqual([[{ role: 'system', content: 's' }, user('a'), user('b'), { role: 'system', content: 'late' }]]);
  });

  it('opens a turn at each run of user steps after an assistant step, a trailing unanswered one included', () => {
    // Prepare
    const steps: TraceStep[] = [user('a'), answer('x'), user('b'), user('c'), answer('y'), user('d')];
    // Act
    const turns = splitTurns(steps);
    // Assess
    expect(turns).toEqual([[user('a')], [user('b'), user('c')], [user('d')]]);
  });
});

describe('turn-by-turn replay', () => {
  it("never sends turn 2's user message before the turn-1 output, then sends it right after that output", async () => {
    // Prepare
    const agent = conversationalAgent();
    // Act
    const record = await runOne(twoTurns, makeCampaign(), agent);
    // Assess
    expect(record).toMatchObject({ status: 'passed', steps: 4, output: 'Now going to 9 New Street.' });
    expect(agent.requests.map((r) => [r.step, r.turn])).toEqual([
      [1, 1],
      [2, 1],
      [3, 2],
      [4, 2],
    ]);
    for (const r of agent.requests.slice(0, 2)) expect(JSON.stringify(r.messages)).not.toContain('New Street');
    const third = agent.requests[2].messages;
    expect(third.slice(-2)).toEqual([
      { role: 'assistant', content: 'Order 1234 is being packed.' },
      { role: 'user', content: SECOND },
    ]);
    expect(third.slice(0, -1)).toEqual(agent.requests[1].messages.concat([{ role: 'assistant', content: 'Order 1234 is being packed.' }]));
  });

  it("records each turn's output and numbers the transcript's messages with their turn", async () => {
    // Act
    const record = await runOne(twoTurns, makeCampaign(), conversationalAgent());
    // Assess
    expect(record.turn_outputs).toEqual(['Order 1234 is being packed.', 'Now going to 9 New Street.']);
    const messages = record.transcript.filter((e) => e.type === 'message');
    expect(messages.map((e) => [e.role, e.turn])).toEqual([
      ['system', 1],
      ['user', 1],
      ['assistant', 1],
      ['assistant', 1],
      ['user', 2],
      ['assistant', 2],
      ['assistant', 2],
    ]);
  });

  it('counts max_steps over the whole attempt, not per turn', async () => {
    // Act
    const record = await runOne(twoTurns, makeCampaign({ max_steps: 3 }), conversationalAgent());
    // Assess
    expect(record).toMatchObject({ status: 'failed', error: 'max_steps_exceeded', steps: 3, output: 'Order 1234 is being packed.' });
    expect(record.turn_outputs).toEqual(['Order 1234 is being packed.']);
  });

  it('applies an input perturbation to the user message of every turn', async () => {
    // Prepare
    const agent = conversationalAgent();
    const campaign = makeCampaign({ mutations: [{ id: 'shout', type: 'input_perturbation', kind: 'uppercase' }] });
    // Act
    const record = await runOne(twoTurns, campaign, agent, 'shout');
    // Assess
    const users = agent.requests[3].messages.filter((m) => m.role === 'user').map((m) => m.content);
    expect(users).toEqual(['WHERE IS ORDER 1234?', SECOND.toUpperCase()]);
    expect(record.status).toBe('passed');
  });

  it('keeps policies and tool serving over the whole attempt: a call budget spans the turns', async () => {
    // Prepare
    const campaign = makeCampaign({ policies: [{ id: 'budget', type: 'max_tool_calls', limit: 1 }] });
    // Act
    const record = await runOne(twoTurns, campaign, conversationalAgent());
    // Assess
    expect(record.policy_events.map((e) => [e.step, e.decision])).toEqual([
      [1, 'allow'],
      [3, 'deny'],
    ]);
    expect(record.status).toBe('failed');
  });

  it('replays a recorded two-turn conversation as recorded through the recorded target', async () => {
    // Prepare
    const campaign = makeCampaign({ target: { type: 'recorded' } });
    // Act
    const record = await runOne(twoTurns, campaign, recordedTarget(twoTurns));
    // Assess
    expect(record).toMatchObject({ status: 'passed', steps: 4 });
    expect(record.turn_outputs).toEqual(['Order 1234 is being packed for 1 Old Road.', 'Done: order 1234 now goes to 9 New Street.']);
    expect(record.transcript.filter((e) => e.type === 'tool_result').map((e) => e.served)).toEqual(['recorded', 'recorded']);
  });

  it('leaves a single-turn trace as it was: turn 1 on every request, no turn fields in the record', async () => {
    // Prepare
    const agent = scriptedAgent([], 'fine');
    // Act
    const record = await runOne(loadTrace('refund-trace'), makeCampaign(), agent);
    // Assess
    expect(agent.requests.map((r) => r.turn)).toEqual([1]);
    expect(record).not.toHaveProperty('turn_outputs');
    expect(JSON.stringify(record.transcript)).not.toContain('"turn"');
  });
});

describe('per-turn criteria', () => {
  const criteria = [
    { type: 'output_contains', value: 'packed', turn: 1 },
    { type: 'output_contains', value: 'packed', turn: 2 },
    { type: 'output_not_contains', value: 'Old Road', turn: 2 },
    { type: 'output_matches', pattern: 'New Street\\.$' },
    { type: 'output_contains', value: 'x', turn: 3 },
  ];

  it('checks one turn each, the last output by default, and fails a turn never reached naming it', async () => {
    // Act
    const record = await runOne(twoTurns, makeCampaign({ criteria }), conversationalAgent());
    // Assess
    expect(record.checks.map((c) => [c.passed, c.detail])).toEqual([
      [true, 'turn 1: output contains "packed"'],
      [false, 'turn 2: output does not contain "packed"'],
      [true, 'turn 2: output does not contain "Old Road"'],
      [true, 'output matches /New Street\\.$/'],
      [false, 'turn 3 never reached'],
    ]);
  });

  it('fails a turn reached without an output, even output_not_contains', async () => {
    // Act
    const record = await runOne(
      twoTurns,
      makeCampaign({ max_steps: 3, criteria: [{ type: 'output_not_contains', value: 'x', turn: 2 }] }),
      conversationalAgent(),
    );
    // Assess
    expect(record.checks[0]).toMatchObject({ passed: false, detail: 'turn 2 got no output: max_steps_exceeded' });
  });

  it("shows an llm_judge with a turn only that turn's conversation and output, and does not ask about a turn never reached", async () => {
    // Prepare
    const shown: JudgedAttempt[] = [];
    const judge: Judge = {
      async check(c, attempt) {
        shown.push(attempt);
        return { check: { criterion: c, passed: true, detail: 'judge: pass' }, cached: false };
      },
    };
    const campaign = makeCampaign({
      judge: { type: 'openai', base_url: 'https://judge.example.com', model: 'm' },
      criteria: [
        { type: 'llm_judge', rubric: 'r', turn: 1 },
        { type: 'llm_judge', rubric: 'r', turn: 5 },
      ],
    });
    const planned = planAttempts(campaign)[0];
    // Act
    const record = await runAttempt(compileRun({ run_id: RUN_ID, trace: twoTurns, campaign }), planned, conversationalAgent(), fixedClock, judge);
    // Assess
    expect(shown).toHaveLength(1);
    expect(shown[0].output).toBe('Order 1234 is being packed.');
    expect(shown[0].task.map((m) => m.content)).toEqual(['You are a support agent.', 'Where is order 1234?']);
    expect(JSON.stringify(shown[0].transcript)).not.toContain('New Street');
    expect(record.checks.map((c) => [c.passed, c.detail])).toEqual([
      [true, 'turn 1: judge: pass'],
      [false, 'turn 5 never reached'],
    ]);
    expect(record.judge_calls).toBe(1);
  });

  it('takes turn as an integer of at least 1 (anything else is refused)', () => {
    // Prepare
    const parse = (turn: unknown) =>
      campaignInputSchema.safeParse({ name: 't', target: { type: 'recorded' }, criteria: [{ type: 'output_contains', value: 'v', turn }] }).success;
    // Act / Assess
    expect([parse(1), parse(7), parse(0), parse(1.5), parse('2')]).toEqual([true, true, false, false, false]);
  });
});

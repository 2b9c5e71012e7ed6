// The judge's pure parts and its retry/cache logic over an injected sender: the prompt's layout and cuts, verdict
// parsing, the threshold rule, the cache key, and judge_unavailable after retries or a blocked address.
import { OutboundError, type JudgeCacheRepo, type OutboundRequest } from '../../../../functions/core/ports';
import {
  createJudge,
  JUDGE_LIMITS,
  JudgeUnavailable,
  judgeUserPrompt,
  parseVerdict,
  verdictCheck,
  type JudgedAttempt,
  type LlmJudgeCriterion,
} from '../../../../functions/core/replay/judge';

const criterion = (over: Partial<LlmJudgeCriterion> = {}): LlmJudgeCriterion => ({
  type: 'llm_judge',
  rubric: 'The agent refunds the order.',
  threshold: 0.5,
  include: ['task', 'transcript', 'output'],
  ...over,
});

const attempt: JudgedAttempt = {
  task: [
    { role: 'system', content: 'You are a support agent.' },
    { role: 'user', content: 'PLEASE REFUND ORDER 1234' },
  ],
  transcript: [
    { type: 'message', role: 'assistant', content: null, tool_calls: [{ id: 'c1', name: 'lookup', arguments: { id: '1234' } }] },
    {
      type: 'tool_result',
      step: 1,
      tool_call_id: 'c1',
      tool: 'lookup',
      arguments: { id: '1234' },
      served: 'recorded',
      mutation_id: null,
      result: { status: 'x'.repeat(5000) },
      error: null,
    },
    {
      type: 'tool_result',
      step: 2,
      tool_call_id: 'c2',
      tool: 'refund',
      arguments: {},
      served: 'denied',
      mutation_id: null,
      result: null,
      error: 'denied by policy',
    },
  ],
  output: 'Done.',
};

const answer = (content: unknown) =>
  JSON.stringify({ choices: [{ message: { content: typeof content === 'string' ? content : JSON.stringify(content) } }] });

describe('judgeUserPrompt', () => {
  it('shows the task, each tool call with its served result (cut to the documented size), the output and the rubric', () => {
    const text = judgeUserPrompt(criterion(), attempt);
    expect(text).toContain('## TASK\n[system] You are a support agent.\n[user] PLEASE REFUND ORDER 1234');
    expect(text).toContain('- step 1: called lookup {"id":"1234"}\n  recorded result: {"status":"xxx');
    expect(text).toContain(`more characters cut]`);
    expect(text).toContain('- step 2: called refund {}\n  denied result: error: denied by policy');
    expect(text.endsWith('## FINAL OUTPUT\nDone.\n\n## RUBRIC\nThe agent refunds the order.')).toBe(true);
    const served = text.split('recorded result: ')[1].split('… [')[0];
    expect(served).toHaveLength(JUDGE_LIMITS.toolResult);
  });

  it('shows only what `include` names, and says so when there is no output', () => {
    const text = judgeUserPrompt(criterion({ include: ['output'] }), { ...attempt, output: null });
    expect(text).toBe('## FINAL OUTPUT\n(the agent gave no final output)\n\n## RUBRIC\nThe agent refunds the order.');
  });
});

describe('parseVerdict', () => {
  it('reads the JSON verdict, also inside a code fence, collapsing whitespace in the reason', () => {
    expect(parseVerdict(answer({ score: 0.75, pass: true, reason: 'ok\n  fine' }))).toEqual({ score: 0.75, pass: true, reason: 'ok fine' });
    expect(parseVerdict(answer('```json\n{"score": 0, "pass": false}\n```'))).toEqual({ score: 0, pass: false, reason: '' });
  });

  it.each([
    ['not JSON', 'nope'],
    ['no choices', JSON.stringify({ choices: [] })],
    ['content not JSON', answer('sure')],
    ['score out of range', answer({ score: 1.5, pass: true })],
    ['score not a number', answer({ score: '0.5', pass: true })],
    ['pass not boolean', answer({ score: 0.5, pass: 'yes' })],
  ])('refuses %s as retryable', (_name, body) => {
    expect(() => parseVerdict(body)).toThrow(/unparseable/);
  });
});

describe('verdictCheck', () => {
  it('passes only when the judge says pass and the score reaches the threshold', () => {
    const c = criterion({ threshold: 0.6 });
    expect(verdictCheck(c, { score: 0.6, pass: true, reason: 'r' }).passed).toBe(true);
    expect(verdictCheck(c, { score: 0.59, pass: true, reason: 'r' }).passed).toBe(false);
    expect(verdictCheck(c, { score: 1, pass: false, reason: '' })).toEqual({
      criterion: c,
      passed: false,
      detail: 'judge: fail, score 1 (threshold 0.6): no reason given',
    });
  });
});

describe('createJudge', () => {
  const config = { type: 'openai' as const, base_url: 'https://judge.example.com', model: 'm', timeout_ms: 1000 };
  const memoryCache = () => {
    const items = new Map<string, { verdict: { score: number; pass: boolean; reason: string }; expiresAt: number }>();
    const cache: Pick<JudgeCacheRepo, 'get' | 'put'> = {
      get: async (p, k, now) => {
        const hit = items.get(`${p}/${k}`);
        return hit && hit.expiresAt > now.getTime() / 1000 ? hit.verdict : null;
      },
      put: async (p, k, verdict, expiresAt) => void items.set(`${p}/${k}`, { verdict, expiresAt }),
    };
    return { cache, items };
  };

  it('retries twice (0.5 s, 1 s) and then throws JudgeUnavailable; a blocked address is refused at once', async () => {
    const waits: number[] = [];
    let calls = 0;
    const failing = createJudge(config, {
      http: async () => (calls++, { status: 502, headers: {}, body: '', durationMs: 1 }),
      sleep: async (ms) => void waits.push(ms),
      projectId: 'p',
      now: () => new Date(),
    });
    await expect(failing.check(criterion(), attempt)).rejects.toThrow(JudgeUnavailable);
    expect([calls, waits]).toEqual([3, [500, 1000]]);

    calls = 0;
    const blocked = createJudge(config, {
      http: async () => {
        calls++;
        throw new OutboundError('blocked', 'to 10.0.0.1 is not allowed: a private address');
      },
      sleep: async () => undefined,
      projectId: 'p',
      now: () => new Date(),
    });
    await expect(blocked.check(criterion(), attempt)).rejects.toThrow(/^judge /);
    expect(calls).toBe(1);
  });

  it('caches per project for 30 days by model, rubric, threshold and the text shown', async () => {
    const { cache, items } = memoryCache();
    const sent: OutboundRequest[] = [];
    let now = new Date('2026-11-23T00:00:00Z');
    const deps = (projectId: string) => ({
      http: async (req: OutboundRequest) => (
        sent.push(req),
        { status: 200, headers: {}, body: answer({ score: 0.9, pass: true, reason: 'r' }), durationMs: 1 }
      ),
      cache,
      projectId,
      now: () => now,
    });
    const j = createJudge(config, deps('p1'));
    expect((await j.check(criterion(), attempt)).cached).toBe(false);
    expect((await j.check(criterion(), attempt)).cached).toBe(true);
    expect((await j.check(criterion({ threshold: 0.7 }), attempt)).cached).toBe(false);
    expect((await j.check(criterion(), { ...attempt, output: 'Done!' })).cached).toBe(false);
    expect((await createJudge({ ...config, model: 'm2' }, deps('p1')).check(criterion(), attempt)).cached).toBe(false);
    expect((await createJudge(config, deps('p2')).check(criterion(), attempt)).cached).toBe(false);
    expect(sent).toHaveLength(5);
    expect([...items.values()][0].expiresAt).toBe(Date.parse('2026-11-23T00:00:00Z') / 1000 + 30 * 24 * 3600);
    now = new Date('2026-12-24T00:00:00Z');
    expect((await j.check(criterion(), attempt)).cached).toBe(false);
  });
});

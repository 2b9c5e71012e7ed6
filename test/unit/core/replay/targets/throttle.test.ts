// 429 and 503 from the agent, the model or the judge: Retry-After (seconds, HTTP date), full-jitter back-off without
// it, the max_wait_s budget per attempt, max_wait_s 0, the run deadline, and the same Idempotency-Key on every try.
import type { OutboundRequest, OutboundResponse } from '../../../../../functions/core/ports';
import { createJudge, JudgeUnavailable } from '../../../../../functions/core/replay/judge';
import { httpTarget } from '../../../../../functions/core/replay/targets/http';
import { openAiTarget } from '../../../../../functions/core/replay/targets/openai';
import { backoffMs, newMeter, RateLimited, retryAfterMs, type ThrottlePolicy } from '../../../../../functions/core/replay/targets/throttle';
import { TargetError, type StepRequest } from '../../../../../functions/core/replay/types';

const answer = (status: number, body: unknown = {}, headers: Record<string, string> = {}): OutboundResponse => ({
  status,
  headers,
  body: JSON.stringify(body),
  durationMs: 1,
});

/** A sender answering from a script (then `fallback`), remembering requests and the waits asked for. */
function scripted(replies: OutboundResponse[], fallback: OutboundResponse = answer(200, { output: 'done' })) {
  const requests: OutboundRequest[] = [];
  const sleeps: number[] = [];
  return {
    requests,
    sleeps,
    http: async (req: OutboundRequest) => (requests.push(req), replies.shift() ?? fallback),
    sleep: async (ms: number) => void sleeps.push(ms),
  };
}

const NOW = Date.parse('2026-11-27T03:00:00Z');
const policy = (over: Partial<ThrottlePolicy> = {}) => ({ meter: newMeter(), now: () => NOW, random: () => 0.5, maxWaitS: 600, ...over });
const target = { type: 'http' as const, url: 'https://agent.example.com/step', timeout_ms: 1000 };
const request: StepRequest = { run_id: 'run-1', attempt: 3, step: 2, tools: [], messages: [{ role: 'user', content: 'hi' }] };

describe('Retry-After and back-off', () => {
  it('reads delta-seconds and HTTP dates, and gives null for anything else', () => {
    expect(retryAfterMs('7', NOW)).toBe(7000);
    expect(retryAfterMs('1.5', NOW)).toBe(1500);
    expect(retryAfterMs('Fri, 27 Nov 2026 03:00:30 GMT', NOW)).toBe(30_000);
    expect(retryAfterMs('Fri, 27 Nov 2026 02:00:00 GMT', NOW)).toBe(0);
    expect(retryAfterMs('soon', NOW)).toBeNull();
    expect(retryAfterMs(undefined, NOW)).toBeNull();
  });

  it('backs off with full jitter from 1 s, doubling up to a 60 s ceiling', () => {
    expect([0, 1, 2, 3].map((n) => backoffMs(n, () => 0.999))).toEqual([999, 1998, 3996, 7992]);
    expect(backoffMs(20, () => 0.5)).toBe(30_000);
    expect(backoffMs(0, () => 0)).toBe(0);
  });
});

describe('http target under 429 and 503', () => {
  it('waits Retry-After seconds, keeps the Idempotency-Key and records the waits', async () => {
    // Prepare
    const f = scripted([answer(429, {}, { 'Retry-After': '12' }), answer(503, {}, { 'retry-after': '3' })]);
    const p = policy();
    // Act
    const turn = await httpTarget(target, { ...f, throttle: () => p }).step(request);
    // Assess
    expect(turn).toEqual({ output: 'done' });
    expect(f.sleeps).toEqual([12_000, 3000]);
    expect(f.requests.map((r) => r.headers['Idempotency-Key'])).toEqual(['run-1:3:2', 'run-1:3:2', 'run-1:3:2']);
    expect(p.meter).toEqual({ throttledMs: 15_000, count: 2, retryWaitMs: 15_000, rateLimited: false, entered: 0, handOffMs: null });
  });

  it('waits until a Retry-After HTTP date', async () => {
    const f = scripted([answer(429, {}, { 'Retry-After': 'Fri, 27 Nov 2026 03:01:00 GMT' })]);
    await httpTarget(target, { ...f, throttle: () => policy() }).step(request);
    expect(f.sleeps).toEqual([60_000]);
  });

  it('backs off without Retry-After, more than the three tries of other failures', async () => {
    // Prepare: five 429s in a row, then an answer
    const f = scripted(Array.from({ length: 5 }, () => answer(429)));
    // Act
    await httpTarget(target, { ...f, throttle: () => policy({ random: () => 0.5 }) }).step(request);
    // Assess
    expect(f.sleeps).toEqual([500, 1000, 2000, 4000, 8000]);
    expect(f.requests).toHaveLength(6);
  });

  it('is rate_limited once waiting would pass max_wait_s for the attempt, across its steps', async () => {
    // Prepare: the attempt already waited 50 s at an earlier step
    const p = policy({ maxWaitS: 60 });
    p.meter.retryWaitMs = 50_000;
    const f = scripted([answer(429, {}, { 'Retry-After': '5' }), answer(429, {}, { 'Retry-After': '8' })]);
    // Act
    const step = httpTarget(target, { ...f, throttle: () => p }).step(request);
    // Assess
    await expect(step).rejects.toThrow(RateLimited);
    await expect(step).rejects.toThrow(/max_wait_s of 60 s/);
    expect(f.sleeps).toEqual([5000]);
    expect(p.meter.rateLimited).toBe(true);
  });

  it('is rate_limited at once with max_wait_s 0', async () => {
    const f = scripted([answer(429, {}, { 'Retry-After': '1' })]);
    const p = policy({ maxWaitS: 0 });
    await expect(httpTarget(target, { ...f, throttle: () => p }).step(request)).rejects.toThrow(/max_wait_s is 0/);
    expect([f.requests.length, f.sleeps, p.meter.rateLimited]).toEqual([1, [], true]);
  });

  it('never waits past the run deadline', async () => {
    const f = scripted([answer(429, {}, { 'Retry-After': '30' })]);
    const step = httpTarget(target, { ...f, throttle: () => policy({ remainingMs: () => 10_000 }) }).step(request);
    await expect(step).rejects.toThrow(/run deadline/);
    expect(f.sleeps).toEqual([]);
  });

  it('keeps three tries for other 5xx', async () => {
    const f = scripted([answer(500), answer(502), answer(504)]);
    const step = httpTarget(target, { ...f, throttle: () => policy() }).step(request);
    await expect(step).rejects.toThrow(TargetError);
    await expect(step).rejects.not.toThrow(RateLimited);
    expect([f.requests.length, f.sleeps]).toEqual([3, [500, 1000]]);
  });

  it('applies the policy of the attempt asking (openai target too)', async () => {
    const f = scripted([answer(429, {}, { 'Retry-After': '2' })], answer(200, { choices: [{ message: { content: 'ok' } }] }));
    const meters = new Map([[3, newMeter()]]);
    const openai = openAiTarget(
      { type: 'openai', base_url: 'https://api.example.com', model: 'm', temperature: 0, timeout_ms: 1000 },
      {
        ...f,
        throttle: (attempt) => policy({ meter: meters.get(attempt) }),
      },
    );
    expect(await openai.step(request)).toEqual({ output: 'ok' });
    expect(meters.get(3)).toMatchObject({ throttledMs: 2000, count: 1 });
  });
});

describe('judge under 429', () => {
  const config = { type: 'openai' as const, base_url: 'https://judge.example.com', model: 'j', timeout_ms: 1000 };
  const criterion = { type: 'llm_judge' as const, rubric: 'r', threshold: 0.5, include: ['output' as const] };
  const shown = { task: [], transcript: [], output: 'x' };
  const verdict = answer(200, { choices: [{ message: { content: '{"score": 1, "pass": true, "reason": "ok"}' } }] });

  it('waits Retry-After like a target and counts it in the attempt meter', async () => {
    const f = scripted([answer(429, {}, { 'Retry-After': '4' })], verdict);
    const p = policy();
    const judge = createJudge(config, { ...f, projectId: 'p', now: () => new Date(NOW), throttle: p });
    expect((await judge.check(criterion, shown)).check.passed).toBe(true);
    expect([f.sleeps, p.meter.count]).toEqual([[4000], 1]);
  });

  it('is unavailable, marked rate limited, past its max_wait_s', async () => {
    const f = scripted([answer(429, {}, { 'Retry-After': '40' })], verdict);
    const p = policy({ maxWaitS: 30 });
    const judge = createJudge(config, { ...f, projectId: 'p', now: () => new Date(NOW), throttle: p });
    await expect(judge.check(criterion, shown)).rejects.toThrow(JudgeUnavailable);
    expect(p.meter.rateLimited).toBe(true);
  });
});

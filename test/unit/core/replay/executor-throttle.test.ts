// The executor with a network target that answers 429: attempts record throttled_ms and throttle_count (their
// duration without the waiting), the run summary sums them, an attempt past max_wait_s is `rate_limited`, and
// max_concurrency holds across the run's attempts.
import { executeRun } from '../../../../functions/core/replay/executor';
import { processLimiter } from '../../../../functions/core/replay/limits/process-limiter';
import type { OutboundRequest, OutboundResponse } from '../../../../functions/core/ports';
import type { Run } from '../../../../functions/core/runs/types';
import { makeCampaign, makeWorld, RUN_ID } from '../../../helpers/replay-fakes';

const reply = (status: number, body: unknown, headers: Record<string, string> = {}): OutboundResponse => ({
  status,
  headers,
  body: JSON.stringify(body),
  durationMs: 1,
});

/** An agent answering every first step of an attempt with 429 Retry-After: `retryAfter`, then the final output. */
function throttlingAgent(retryAfter: string) {
  const seen = new Set<string>();
  return async (req: OutboundRequest) => {
    const key = req.headers['Idempotency-Key'];
    if (!seen.has(key)) {
      seen.add(key);
      return reply(429, { error: 'slow down' }, { 'Retry-After': retryAfter });
    }
    return reply(200, { output: 'done' });
  };
}

const run = (w: ReturnType<typeof makeWorld>) => w.deps.runs.runs.get(RUN_ID) as Run;

describe('executor under 429', () => {
  it("records each attempt's waits, keeps them out of duration_ms and sums them in the summary", async () => {
    // Prepare: 3 attempts, each waiting 2 s once
    const w = makeWorld(makeCampaign({ repeats: 3, criteria: [{ type: 'completes' }] }));
    w.deps.http = throttlingAgent('2');
    const slept: number[] = [];
    // Act
    await executeRun(w.deps, w.msg, { sleep: async (ms) => void slept.push(ms) });
    // Assess
    const attempts = [...(w.deps.runs.attempts.get(RUN_ID)?.values() ?? [])];
    expect(attempts.map((a) => [a.status, a.throttled_ms, a.throttle_count, a.duration_ms])).toEqual([
      ['passed', 2000, 1, 0],
      ['passed', 2000, 1, 0],
      ['passed', 2000, 1, 0],
    ]);
    expect(run(w).summary).toMatchObject({ attempt_count: 3, passed_count: 3, throttled_ms: 6000, throttle_count: 3 });
    expect(slept).toEqual([2000, 2000, 2000]);
  });

  it('ends an attempt past limits.max_wait_s as error with error_code rate_limited', async () => {
    const w = makeWorld(makeCampaign({ target: { type: 'http', url: 'https://agent.example.com/step', limits: { max_wait_s: 1 } } }));
    w.deps.http = throttlingAgent('5');
    await executeRun(w.deps, w.msg, { sleep: async () => undefined });
    const [attempt] = [...(w.deps.runs.attempts.get(RUN_ID)?.values() ?? [])];
    expect([attempt.status, attempt.error_code, attempt.throttled_ms]).toEqual(['error', 'rate_limited', 0]);
    expect(attempt.error).toMatch(/rate limited: HTTP 429 .*max_wait_s of 1 s/);
  });

  it("never has more than max_concurrency requests in flight across the run's attempts", async () => {
    // Prepare: 12 attempts, 6 at a time, against max_concurrency 2
    const w = makeWorld(
      makeCampaign({
        repeats: 12,
        criteria: [{ type: 'completes' }],
        target: { type: 'http', url: 'https://a.example.com/s', limits: { max_concurrency: 2 } },
      }),
    );
    let inFlight = 0;
    let peak = 0;
    w.deps.http = async () => {
      peak = Math.max(peak, ++inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight -= 1;
      return reply(200, { output: 'done' });
    };
    w.deps.limiter = processLimiter();
    // Act
    const ended = await executeRun(w.deps, w.msg, { concurrency: 6 });
    // Assess
    expect([ended?.status, ended?.summary.passed_count, peak]).toEqual(['completed', 12, 2]);
  });

  it("counts the judge's 429 waits in the attempt, and makes a judge throttled past its max_wait_s rate_limited", async () => {
    // Prepare: a recorded target graded by a judge that first answers 429 Retry-After: 3
    const judged = (maxWaitS: number) =>
      makeCampaign({
        target: { type: 'recorded' },
        judge: { type: 'openai', base_url: 'https://judge.example.com/v1', model: 'j', limits: { max_wait_s: maxWaitS } },
        criteria: [{ type: 'llm_judge', rubric: 'polite' }],
      });
    const judge = () => {
      let calls = 0;
      return async () =>
        calls++ === 0
          ? reply(429, {}, { 'Retry-After': '3' })
          : reply(200, { choices: [{ message: { content: '{"score": 1, "pass": true, "reason": "ok"}' } }] });
    };
    const patient = makeWorld(judged(600));
    patient.deps.http = judge();
    const impatient = makeWorld(judged(2));
    impatient.deps.http = judge();
    // Act
    await executeRun(patient.deps, patient.msg, { sleep: async () => undefined });
    await executeRun(impatient.deps, impatient.msg, { sleep: async () => undefined });
    // Assess
    const [ok] = [...(patient.deps.runs.attempts.get(RUN_ID)?.values() ?? [])];
    expect([ok.status, ok.throttled_ms, ok.throttle_count]).toEqual(['passed', 3000, 1]);
    const [limited] = [...(impatient.deps.runs.attempts.get(RUN_ID)?.values() ?? [])];
    expect([limited.status, limited.error_code]).toEqual(['error', 'rate_limited']);
    expect(limited.error).toMatch(/^judge_unavailable: judge rate limited: HTTP 429/);
  });
});

// The llm_judge criterion end to end (docs/campaigns-and-replay.md#model-graded-criteria-llm_judge): the local service
// replays a recording and asks a scripted OpenAI-compatible judge on loopback. Pass, fail and the threshold edge; the
// exact request the judge gets; cached verdicts on a rerun; a broken judge making the attempt an `error`
// (judge_unavailable), never a failure; secrets masked on every read; the SSRF guard on judge.base_url; and the 422
// for a judged campaign without a judge.
import http from 'node:http';
import { createGuardedSender } from '../../functions/adapters/http/guarded-sender';
import { JUDGE_SYSTEM_PROMPT } from '../../functions/core/replay/judge';
import { configureDeps } from '../../functions/wiring/deps';
import { sampleTrace } from '../helpers/fixtures';
import { createTrace, pollUntil } from '../helpers/ci';
import { startTestService, type TestService } from '../helpers/local-service';

let svc: TestService;
let judge: {
  url: string;
  requests: { headers: http.IncomingHttpHeaders; body: any }[];
  mode: 'script' | 'http500' | 'garbage';
  close(): Promise<void>;
};
let traceId: string;

/**
 * The judge: answers by a directive in the rubric, `[[<score> <pass>]]` (e.g. `[[0.9 true]]`), unless told to fail
 * with HTTP 500 or to answer text that is not JSON.
 */
async function startJudge(): Promise<typeof judge> {
  const state = { requests: [] as { headers: http.IncomingHttpHeaders; body: any }[], mode: 'script' as const };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      j.requests.push({ headers: req.headers, body });
      if (j.mode === 'http500') return void res.writeHead(500).end('{"error":"overloaded"}');
      const user: string = body.messages[1].content;
      const [, score, pass] = /\[\[([\d.]+) (true|false)\]\]/.exec(user) ?? [];
      const content =
        j.mode === 'garbage' ? 'I think it is fine.' : JSON.stringify({ score: Number(score), pass: pass === 'true', reason: `graded ${score}` });
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  const j = {
    ...state,
    url: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  } as typeof judge;
  return j;
}

const judgeConfig = () => ({
  type: 'openai',
  base_url: judge.url,
  model: 'grader-1',
  api_key: 'sk-judge-secret',
  headers: { 'X-Team': 'qa-secret' },
});

async function campaignWith(criteria: unknown[], extra: Record<string, unknown> = {}): Promise<string> {
  const res = await svc.api('POST', '/v1/campaigns', { name: 'judged', target: { type: 'recorded' }, judge: judgeConfig(), criteria, ...extra });
  if (res.status !== 201) throw new Error(`campaign: ${res.status} ${res.text}`);
  return res.body.campaign_id;
}

/** Runs the trace against the campaign and returns the run view once terminal. */
async function runOnce(campaignId: string): Promise<any> {
  const res = await svc.api('POST', '/v1/runs', { trace_id: traceId, campaign_id: campaignId });
  expect(res.status).toBe(202);
  return pollUntil(svc, `/v1/runs/${res.body.run_id}`, (r) => r.status === 'completed' || r.status === 'failed', 20000);
}

beforeAll(async () => {
  svc = await startTestService({ deliverWebhooks: false });
  judge = await startJudge();
  traceId = await createTrace(svc, sampleTrace({ name: 'judged refund' }));
}, 60000);
afterAll(async () => {
  await judge.close();
  await svc.stop();
});
beforeEach(() => {
  judge.mode = 'script';
  judge.requests.length = 0;
});

describe('llm_judge verdicts', () => {
  it.each([
    ['passes when the judge says pass with a score at the default threshold', '[[0.5 true]]', undefined, true],
    ['fails when the judge says fail, whatever the score', '[[0.95 false]]', undefined, false],
    ['passes at a score equal to the threshold', '[[0.7 true]]', 0.7, true],
    ['fails just below the threshold even when the judge says pass', '[[0.69 true]]', 0.7, false],
  ])('%s', async (_name, directive, threshold, passed) => {
    const rubric = `The agent confirms the refund politely. ${directive}`;
    const run = await runOnce(await campaignWith([{ type: 'llm_judge', rubric, ...(threshold !== undefined ? { threshold } : {}) }]));
    const [attempt] = run.scoring.attempts;
    expect(attempt.status).toBe(passed ? 'passed' : 'failed');
    const score = /\[\[([\d.]+) (true|false)\]\]/.exec(directive)!;
    expect(attempt.checks).toEqual([
      {
        criterion: { type: 'llm_judge', rubric, threshold: threshold ?? 0.5, include: ['task', 'transcript', 'output'] },
        passed,
        detail: `judge: ${score[2] === 'true' ? 'pass' : 'fail'}, score ${score[1]} (threshold ${threshold ?? 0.5}): graded ${score[1]}`,
      },
    ]);
    expect(run.scoring).toMatchObject({ judge_calls: 1, judge_cache_hits: 0, judge_prompt_version: 'rts-judge-1' });
  });

  it('asks with temperature 0, a JSON response format, the documented prompt and the write-only credentials', async () => {
    await runOnce(await campaignWith([{ type: 'llm_judge', rubric: 'Refund confirmed. [[1 true]]' }]));
    expect(judge.requests).toHaveLength(1);
    const { headers, body } = judge.requests[0];
    expect(headers.authorization).toBe('Bearer sk-judge-secret');
    expect(headers['x-team']).toBe('qa-secret');
    expect(body).toMatchObject({ model: 'grader-1', temperature: 0, response_format: { type: 'json_object' } });
    expect(body.messages[0]).toEqual({ role: 'system', content: JUDGE_SYSTEM_PROMPT });
    const user: string = body.messages[1].content;
    expect(user.split('\n').filter((l) => l.startsWith('## '))).toEqual(['## TASK', '## TRANSCRIPT', '## FINAL OUTPUT', '## RUBRIC']);
    expect(user).toContain('[user] Please refund order 1234');
    expect(user).toContain('called refund_order {"order_id":"1234","amount":42.5}');
    expect(user).toContain('## FINAL OUTPUT\nYour refund of $42.50 is on its way.');

    judge.requests.length = 0;
    await runOnce(await campaignWith([{ type: 'llm_judge', rubric: 'Output only. [[1 true]]', include: ['output'] }]));
    const only: string = judge.requests[0].body.messages[1].content;
    expect(only.split('\n').filter((l) => l.startsWith('## '))).toEqual(['## FINAL OUTPUT', '## RUBRIC']);
  });

  it('serves an unchanged transcript from the cache on a rerun, without a second call', async () => {
    const campaignId = await campaignWith([{ type: 'llm_judge', rubric: 'Cached verdict. [[0.8 true]]' }]);
    const first = await runOnce(campaignId);
    const second = await runOnce(campaignId);
    expect(judge.requests).toHaveLength(1);
    expect(first.scoring).toMatchObject({ judge_calls: 1, judge_cache_hits: 0 });
    expect(second.scoring).toMatchObject({ judge_calls: 0, judge_cache_hits: 1 });
    expect(second.scoring.attempts[0].checks).toEqual(first.scoring.attempts[0].checks);
  });
});

describe('a judge that cannot answer', () => {
  it.each([
    ['answers HTTP 500', 'http500' as const, 'HTTP 500'],
    ['answers text that is not JSON', 'garbage' as const, 'unparseable judge answer'],
  ])(
    'makes the attempt an error (judge_unavailable) after 3 tries when it %s',
    async (_name, mode, why) => {
      judge.mode = mode;
      const run = await runOnce(await campaignWith([{ type: 'llm_judge', rubric: `Broken judge (${mode}). [[1 true]]` }]));
      expect(judge.requests).toHaveLength(3);
      const [attempt] = run.scoring.attempts;
      expect(attempt).toMatchObject({ status: 'error', error_code: 'judge_unavailable' });
      expect(attempt.error).toMatch(new RegExp(`^judge_unavailable: judge failed after 3 tries: ${why}`));
      // Every attempt errored: the run has no verdict (fail-closed, and CI coverage shows it).
      expect(run.status).toBe('failed');
      expect(run.summary).toMatchObject({ passed_count: 0, attempt_count: 1 });
    },
    20000,
  );

  it('is refused by the SSRF guard at connect time, at once and without retries', async () => {
    configureDeps({ http: createGuardedSender({ allowPrivate: false }) });
    try {
      const run = await runOnce(await campaignWith([{ type: 'llm_judge', rubric: 'Guarded. [[1 true]]' }]));
      expect(judge.requests).toHaveLength(0);
      expect(run.scoring.attempts[0]).toMatchObject({ status: 'error', error_code: 'judge_unavailable' });
      expect(run.scoring.attempts[0].error).toMatch(/^judge_unavailable: judge .*(loopback|not allowed|blocked)/i);
    } finally {
      configureDeps({ http: undefined });
    }
  });
});

describe('judge configuration', () => {
  it('masks the judge api_key and header values on every read', async () => {
    const res = await svc.api('POST', '/v1/campaigns', {
      name: 'masked',
      target: { type: 'recorded' },
      judge: judgeConfig(),
      criteria: [{ type: 'llm_judge', rubric: 'x' }],
    });
    expect(res.status).toBe(201);
    const expected = { type: 'openai', base_url: judge.url, model: 'grader-1', api_key: '***', headers: { 'X-Team': '***' }, timeout_ms: 60000 };
    expect(res.body.judge).toEqual(expected);
    expect((await svc.api('GET', `/v1/campaigns/${res.body.campaign_id}`)).body.judge).toEqual(expected);
    const listed = (await svc.api('GET', '/v1/campaigns?limit=100')).body.items.find((c: any) => c.campaign_id === res.body.campaign_id);
    expect(listed.judge).toEqual(expected);
    expect(JSON.stringify([res.body, listed])).not.toMatch(/sk-judge-secret|qa-secret/);
  });

  it('refuses an llm_judge criterion without a judge, at campaign and at mutation level, with 422 on judge', async () => {
    const campaignLevel = await svc.api('POST', '/v1/campaigns', {
      name: 'no judge',
      target: { type: 'recorded' },
      criteria: [{ type: 'llm_judge', rubric: 'x' }],
    });
    const mutationLevel = await svc.api('POST', '/v1/campaigns', {
      name: 'no judge',
      target: { type: 'http', url: 'https://agent.example.com/step' },
      mutations: [{ id: 'm', type: 'tool_error', tool: '*', criteria: [{ type: 'llm_judge', rubric: 'x' }] }],
    });
    for (const res of [campaignLevel, mutationLevel]) {
      expect(res.status).toBe(422);
      expect(res.body.error.details).toContainEqual(expect.objectContaining({ path: 'judge' }));
    }
    const bad = await svc.api('POST', '/v1/campaigns', {
      name: 'bad judge',
      target: { type: 'recorded' },
      judge: { ...judgeConfig(), base_url: 'ftp://judge.example.com' },
      criteria: [{ type: 'llm_judge', rubric: 'x', threshold: 2 }],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: any) => d.path).sort()).toEqual(['criteria.0.threshold', 'judge.base_url']);
  });
});

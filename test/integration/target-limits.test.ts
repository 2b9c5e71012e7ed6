// Target limits and 429 handling end to end (docs/campaigns-and-replay.md#limits-and-429): the local service replays
// against a scripted OpenAI-compatible model on loopback that lets K requests run at once and N start per minute and
// answers 429 with Retry-After beyond them. With `limits.max_concurrency: K` three concurrent runs of 20 attempts
// each never exceed K at the model and end with no error; without limits a run still ends with no error, through the
// 429 handling, and its summary (and a CI batch's aggregate) shows the waiting; past max_wait_s the attempts are
// `rate_limited`. One run of 200 attempts does the same: within the limit with no 429, and without it through the 429s.
import http from 'node:http';
import { sampleTrace } from '../helpers/fixtures';
import { createTrace, createTraces, pollUntil, setEvalSet } from '../helpers/ci';
import { startTestService, type TestService } from '../helpers/local-service';

interface Model {
  url: string;
  /** Requests it lets run at once and start per minute; beyond, 429 with `Retry-After: retryAfter`. */
  allow: { concurrent: number; perMinute: number; retryAfter: string };
  peak: number;
  answered: number;
  refused: number;
  reset(): void;
  close(): Promise<void>;
}

async function startModel(): Promise<Model> {
  let inFlight = 0;
  const starts: number[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const now = Date.now();
      while (starts.length > 0 && starts[0] <= now - 60_000) starts.shift();
      if (inFlight >= m.allow.concurrent || starts.length >= m.allow.perMinute) {
        m.refused += 1;
        res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': m.allow.retryAfter });
        return void res.end('{"error":{"type":"rate_limit_exceeded"}}');
      }
      starts.push(now);
      inFlight += 1;
      m.peak = Math.max(m.peak, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        m.answered += 1;
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'Your refund of order 1234 is on its way.' } }] }));
      }, 25);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  const m: Model = {
    url: `http://127.0.0.1:${port}/v1`,
    allow: { concurrent: 3, perMinute: 100_000, retryAfter: '1' },
    peak: 0,
    answered: 0,
    refused: 0,
    reset() {
      Object.assign(m, { peak: 0, answered: 0, refused: 0 });
      starts.length = 0;
    },
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
  return m;
}

let svc: TestService;
let model: Model;
let traceId: string;

beforeAll(async () => {
  svc = await startTestService({ deliverWebhooks: false });
  model = await startModel();
  traceId = await createTrace(svc, sampleTrace({ name: 'refund under a quota' }));
}, 60_000);
afterAll(async () => {
  await model.close();
  await svc.stop();
});
beforeEach(() => model.reset());

/** A campaign against the model: baseline + 1 mutation, `repeats` times each. */
async function campaign(repeats: number, limits?: Record<string, unknown>): Promise<string> {
  const res = await svc.api('POST', '/v1/campaigns', {
    name: 'quota',
    target: { type: 'openai', base_url: model.url, model: 'quota-model', ...(limits ? { limits } : {}) },
    mutations: [{ id: 'noisy', type: 'input_perturbation', kind: 'uppercase' }],
    repeats,
    criteria: [{ type: 'completes' }],
  });
  if (res.status !== 201) throw new Error(`campaign: ${res.status} ${res.text}`);
  return res.body.campaign_id;
}

async function runs(campaignId: string, count: number): Promise<any[]> {
  const ids = await Promise.all(
    Array.from({ length: count }, async () => {
      const res = await svc.api('POST', '/v1/runs', { trace_id: traceId, campaign_id: campaignId });
      expect(res.status).toBe(202);
      return res.body.run_id as string;
    }),
  );
  return Promise.all(ids.map((id) => pollUntil(svc, `/v1/runs/${id}`, (r) => r.status === 'completed' || r.status === 'failed', 90_000, 100)));
}

describe('target limits and 429', () => {
  it('keeps three concurrent runs of 20 attempts within max_concurrency at the model, with no error', async () => {
    // Act
    const done = await runs(await campaign(10, { max_concurrency: 3 }), 3);
    // Assess
    expect(done.map((r) => [r.status, r.summary.attempt_count, r.summary.passed_count])).toEqual([
      ['completed', 20, 20],
      ['completed', 20, 20],
      ['completed', 20, 20],
    ]);
    expect(done.flatMap((r) => r.scoring.attempts).filter((a: any) => a.status === 'error')).toEqual([]);
    expect(model.peak).toBeLessThanOrEqual(3);
    expect([model.refused, model.answered]).toEqual([0, 60]);
  }, 120_000);

  it('completes without limits through the 429 handling, and the summary shows the waiting', async () => {
    // Prepare: the model lets 1 request run at once; the run sends up to 4
    model.allow = { concurrent: 1, perMinute: 100_000, retryAfter: '1' };
    // Act
    const [run] = await runs(await campaign(4), 1);
    // Assess
    expect([run.status, run.summary.passed_count]).toEqual(['completed', 8]);
    expect(model.refused).toBeGreaterThan(0);
    expect(run.summary.throttle_count).toBe(model.refused);
    expect(run.summary.throttled_ms).toBeGreaterThanOrEqual(1000 * model.refused);
    const attempts = run.scoring.attempts;
    expect(attempts.reduce((n: number, a: any) => n + a.throttle_count, 0)).toBe(run.summary.throttle_count);
    for (const a of attempts.filter((x: any) => x.throttle_count > 0)) expect(a.duration_ms).toBeLessThan(a.throttled_ms);
  }, 120_000);

  it('ends attempts past max_wait_s as rate_limited, and at once with max_wait_s 0', async () => {
    // Prepare: every request over the quota, Retry-After far away
    model.allow = { concurrent: 0, perMinute: 100_000, retryAfter: '120' };
    // Act
    const [patient] = await runs(await campaign(1, { max_wait_s: 60 }), 1);
    const [impatient] = await runs(await campaign(1, { max_wait_s: 0 }), 1);
    // Assess
    for (const run of [patient, impatient]) {
      expect(run.status).toBe('failed');
      expect(run.scoring.attempts.map((a: any) => a.error_code)).toEqual(['rate_limited', 'rate_limited']);
    }
    expect(patient.scoring.attempts[0].error).toMatch(/HTTP 429 \(Retry-After 120\).*max_wait_s of 60 s/);
    expect(impatient.scoring.attempts[0].error).toMatch(/max_wait_s is 0/);
    expect(model.refused).toBe(4);
  }, 60_000);

  it("sums the runs' waiting in a CI batch", async () => {
    // Prepare: a pool of 3 scenarios, a model letting 1 request run at once
    model.allow = { concurrent: 1, perMinute: 100_000, retryAfter: '1' };
    const campaignId = await campaign(2);
    const pool = await createTraces(
      svc,
      [1, 2, 3].map((i) => sampleTrace({ name: `quota scenario ${i}` })),
    );
    await setEvalSet(svc, campaignId, pool);
    // Act
    const sub = await svc.api('POST', '/v1/ci/runs', { campaign_id: campaignId, thresholds: { min_pass_rate: 1, max_unsafe: 0, max_failures: 0 } });
    expect(sub.status).toBe(202);
    const batch = await pollUntil(svc, `/v1/ci/batch/${sub.body.ci_batch_id}`, (b) => b.status === 'done', 90_000, 200);
    // Assess
    const runsDone = await Promise.all(batch.run_ids.map(async (id: string) => (await svc.api('GET', `/v1/runs/${id}`)).body));
    expect([batch.decision, batch.scenario_coverage_pct]).toEqual(['pass', 100]);
    expect(batch.throttle_count).toBe(runsDone.reduce((n, r) => n + r.summary.throttle_count, 0));
    expect(batch.throttled_ms).toBe(runsDone.reduce((n, r) => n + r.summary.throttled_ms, 0));
    expect(model.refused).toBeGreaterThan(0);
    expect(batch.throttle_count).toBe(model.refused);
  }, 120_000);

  it('runs 200 attempts of one run within max_concurrency with no error and no 429, and without limits through the 429s', async () => {
    // Prepare: baseline + 9 mutations, 20 repeats each; the model lets 3 run at once (Retry-After 0.2 s beyond)
    model.allow = { concurrent: 3, perMinute: 100_000, retryAfter: '0.2' };
    const long = async (limits?: Record<string, unknown>) => {
      const res = await svc.api('POST', '/v1/campaigns', {
        name: 'quota, 200 attempts',
        target: { type: 'openai', base_url: model.url, model: 'quota-model', ...(limits ? { limits } : {}) },
        mutations: Array.from({ length: 9 }, (_, i) => ({ id: `m${i}`, type: 'input_perturbation', kind: 'uppercase' })),
        repeats: 20,
        criteria: [{ type: 'completes' }],
      });
      expect(res.status).toBe(201);
      return res.body.campaign_id as string;
    };
    // Act
    const [limited] = await runs(await long({ max_concurrency: 3 }), 1);
    const [peak, refusedLimited] = [model.peak, model.refused];
    model.reset();
    const [unlimited] = await runs(await long(), 1);
    // Assess
    for (const run of [limited, unlimited]) {
      expect([run.status, run.summary.attempt_count, run.summary.passed_count]).toEqual(['completed', 200, 200]);
      expect(run.scoring.attempts.filter((a: any) => a.status === 'error')).toEqual([]);
    }
    expect(peak).toBeLessThanOrEqual(3);
    expect(refusedLimited).toBe(0);
    expect(model.refused).toBeGreaterThan(0);
    expect(unlimited.summary.throttle_count).toBe(model.refused);
  }, 180_000);

  it('refuses bad limits with 422 naming the field', async () => {
    const res = await svc.api('POST', '/v1/campaigns', {
      name: 'bad',
      target: { type: 'openai', base_url: model.url, model: 'm', limits: { max_concurrency: 0, max_wait_s: 4000 } },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details.map((d: any) => d.path).sort()).toEqual(['target.limits.max_concurrency', 'target.limits.max_wait_s']);
  });
});

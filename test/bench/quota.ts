// A 1,000-attempt batch against a quota-limited fake model (docs/campaigns-and-replay.md#limits-and-429): 5 runs of
// 200 attempts through the local service (API, queue, worker with its fan-out, store) against an OpenAI-compatible
// model on loopback that lets K requests run at once, answers each after a fixed latency and answers 429 beyond K.
// With `limits.max_concurrency: K` the batch should take about requests x latency / K (the ideal) and never pass K;
// without limits it gets there through the 429s. Measured: wall time against the ideal, peak concurrency, 429s.
import './bench-env';
import http from 'node:http';
import { sampleTrace } from '../helpers/fixtures';
import { startTestService } from '../helpers/local-service';

export interface QuotaBench {
  label: string;
  attempts: number;
  requests: number;
  refused: number;
  peak: number;
  wallMs: number;
  idealMs: number;
  errors: number;
}

const RUNS = 5;
const K = 8;
const LATENCY_MS = 100;

async function startModel() {
  const m = { url: '', inFlight: 0, peak: 0, requests: 0, refused: 0, close: async () => undefined as void };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (m.inFlight >= K) {
        m.refused += 1;
        res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '0.5' });
        return void res.end('{"error":{"type":"rate_limit_exceeded"}}');
      }
      m.requests += 1;
      m.inFlight += 1;
      m.peak = Math.max(m.peak, m.inFlight);
      setTimeout(() => {
        m.inFlight -= 1;
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'Your refund of order 1234 is on its way.' } }] }));
      }, LATENCY_MS);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  m.url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
  m.close = () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r())));
  return m;
}

async function one(label: string, limits: Record<string, unknown> | undefined): Promise<QuotaBench> {
  const model = await startModel();
  const svc = await startTestService({ deliverWebhooks: false });
  try {
    const trace = await svc.api('POST', '/v1/traces', sampleTrace({ name: 'quota bench' }));
    const campaign = await svc.api('POST', '/v1/campaigns', {
      name: `quota bench ${label}`,
      target: { type: 'openai', base_url: model.url, model: 'quota-model', ...(limits ? { limits } : {}) },
      mutations: Array.from({ length: 9 }, (_, i) => ({ id: `m${i}`, type: 'input_perturbation', kind: 'uppercase' })),
      repeats: 20,
      criteria: [{ type: 'completes' }],
    });
    const started = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < RUNS; i++)
      ids.push((await svc.api('POST', '/v1/runs', { trace_id: trace.body.trace_id, campaign_id: campaign.body.campaign_id })).body.run_id);
    await svc.idle();
    const wallMs = Date.now() - started;
    let attempts = 0;
    let errors = 0;
    for (const id of ids) {
      const run = (await svc.api('GET', `/v1/runs/${id}`)).body;
      attempts += run.summary.attempt_count;
      errors += run.summary.attempt_count - run.summary.passed_count;
    }
    return {
      label,
      attempts,
      requests: model.requests,
      refused: model.refused,
      peak: model.peak,
      wallMs,
      idealMs: (model.requests * LATENCY_MS) / K,
      errors,
    };
  } finally {
    await svc.stop();
    await model.close();
  }
}

export async function benchQuota(): Promise<QuotaBench[]> {
  return [await one(`max_concurrency ${K}`, { max_concurrency: K }), await one('no limits', undefined)];
}

export function printQuota(rows: QuotaBench[]): void {
  console.log(`\n== A 1,000-attempt batch against a model allowing ${K} at once (${LATENCY_MS} ms a request, 429 beyond) ==`);
  for (const r of rows) {
    console.log(
      `${r.label}: ${r.attempts} attempts (${r.errors} not passed), ${r.requests} requests answered, ${r.refused} refused with 429; ` +
        `wall ${(r.wallMs / 1000).toFixed(1)} s vs ideal ${(r.idealMs / 1000).toFixed(1)} s (x${(r.wallMs / r.idealMs).toFixed(2)}); peak ${r.peak} at once`,
    );
  }
}

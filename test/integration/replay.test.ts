// Replay end to end through the local service: the demo agent (naive and guarded), a scripted OpenAI-compatible server,
// agents that misbehave (500, garbage, slow), the recorded target, and crash/dead-letter recovery with exact counts.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDemoAgent, type DemoAgent } from '../../functions/cli/demo-agent/command';
import type { BusEvent } from '../../functions/core/events';
import { DynamoRunsRepo } from '../../functions/adapters/dynamodb/runs-repo';
import { configureDeps } from '../../functions/wiring/deps';
import { recordedCampaign, sampleTrace } from '../helpers/fixtures';
import { startTestService, type TestService } from '../helpers/local-service';

const SAMPLES = join(__dirname, '..', '..', 'samples');
const REFUND_TRACE = JSON.parse(readFileSync(join(SAMPLES, 'traces', 'refund-order.json'), 'utf8'));
const SAMPLE_CAMPAIGN = JSON.parse(readFileSync(join(SAMPLES, 'campaign.json'), 'utf8'));

let svc: TestService;
const events: BusEvent[] = [];

beforeAll(async () => {
  svc = await startTestService({ deliverWebhooks: false, queue: { concurrency: 4, redeliveryDelayMs: 20 } });
  svc.bus.onEvent((e) => events.push(e));
  await svc.api('POST', '/v1/traces', REFUND_TRACE);
});
afterAll(async () => {
  await svc.stop();
});

async function waitForRun(runId: string, timeoutMs = 20000): Promise<any> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const res = await svc.api('GET', `/v1/runs/${runId}`);
    if (res.body.status === 'completed' || res.body.status === 'failed') return res.body;
    if (Date.now() > end) throw new Error(`run ${runId} still ${res.body.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function runOnce(campaign: unknown, traceId = REFUND_TRACE.trace_id): Promise<any> {
  const c = await svc.api('POST', '/v1/campaigns', campaign);
  expect(c.status).toBe(201);
  const r = await svc.api('POST', '/v1/runs', { trace_id: traceId, campaign_id: c.body.campaign_id });
  expect(r.status).toBe(202);
  return waitForRun(r.body.run_id);
}

function completedEvents(runId: string) {
  return events.filter((e) => e.envelope.event_type === 'run.completed' && e.envelope.data.run_id === runId);
}

describe('replay against the demo agent', () => {
  let naive: DemoAgent;
  let guarded: DemoAgent;
  beforeAll(async () => {
    naive = await startDemoAgent({ port: 0 });
    guarded = await startDemoAgent({ port: 0, guarded: true });
  });
  afterAll(async () => {
    await naive.close();
    await guarded.close();
  });

  it('scores the naive agent with unsafe attempts and a summary that matches its attempts', async () => {
    const run = await runOnce({ ...SAMPLE_CAMPAIGN, target: { ...SAMPLE_CAMPAIGN.target, url: naive.url } });
    expect(run.status).toBe('completed');
    expect(run.summary.attempt_count).toBe(6);
    expect(run.summary.unsafe_count).toBeGreaterThanOrEqual(2);
    const attempts = run.scoring.attempts;
    expect(attempts.map((a: any) => a.mutation_id)).toEqual([
      null,
      'inject-first-read',
      'bait-first-read',
      'lookup-down',
      'first-call-timeout',
      'typos',
    ]);
    expect(attempts.find((a: any) => a.mutation_id === 'inject-first-read')).toMatchObject({ status: 'failed', unsafe: true });
    expect(attempts.find((a: any) => a.mutation_id === null)).toMatchObject({ status: 'passed', unsafe: false });
    const passed = attempts.filter((a: any) => a.status === 'passed').length;
    expect(run.summary).toMatchObject({ passed_count: passed, failed_count: 6 - passed, pass_rate: passed / 6 });
    expect(run.scoring).toMatchObject({ criteria: SAMPLE_CAMPAIGN.criteria, detectors: SAMPLE_CAMPAIGN.security.detectors });

    const sec = await svc.api('GET', `/v1/runs/${run.run_id}/security-events`);
    expect(sec.body.attempts).toHaveLength(6);
    expect(sec.body.attempts[0].events).toEqual([]);
    const inj = sec.body.attempts[1];
    expect(inj.unsafe).toBe(true);
    expect(inj.events.map((e: any) => `${e.kind}:${e.action}`)).toEqual(
      expect.arrayContaining(['prompt_injection:detected', 'prompt_injection:allowed']),
    );
    const total = sec.body.attempts.reduce((n: number, a: any) => n + a.events.length, 0);
    expect(total).toBe(run.summary.security_events_count);

    const pol = await svc.api('GET', `/v1/runs/${run.run_id}/policy-events?limit=100`);
    expect(pol.body.items).toHaveLength(run.summary.policy_events_count);
    const order = pol.body.items.map((e: any) => [e.attempt, e.sequence]);
    expect(order).toEqual([...order].sort((a: number[], b: number[]) => a[0] - b[0] || a[1] - b[1]));

    const att = await svc.api('GET', `/v1/runs/${run.run_id}/attempts`);
    expect(att.body.items).toHaveLength(6);
    expect(att.body.items[0].transcript).toContainEqual(expect.objectContaining({ type: 'tool_result', tool: 'lookup_order' }));

    const done = completedEvents(run.run_id);
    expect(done).toHaveLength(1);
    expect(done[0].envelope.data).toEqual({
      run_id: run.run_id,
      status: 'done',
      attempt_count: 6,
      passed_count: run.summary.passed_count,
      failed_count: run.summary.failed_count,
      unsafe_count: run.summary.unsafe_count,
      pass_rate: run.summary.pass_rate,
      policy_events_count: run.summary.policy_events_count,
      security_events_count: run.summary.security_events_count,
      trace_id: REFUND_TRACE.trace_id,
      campaign_id: run.campaign_id,
    });
  });

  it('scores the guarded agent with no unsafe attempt', async () => {
    const run = await runOnce({ ...SAMPLE_CAMPAIGN, target: { ...SAMPLE_CAMPAIGN.target, url: guarded.url } });
    expect(run.status).toBe('completed');
    expect(run.summary.unsafe_count).toBe(0);
    expect(run.scoring.attempts.filter((a: any) => a.unsafe !== false)).toEqual([]);
  });
});

describe('replay against an OpenAI-compatible endpoint', () => {
  let server: Server;
  let base: string;
  const requests: any[] = [];
  beforeAll(async () => {
    server = createServer(async (req: IncomingMessage, res) => {
      let raw = '';
      for await (const c of req) raw += c;
      const body = JSON.parse(raw);
      requests.push({ path: req.url, auth: req.headers.authorization, body });
      const toolMessages = body.messages.filter((m: any) => m.role === 'tool');
      let message: any;
      if (toolMessages.length === 0) {
        message = {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'lookup_order', arguments: '{"order_id":"1234"}' } }],
        };
      } else if (toolMessages.length === 1) {
        message = {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_b', type: 'function', function: { name: 'refund_order', arguments: '{"order_id":"1234","amount":42.5}' } }],
        };
      } else {
        message = { role: 'assistant', content: 'Your refund of $42.50 is on its way.' };
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message, finish_reason: 'stop' }] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('runs the agent loop with tools, serves recorded results and passes the criteria', async () => {
    const t = await svc.api('POST', '/v1/traces', sampleTrace());
    const run = await runOnce(
      recordedCampaign({ target: { type: 'openai', base_url: base, model: 'gpt-test', api_key: 'sk-test-123', seed: 7 } }),
      t.body.trace_id,
    );
    expect(run.status).toBe('completed');
    expect(run.summary).toMatchObject({ attempt_count: 1, passed_count: 1, pass_rate: 1 });
    expect(requests[0].path).toBe('/v1/chat/completions');
    expect(requests[0].auth).toBe('Bearer sk-test-123');
    expect(requests[0].body).toMatchObject({ model: 'gpt-test', temperature: 0, seed: 7 });
    expect(requests[0].body.tools.map((x: any) => x.function.name)).toEqual(['lookup_order', 'refund_order']);
    const second = requests[1].body.messages;
    expect(second.find((m: any) => m.role === 'tool').content).toContain('delivered');
    const camp = await svc.api('GET', `/v1/campaigns/${run.campaign_id}`);
    expect(camp.body.target.api_key).toBe('***');
  });
});

describe('replay against misbehaving agents', () => {
  let server: Server;
  let base: string;
  const hits: Record<string, number> = {};
  beforeAll(async () => {
    server = createServer((req, res) => {
      const mode = (req.url ?? '').slice(1);
      hits[mode] = (hits[mode] ?? 0) + 1;
      req.resume();
      if (mode === 'fail') {
        res.writeHead(500);
        res.end('boom');
      } else if (mode === 'garbage') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('{"thoughts": "hmm"');
      } else {
        setTimeout(() => {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end('{"output":"late"}');
        }, 1500);
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(
    () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  );

  it.each([
    ['fail', 'answers 500'],
    ['garbage', 'answers unparseable JSON'],
    ['slow', 'answers after the timeout'],
  ])('fails the run when every attempt errors because the agent %s (%s), after 3 tries per step', async (mode) => {
    const run = await runOnce({ name: mode, target: { type: 'http', url: `${base}/${mode}`, timeout_ms: 300 } }, REFUND_TRACE.trace_id);
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/every attempt ended in error/);
    expect(run.summary).toMatchObject({ attempt_count: 1, passed_count: 0, failed_count: 1 });
    expect(run.scoring.attempts[0].status).toBe('error');
    expect(hits[mode]).toBe(3);
    expect(completedEvents(run.run_id).map((e) => e.envelope.data.status)).toEqual(['failed']);
  });
});

describe('replay of the recording (audit mode)', () => {
  it('evaluates policies and criteria over what the trace recorded', async () => {
    const run = await runOnce(
      recordedCampaign({ policies: [{ id: 'cap', type: 'argument_constraint', tool: 'refund_order', argument: 'amount', max: 10 }] }),
    );
    expect(run.status).toBe('completed');
    expect(run.summary).toMatchObject({ attempt_count: 1, passed_count: 0 });
    const pol = await svc.api('GET', `/v1/runs/${run.run_id}/policy-events`);
    expect(pol.body.items).toContainEqual(expect.objectContaining({ policy_id: 'cap', decision: 'deny', tool: 'refund_order' }));
  });
});

describe('crash recovery', () => {
  afterEach(() => configureDeps({ runs: new DynamoRunsRepo() }));

  it('resumes a run whose worker died after storing some attempts, with exact counts and one run.completed', async () => {
    const real = new DynamoRunsRepo();
    let stored = 0;
    let crashed = false;
    const crashing = Object.create(real) as DynamoRunsRepo;
    crashing.putAttempt = async (pid, attempt) => {
      const ok = await real.putAttempt(pid, attempt);
      if (ok) stored++;
      if (stored === 2 && !crashed) {
        crashed = true;
        throw new Error('worker killed after storing 2 attempts');
      }
      return ok;
    };
    configureDeps({ runs: crashing });
    const campaign = recordedCampaign({ repeats: 5, criteria: [{ type: 'completes' }] });
    const run = await runOnce(campaign);
    await svc.idle();
    expect(crashed).toBe(true);
    expect(run.status).toBe('completed');
    expect(run.summary).toMatchObject({ attempt_count: 5, passed_count: 5, pass_rate: 1 });
    expect(run.scoring.attempts.map((a: any) => a.attempt)).toEqual([1, 2, 3, 4, 5]);
    expect(completedEvents(run.run_id)).toHaveLength(1);
  });

  it('sends a run that keeps failing to the dead-letter consumer, which marks it failed once', async () => {
    const real = new DynamoRunsRepo();
    const broken = Object.create(real) as DynamoRunsRepo;
    broken.putAttempt = async () => {
      throw new Error('store unavailable');
    };
    configureDeps({ runs: broken });
    const c = await svc.api('POST', '/v1/campaigns', recordedCampaign());
    const r = await svc.api('POST', '/v1/runs', { trace_id: REFUND_TRACE.trace_id, campaign_id: c.body.campaign_id });
    const run = await waitForRun(r.body.run_id);
    await svc.idle();
    expect(run.status).toBe('failed');
    expect(run.error).toBe('processing abandoned after 3 deliveries');
    expect(completedEvents(run.run_id).map((e) => e.envelope.data.status)).toEqual(['failed']);
  });
});

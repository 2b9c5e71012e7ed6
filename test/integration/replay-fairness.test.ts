// The local replay queue under an agent that accepts connections and never answers: another project's runs still
// start at once (per-project shares of the workers), and a run ends at the run deadline with run_deadline_exceeded.
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createProject } from '../../functions/core/auth';
import type { BusEvent } from '../../functions/core/events';
import { systemClock } from '../../functions/core/time';
import { getDeps } from '../../functions/wiring/deps';
import { recordedCampaign, sampleTrace } from '../helpers/fixtures';
import { startTestService, type TestService } from '../helpers/local-service';

/** A step-protocol "agent" that reads each request and never answers it. */
async function hangingAgent(): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  let requests = 0;
  const server: Server = createServer((req) => {
    requests++;
    req.resume();
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/step`,
    requests: () => requests,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const isTerminal = (status: string) => status === 'completed' || status === 'failed';

describe('replay queue fairness', () => {
  let svc: TestService;
  let agent: Awaited<ReturnType<typeof hangingAgent>>;

  beforeEach(async () => {
    agent = await hangingAgent();
    svc = await startTestService({ deliverWebhooks: false });
  });
  afterEach(async () => {
    // The hanging runs are abandoned, as a stop of rts serve abandons them.
    await svc.close({ abandonAfterMs: 100 });
    await svc.stop();
    await agent.close();
  });

  it("starts and completes project B's recorded run within seconds while project A's 40 runs hang on their agent", async () => {
    // Prepare: project A run-packs 40 traces against the hanging agent with a 5-minute step timeout.
    const traceIds: string[] = [];
    for (let i = 0; i < 40; i++) traceIds.push((await svc.api('POST', '/v1/traces', sampleTrace({ name: `stuck ${i}` }))).body.trace_id);
    const stuck = await svc.api('POST', '/v1/campaigns', { name: 'stuck', target: { type: 'http', url: agent.url, timeout_ms: 300_000 } });
    expect(stuck.status).toBe(201);
    const pack = await svc.api('POST', `/v1/campaigns/${stuck.body.campaign_id}/run-pack`, { trace_ids: traceIds });
    expect(pack.status).toBe(202);
    // Every worker slot A may take is taken by a run waiting on the agent.
    await waitFor('A to fill its slots', async () => (agent.requests() >= svc.queue.limit ? true : undefined), 15_000);
    await new Promise((r) => setTimeout(r, 1000));

    const b = await createProject({ projects: getDeps().projects, clock: systemClock }, { name: 'project b' });
    const bHeaders = { 'X-API-Key': b.api_key, 'X-Project-Id': b.project_id };
    const trace = await svc.api('POST', '/v1/traces', sampleTrace(), bHeaders);
    const campaign = await svc.api('POST', '/v1/campaigns', recordedCampaign(), bHeaders);

    // Act
    const started = Date.now();
    const queued = await svc.api('POST', '/v1/runs', { trace_id: trace.body.trace_id, campaign_id: campaign.body.campaign_id }, bHeaders);
    expect(queued.status).toBe(202);
    const run = await waitFor(
      "B's run to end",
      async () => {
        const res = await svc.api('GET', `/v1/runs/${queued.body.run_id}`, undefined, bHeaders);
        return isTerminal(res.body.status) ? res.body : undefined;
      },
      15_000,
    );
    const elapsed = Date.now() - started;

    // Assess
    expect(run).toMatchObject({ status: 'completed', summary: { attempt_count: 1, passed_count: 1 } });
    expect(elapsed).toBeLessThan(15_000);
    const aRuns = await svc.api('GET', `/v1/runs?campaign_id=${stuck.body.campaign_id}&limit=100`);
    expect(aRuns.body.items.filter((r: { status: string }) => isTerminal(r.status))).toEqual([]);
  }, 90_000);
});

describe('run deadline (local queue)', () => {
  let svc: TestService;
  let agent: Awaited<ReturnType<typeof hangingAgent>>;

  beforeEach(async () => {
    agent = await hangingAgent();
    svc = await startTestService({ deliverWebhooks: false, queue: { runDeadlineMs: 1500 } });
  });
  afterEach(async () => {
    await svc.close({ abandonAfterMs: 100 });
    await svc.stop();
    await agent.close();
  });

  it('ends a run against an agent that never answers at the deadline, each attempt an error run_deadline_exceeded, once', async () => {
    // Prepare: baseline + 2 mutations, 5-minute step timeout.
    const events: BusEvent[] = [];
    svc.bus.onEvent((e) => events.push(e));
    const trace = await svc.api('POST', '/v1/traces', sampleTrace());
    const campaign = await svc.api('POST', '/v1/campaigns', {
      name: 'deadline',
      target: { type: 'http', url: agent.url, timeout_ms: 300_000 },
      mutations: [
        { id: 'down', type: 'tool_error', tool: 'lookup_order' },
        { id: 'noisy', type: 'input_perturbation', kind: 'uppercase' },
      ],
    });
    expect(campaign.status).toBe(201);

    // Act
    const started = Date.now();
    const queued = await svc.api('POST', '/v1/runs', { trace_id: trace.body.trace_id, campaign_id: campaign.body.campaign_id });
    const run = await waitFor(
      'the run to end',
      async () => {
        const res = await svc.api('GET', `/v1/runs/${queued.body.run_id}`);
        return isTerminal(res.body.status) ? res.body : undefined;
      },
      20_000,
    );
    const elapsed = Date.now() - started;
    await svc.idle();
    await new Promise((r) => setTimeout(r, 500)); // time for a (wrong) second delivery or event to show up

    // Assess
    expect(elapsed).toBeGreaterThanOrEqual(1500);
    expect(elapsed).toBeLessThan(15_000);
    expect(run).toMatchObject({
      status: 'failed',
      // The budget is the worker's remaining time when the run starts: the 1,500 ms configured, less what the start took.
      error: expect.stringMatching(/^every attempt ended in error: run deadline of 1(4\d\d|500) ms exceeded$/),
      summary: { attempt_count: 3, passed_count: 0, failed_count: 3 },
    });
    expect(run.scoring.attempts.map((a: { attempt: number; status: string; error_code: string }) => [a.attempt, a.status, a.error_code])).toEqual([
      [1, 'error', 'run_deadline_exceeded'],
      [2, 'error', 'run_deadline_exceeded'],
      [3, 'error', 'run_deadline_exceeded'],
    ]);
    const attempts = await svc.api('GET', `/v1/runs/${queued.body.run_id}/attempts`);
    expect(attempts.body.items ?? attempts.body.attempts).toHaveLength(3);
    const completed = events.filter((e) => e.envelope.event_type === 'run.completed' && e.envelope.data.run_id === queued.body.run_id);
    expect(completed).toHaveLength(1);
    expect(completed[0].envelope.data).toMatchObject({ status: 'failed', attempt_count: 3 });
    expect(svc.queue.stats).toMatchObject({ received: 1, failed: 0, deadLettered: 0 });
  }, 60_000);
});

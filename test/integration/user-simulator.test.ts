// The simulated user end to end through the local service (docs/campaigns-and-replay.md#simulated-user): a two-turn
// trace against a step agent and a scripted OpenAI-compatible simulator on loopback. The exact request (prompt
// version, what the user sees: no tool calls or results), the stop token, max_turns, the cache on a rerun, a broken
// simulator making the attempt an `error` after exactly 3 tries, secrets masked and kept, the SSRF guard, and the 422
// for a recorded target.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGuardedSender } from '../../functions/adapters/http/guarded-sender';
import { STOP_TOKEN, USER_SIMULATOR_SYSTEM_PROMPT } from '../../functions/core/replay/user-simulator';
import { configureDeps } from '../../functions/wiring/deps';
import { startDemoAgent } from '../../functions/cli/demo-agent/command';
import { pollUntil } from '../helpers/ci';
import { startTestService, type TestService } from '../helpers/local-service';

const TRACE = JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'replay', 'two-turn-trace.json'), 'utf8'));
const SAMPLES = join(__dirname, '..', '..', 'samples');
const SAMPLE_TRACE = JSON.parse(readFileSync(join(SAMPLES, 'traces', 'change-address.json'), 'utf8'));
const SAMPLE_CAMPAIGN = JSON.parse(readFileSync(join(SAMPLES, 'campaign-simulated-user.json'), 'utf8'));
const SIMULATED = 'Actually, ship it to 5 Elm Street please.';

interface Scripted {
  url: string;
  requests: { headers: IncomingHttpHeaders; body: any }[];
  close: () => Promise<void>;
}

/** A loopback JSON server answering with `answer(body, n)` (n: its request count, from 1); keeps every request. */
async function scriptedServer(answer: (body: any, n: number) => { status: number; body: unknown }): Promise<Scripted> {
  const requests: Scripted['requests'] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw);
      requests.push({ headers: req.headers, body });
      const out = answer(body, requests.length);
      res.writeHead(out.status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(out.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

let svc: TestService;
let agent: Scripted;
let simulator: Scripted;
/** What the simulator answers next: a message, the stop token, or HTTP 500. */
let script: (n: number, body: any) => string | 500;

beforeAll(async () => {
  svc = await startTestService({ deliverWebhooks: false });
  expect((await svc.api('POST', '/v1/traces', TRACE)).status).toBe(201);
  // The step agent: looks the order up, changes the address when asked, answers after each tool result.
  agent = await scriptedServer((body) => {
    const last = body.messages[body.messages.length - 1];
    if (last.role === 'user') {
      const name = /street/i.test(last.content) ? 'update_address' : 'lookup_order';
      return { status: 200, body: { tool_calls: [{ name, arguments: { order_id: '1234' } }] } };
    }
    return { status: 200, body: { output: last.name === 'update_address' ? 'Done, the address is changed.' : 'Order 1234 is being packed.' } };
  });
  simulator = await scriptedServer((body, n) => {
    const next = script(n, body);
    if (next === 500) return { status: 500, body: { error: 'overloaded' } };
    return { status: 200, body: { choices: [{ index: 0, message: { role: 'assistant', content: next }, finish_reason: 'stop' }] } };
  });
}, 60000);
afterAll(async () => {
  await agent.close();
  await simulator.close();
  await svc.stop();
});
beforeEach(() => {
  simulator.requests.length = 0;
  agent.requests.length = 0;
});

const simulatorConfig = (extra: Record<string, unknown> = {}) => ({
  type: 'openai',
  base_url: `${simulator.url}/v1`,
  model: 'user-model',
  api_key: 'sk-sim-secret',
  headers: { 'X-Team': 'qa-secret' },
  ...extra,
});

/** A campaign whose simulator model is named after it: answers are cached per model, so each test has its own. */
async function createCampaign(name: string, simulator: Record<string, unknown> = {}): Promise<string> {
  const res = await svc.api('POST', '/v1/campaigns', {
    name,
    target: { type: 'http', url: `${agent.url}/step` },
    user_simulator: simulatorConfig({ model: `user-${name.replace(/\W+/g, '-')}`, ...simulator }),
  });
  expect(res.status).toBe(201);
  return res.body.campaign_id;
}

async function runOnce(campaignId: string, traceId: string = TRACE.trace_id): Promise<{ detail: any; attempt: any }> {
  const r = await svc.api('POST', '/v1/runs', { trace_id: traceId, campaign_id: campaignId });
  expect(r.status).toBe(202);
  const detail = await pollUntil(svc, `/v1/runs/${r.body.run_id}`, (b) => b.status === 'completed' || b.status === 'failed', 20000);
  const attempts = await svc.api('GET', `/v1/runs/${r.body.run_id}/attempts`);
  return { detail, attempt: attempts.body.items[0] };
}

describe('a campaign with a simulated user', () => {
  it('asks the simulator for turn 2 with the rts-user-1 prompt, showing only user and assistant messages, until it stops', async () => {
    // Prepare
    script = (n) => (n === 1 ? SIMULATED : STOP_TOKEN);
    // Act
    const { detail, attempt } = await runOnce(await createCampaign('stops', { model: 'user-model' }));
    // Assess
    expect(simulator.requests).toHaveLength(2);
    const { headers, body } = simulator.requests[0];
    expect([headers.authorization, headers['x-team']]).toEqual(['Bearer sk-sim-secret', 'qa-secret']);
    expect(body.model).toBe('user-model');
    expect(body.temperature).toBe(0);
    expect(body.messages).toEqual([
      { role: 'system', content: USER_SIMULATOR_SYSTEM_PROMPT },
      {
        role: 'user',
        content:
          '## GOAL (the messages the user sent in the recorded conversation)\n1. Where is order 1234?\n2. Please send it to 9 New Street instead.\n\n' +
          '## CONVERSATION SO FAR\n[user] Where is order 1234?\n[assistant] Order 1234 is being packed.\n\n' +
          "Write the user's next message, or ###STOP###.",
      },
    ]);
    expect(JSON.stringify(simulator.requests)).not.toMatch(/lookup_order|update_address|packing|Old Road/);
    // The agent never got the recorded second message; the simulated one right after its turn-1 output.
    expect(JSON.stringify(agent.requests)).not.toContain('New Street');
    expect(agent.requests.map((r) => r.body.turn)).toEqual([1, 1, 2, 2]);
    expect(agent.requests[2].body.messages.slice(-2)).toEqual([
      { role: 'assistant', content: 'Order 1234 is being packed.' },
      { role: 'user', content: SIMULATED },
    ]);
    expect(attempt).toMatchObject({ status: 'passed', turn_outputs: ['Order 1234 is being packed.', 'Done, the address is changed.'] });
    expect(attempt.transcript.filter((e: any) => e.simulated)).toEqual([
      { type: 'message', role: 'user', content: SIMULATED, turn: 2, simulated: true },
    ]);
    expect(detail.scoring).toMatchObject({ user_simulator_calls: 2, user_simulator_cache_hits: 0, user_simulator_prompt_version: 'rts-user-1' });
  });

  it('ends after turn max_turns without asking again, and replays the cached conversation on a rerun with no call', async () => {
    // Prepare: a simulator that never stops
    script = (n) => `${SIMULATED} (${n})`;
    const campaignId = await createCampaign('max turns', { max_turns: 2 });
    // Act
    const first = await runOnce(campaignId);
    const calls = simulator.requests.length;
    const rerun = await runOnce(campaignId);
    // Assess
    expect(calls).toBe(1);
    expect(first.attempt).toMatchObject({ status: 'passed', error: null });
    expect(first.attempt.turn_outputs).toHaveLength(2);
    expect(simulator.requests).toHaveLength(1);
    expect(rerun.detail.scoring).toMatchObject({ user_simulator_calls: 0, user_simulator_cache_hits: 1 });
    expect(rerun.attempt.transcript).toEqual(first.attempt.transcript);
  });

  it('makes the attempt an error (user_simulator_unavailable) after exactly 3 tries of a broken simulator', async () => {
    script = () => 500;
    const { detail, attempt } = await runOnce(await createCampaign('broken'));
    expect(simulator.requests).toHaveLength(3);
    expect(detail.scoring.attempts[0]).toMatchObject({ status: 'error', error_code: 'user_simulator_unavailable' });
    expect(attempt.error).toBe('user_simulator_unavailable: user simulator failed after 3 tries: HTTP 500');
    expect(detail.status).toBe('failed');
  }, 20000);

  it('sends its requests through the SSRF-guarded sender: a private address is refused at once, without retries', async () => {
    // Prepare: the agent stays reachable, every other request meets the guard of the cloud
    const open = createGuardedSender({ allowPrivate: true });
    const guarded = createGuardedSender({ allowPrivate: false });
    configureDeps({ http: (req) => (req.url.startsWith(agent.url) ? open(req) : guarded(req)) });
    script = () => STOP_TOKEN;
    try {
      // Act
      const { detail } = await runOnce(await createCampaign('guarded'));
      // Assess
      expect(simulator.requests).toHaveLength(0);
      expect(detail.scoring.attempts[0]).toMatchObject({ status: 'error', error_code: 'user_simulator_unavailable' });
      expect(detail.scoring.attempts[0].error).toMatch(/^user_simulator_unavailable: user simulator .*(loopback|not allowed|blocked)/i);
    } finally {
      configureDeps({ http: undefined });
    }
  });
});

describe('user_simulator configuration', () => {
  it('masks api_key and header values on every read, and keeps them when a PUT sends the mask back', async () => {
    // Prepare
    const created = await svc.api('POST', '/v1/campaigns', {
      name: 'masked',
      target: { type: 'http', url: `${agent.url}/step` },
      user_simulator: simulatorConfig({ model: 'user-masked' }),
    });
    expect(created.status).toBe(201);
    const id = created.body.campaign_id;
    const masked = {
      type: 'openai',
      base_url: `${simulator.url}/v1`,
      model: 'user-masked',
      api_key: '***',
      headers: { 'X-Team': '***' },
      timeout_ms: 60000,
    };
    // Act
    const read = await svc.api('GET', `/v1/campaigns/${id}`);
    const listed = (await svc.api('GET', '/v1/campaigns?limit=100')).body.items.find((c: any) => c.campaign_id === id);
    const { campaign_id: _id, created_at: _at, version: _v, eval_set: _e, ...definition } = read.body;
    const put = await svc.api('PUT', `/v1/campaigns/${id}`, { ...definition, name: 'masked, renamed' });
    script = () => STOP_TOKEN;
    await runOnce(id);
    // Assess
    for (const body of [created.body, read.body, listed, put.body]) expect(body.user_simulator).toEqual(masked);
    expect(JSON.stringify([created.body, read.body, listed, put.body])).not.toMatch(/sk-sim-secret|qa-secret/);
    expect(put.status).toBe(200);
    expect(simulator.requests[0].headers.authorization).toBe('Bearer sk-sim-secret');
  });

  it('refuses a user simulator on a recorded target with 422 on user_simulator', async () => {
    const res = await svc.api('POST', '/v1/campaigns', { name: 'audit', target: { type: 'recorded' }, user_simulator: simulatorConfig() });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details.map((d: any) => d.path)).toEqual(['user_simulator']);
  });
});

describe('the samples', () => {
  it('campaign-simulated-user.json passes change-address.json against the demo agent with a simulated customer', async () => {
    // Prepare: the sample campaign, its simulator pointed at the scripted one, which asks for the move, then stops
    const demo = await startDemoAgent({ port: 0 });
    expect((await svc.api('POST', '/v1/traces', SAMPLE_TRACE)).status).toBe(201);
    script = (_n, body) =>
      body.messages[1].content.split('## CONVERSATION SO FAR')[1].includes('New Street')
        ? STOP_TOKEN
        : 'I moved: please send it to 9 New Street, Springfield.';
    try {
      const created = await svc.api('POST', '/v1/campaigns', {
        ...SAMPLE_CAMPAIGN,
        target: { ...SAMPLE_CAMPAIGN.target, url: demo.url },
        user_simulator: { ...SAMPLE_CAMPAIGN.user_simulator, base_url: `${simulator.url}/v1` },
      });
      expect(created.status).toBe(201);
      // Act
      const { detail } = await runOnce(created.body.campaign_id, SAMPLE_TRACE.trace_id);
      // Assess
      expect(detail.scoring.attempts.map((a: any) => [a.mutation_id, a.status])).toEqual([
        [null, 'passed'],
        ['typos', 'passed'],
      ]);
      expect(detail.scoring).toMatchObject({ user_simulator_calls: 4, user_simulator_prompt_version: 'rts-user-1' });
    } finally {
      await demo.close();
    }
  });
});

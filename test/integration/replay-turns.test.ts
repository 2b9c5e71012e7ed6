// Turn-by-turn replay end to end through the local service (docs/campaigns-and-replay.md#turns): a two-turn trace
// against a step agent and a scripted OpenAI-compatible server that record what they receive, the stored attempt's
// turn outputs and turn-numbered transcript, and per-turn criteria.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestService, type TestService } from '../helpers/local-service';
import { startMcpAgent } from '../helpers/mcp-agent';

const TRACE = JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'replay', 'two-turn-trace.json'), 'utf8'));
const SECOND = 'Please send it to 9 New Street instead.';
const CRITERIA = [
  { type: 'completes' },
  { type: 'output_contains', value: 'packed', turn: 1 },
  { type: 'output_contains', value: 'New Street', turn: 2 },
  { type: 'output_contains', value: 'anything', turn: 3 },
];

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({ deliverWebhooks: false });
  expect((await svc.api('POST', '/v1/traces', TRACE)).status).toBe(201);
});
afterAll(async () => {
  await svc.stop();
});

/** A loopback server answering each JSON body with `answer(body)`; keeps every body it received. */
async function recordingServer(answer: (body: any) => unknown): Promise<{ url: string; bodies: any[]; close: () => Promise<void> }> {
  const bodies: any[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw);
      bodies.push(body);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(answer(body)));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, bodies, close: () => new Promise((r) => server.close(() => r())) };
}

async function run(target: unknown): Promise<{ detail: any; attempt: any }> {
  const c = await svc.api('POST', '/v1/campaigns', { name: 'turns', target, criteria: CRITERIA });
  expect(c.status).toBe(201);
  const r = await svc.api('POST', '/v1/runs', { trace_id: TRACE.trace_id, campaign_id: c.body.campaign_id });
  const end = Date.now() + 20000;
  for (;;) {
    const res = await svc.api('GET', `/v1/runs/${r.body.run_id}`);
    if (res.body.status === 'completed' || res.body.status === 'failed') {
      const attempts = await svc.api('GET', `/v1/runs/${r.body.run_id}/attempts`);
      return { detail: res.body, attempt: attempts.body.items[0] };
    }
    if (Date.now() > end) throw new Error(`run still ${res.body.status}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

/** Asserts the stored attempt: per-turn outputs, turn-numbered messages, per-turn checks (turn 3 never reached). */
function expectTurnsStored(detail: any, attempt: any, outputs: string[]): void {
  expect(attempt.turn_outputs).toEqual(outputs);
  const messages = attempt.transcript.filter((e: any) => e.type === 'message');
  expect(messages.filter((e: any) => e.role === 'user').map((e: any) => [e.turn, e.content])).toEqual([
    [1, TRACE.steps[1].content],
    [2, SECOND],
  ]);
  expect(detail.scoring.attempts[0].checks.map((c: any) => [c.passed, c.detail])).toEqual([
    [true, 'the agent gave a final output'],
    [true, 'turn 1: output contains "packed"'],
    [true, 'turn 2: output contains "New Street"'],
    [false, 'turn 3 never reached'],
  ]);
}

describe('turn-by-turn replay through the local service', () => {
  it('sends an http step agent turn 2 only after its turn-1 output, with the turn in each step body', async () => {
    // Prepare
    const agent = await recordingServer((body) => {
      const last = body.messages[body.messages.length - 1];
      if (last.role === 'user') {
        const change = last.content.includes('New Street');
        const args = change ? { order_id: '1234', address: '9 New Street' } : { order_id: '1234' };
        return { tool_calls: [{ name: change ? 'update_address' : 'lookup_order', arguments: args }] };
      }
      return { output: last.name === 'lookup_order' ? 'It is being packed.' : 'It now goes to 9 New Street.' };
    });
    try {
      // Act
      const { detail, attempt } = await run({ type: 'http', url: `${agent.url}/step` });
      // Assess
      expect(agent.bodies.map((b) => [b.step, b.turn])).toEqual([
        [1, 1],
        [2, 1],
        [3, 2],
        [4, 2],
      ]);
      for (const b of agent.bodies.slice(0, 2)) expect(JSON.stringify(b.messages)).not.toContain('New Street');
      expect(agent.bodies[2].messages.slice(-2)).toEqual([
        { role: 'assistant', content: 'It is being packed.' },
        { role: 'user', content: SECOND },
      ]);
      expect(attempt.status).toBe('failed');
      expectTurnsStored(detail, attempt, ['It is being packed.', 'It now goes to 9 New Street.']);
    } finally {
      await agent.close();
    }
  });

  it('continues the same chat through the openai target', async () => {
    // Prepare
    const model = await recordingServer((body) => {
      const last = body.messages[body.messages.length - 1];
      const message =
        last.role === 'user'
          ? {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: `call_${body.messages.length}`,
                  type: 'function',
                  function: { name: last.content.includes('New Street') ? 'update_address' : 'lookup_order', arguments: '{"order_id":"1234"}' },
                },
              ],
            }
          : { role: 'assistant', content: body.messages.length < 6 ? 'Being packed.' : 'Going to 9 New Street.' };
      return { choices: [{ index: 0, message, finish_reason: 'stop' }] };
    });
    try {
      // Act
      const { detail, attempt } = await run({ type: 'openai', base_url: `${model.url}/v1`, model: 'scripted' });
      // Assess
      expect(model.bodies).toHaveLength(4);
      for (const b of model.bodies.slice(0, 2)) expect(JSON.stringify(b.messages)).not.toContain('New Street');
      const third = model.bodies[2].messages;
      expect(third.slice(0, -2)).toEqual(model.bodies[1].messages);
      expect(third.slice(-2)).toEqual([
        { role: 'assistant', content: 'Being packed.' },
        { role: 'user', content: SECOND },
      ]);
      expectTurnsStored(detail, attempt, ['Being packed.', 'Going to 9 New Street.']);
    } finally {
      await model.close();
    }
  });

  it('invokes an mcp agent once per turn, turn 2 with the conversation so far, and replays its MCP calls in their turns', async () => {
    // Prepare
    const agent = await startMcpAgent(async (invoke, mcp) => {
      const last = invoke.messages[invoke.messages.length - 1];
      if (last.content.includes('New Street')) {
        await mcp.call('update_address', { order_id: '1234', address: '9 New Street' });
        return 'It now goes to 9 New Street.';
      }
      await mcp.call('lookup_order', { order_id: '1234' });
      return 'It is being packed.';
    });
    try {
      // Act
      const { detail, attempt } = await run({ type: 'mcp', url: agent.url });
      // Assess
      expect(agent.invokes.map((i) => [i.turn, i.headers['idempotency-key']])).toEqual([
        [1, `${detail.run_id}:1`],
        [2, `${detail.run_id}:1:2`],
      ]);
      expect(JSON.stringify(agent.invokes[0].messages)).not.toContain('New Street');
      expect(agent.invokes[1].messages).toEqual([
        ...agent.invokes[0].messages,
        { role: 'assistant', content: 'It is being packed.' },
        { role: 'user', content: SECOND },
      ]);
      expect(agent.invokes[0].mcp.headers.Authorization).not.toBe(agent.invokes[1].mcp.headers.Authorization);
      const served = attempt.transcript.filter((e: any) => e.type === 'tool_result').map((e: any) => [e.tool, e.served, e.tool_call_id]);
      expect(served).toEqual([
        ['lookup_order', 'recorded', 'mcp_1'],
        ['update_address', 'recorded', 'mcp_2'],
      ]);
      expectTurnsStored(detail, attempt, ['It is being packed.', 'It now goes to 9 New Street.']);
    } finally {
      await agent.close();
    }
  });

  it('refuses a per-turn criterion whose turn is not an integer of at least 1 with 422', async () => {
    // Act
    const res = await Promise.all(
      [0, 1.5, '2'].map((turn) =>
        svc.api('POST', '/v1/campaigns', {
          name: 'bad turn',
          target: { type: 'recorded' },
          criteria: [{ type: 'output_contains', value: 'x', turn }],
        }),
      ),
    );
    // Assess
    for (const r of res) {
      expect(r.status).toBe(422);
      expect(r.body.error.code).toBe('validation_error');
      expect(r.body.error.details[0].path).toBe('criteria.0.turn');
    }
  });
});

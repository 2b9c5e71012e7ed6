// The demo agent in a conversation of several turns, driven turn by turn as the replay engine does: each user message
// after its output gets that turn of the recording, and a message past the recording (a simulated user going on) a
// closing answer.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSampleTraces, startDemoAgent, type DemoAgent } from '../../../../functions/cli/demo-agent/command';
import { campaignInputSchema } from '../../../../functions/core/campaigns/schema';
import type { TraceInput } from '../../../../functions/core/traces/schema';

const traces = loadSampleTraces();
const conversation = traces.find((t) => t.name === 'change the delivery address of order 5678')!;
const refund = traces.find((t) => t.name === 'refund damaged order 1234')!;
const CLOSING = 'Glad I could help. Is there anything else I can do for you?';

interface Turn {
  calls: string[];
  output: string;
}

/**
 * Sends the trace's system steps and first user message, serves each call from the recording by tool name, and after
 * each output appends it and the next of `later` user messages; returns each turn's calls and output.
 */
async function converse(url: string, trace: TraceInput, later: string[]): Promise<Turn[]> {
  const results = new Map<string, unknown>();
  for (const s of trace.steps) if (s.role === 'tool') results.set(s.name ?? '', s.content);
  const firstUser = trace.steps.findIndex((s) => s.role === 'user');
  const messages: Record<string, unknown>[] = trace.steps
    .slice(0, firstUser + 1)
    .map((s) => ({ role: s.role, content: (s as { content: string }).content }));
  const turns: Turn[] = [{ calls: [], output: '' }];
  for (let step = 1; step <= 20; step++) {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ protocol: 'rts.step.v1', run_id: 'r', attempt: 1, step, turn: turns.length, tools: trace.tools, messages }),
    });
    const body = (await res.json()) as { output?: string; tool_calls?: { id: string; name: string; arguments: object }[] };
    const turn = turns[turns.length - 1]!;
    if (typeof body.output === 'string') {
      turn.output = body.output;
      messages.push({ role: 'assistant', content: body.output });
      const next = later[turns.length - 1];
      if (next === undefined) return turns;
      messages.push({ role: 'user', content: next });
      turns.push({ calls: [], output: '' });
      continue;
    }
    messages.push({ role: 'assistant', content: null, tool_calls: body.tool_calls });
    for (const c of body.tool_calls!) {
      turn.calls.push(c.name);
      messages.push({ role: 'tool', tool_call_id: c.id, name: c.name, content: results.get(c.name) ?? { error: 'not recorded' } });
    }
  }
  throw new Error('the agent never finished');
}

const assistantTexts = (trace: TraceInput) =>
  trace.steps.flatMap((s) => (s.role === 'assistant' && !s.tool_calls?.length && typeof s.content === 'string' ? [s.content] : []));

describe('demo agent in a conversation of several turns', () => {
  let agent: DemoAgent;
  beforeAll(async () => {
    agent = await startDemoAgent({ port: 0 });
  });
  afterAll(() => agent.close());

  it("answers each recorded user turn with that turn's calls and output", async () => {
    const second = conversation.steps.filter((s) => s.role === 'user')[1] as { content: string };
    const turns = await converse(agent.url, conversation, [second.content]);
    expect(turns).toEqual([
      { calls: ['lookup_order'], output: assistantTexts(conversation)[0] },
      { calls: ['update_address'], output: assistantTexts(conversation)[1] },
    ]);
  });

  it("replays a turn of the recording whatever the simulated user's words, and closes past the recording", async () => {
    const turns = await converse(agent.url, conversation, ['Could it go to my new place on New Street?', 'Thanks, bye!']);
    expect(turns.map((t) => t.calls)).toEqual([['lookup_order'], ['update_address'], []]);
    expect(turns[2]!.output).toBe(CLOSING);
  });

  it('closes a single-turn conversation that a simulated user goes on with', async () => {
    const turns = await converse(agent.url, refund, ['Great, thanks.']);
    expect(turns[0]!.calls).toEqual(['lookup_order', 'refund_order']);
    expect(turns[1]).toEqual({ calls: [], output: CLOSING });
  });
});

describe('samples/campaign-simulated-user.json', () => {
  it('drives the demo agent on its default port with a simulated user, for the conversation sample', () => {
    const raw: unknown = JSON.parse(readFileSync(join(__dirname, '../../../../samples/campaign-simulated-user.json'), 'utf8'));
    const parsed = campaignInputSchema.safeParse(raw);
    expect(parsed.error?.issues).toBeUndefined();
    expect(parsed.data!.target).toMatchObject({ type: 'http', url: 'http://127.0.0.1:8788/step' });
    expect(parsed.data!.user_simulator).toMatchObject({ type: 'openai', base_url: expect.stringMatching(/^http/), model: expect.any(String) });
    expect(conversation.steps.filter((s) => s.role === 'user')).toHaveLength(2);
  });
});

// The scripted model server the framework suites use (test/helpers/scripted-model.ts): its script sees the tool results
// of the conversation by tool name, and it answers as Chat Completions does, as JSON or as a stream of SSE chunks.
import { startScriptedModel, type ScriptedModel } from '../../helpers/scripted-model';

const CONVERSATION = [
  { role: 'user', content: 'Refund order 1234' },
  { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup_order', arguments: '{}' } }] },
  { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: '{"status":"delivered"}' }] },
];

let model: ScriptedModel;
afterEach(async () => {
  await model.close();
});

async function complete(body: object): Promise<Response> {
  return fetch(`${model.baseURL}/chat/completions`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
}

describe('the scripted model server', () => {
  it('shows the script the tool results by tool name and answers its tool calls as a chat.completion', async () => {
    // Prepare
    model = await startScriptedModel((results) => ({ calls: [{ name: 'refund_order', arguments: { seen: results } }] }));
    // Act
    const res = await complete({ model: 'm', messages: CONVERSATION });
    // Assess
    const body = (await res.json()) as any;
    expect(body.object).toBe('chat.completion');
    expect(body.choices[0].finish_reason).toBe('tool_calls');
    const [call] = body.choices[0].message.tool_calls;
    expect(call).toMatchObject({ id: 'call_1', type: 'function', function: { name: 'refund_order' } });
    expect(JSON.parse(call.function.arguments).seen).toEqual([{ tool_call_id: 'c1', name: 'lookup_order', text: '{"status":"delivered"}' }]);
    expect(model.seen()).toEqual([{ tool_call_id: 'c1', name: 'lookup_order', text: '{"status":"delivered"}' }]);
  });

  it('streams the same answer as chat.completion.chunk events ending in [DONE] when asked to', async () => {
    // Prepare
    model = await startScriptedModel(() => ({ calls: [{ name: 'lookup_order', arguments: { order_id: '1234' } }] }));
    // Act
    const res = await complete({ model: 'm', messages: CONVERSATION.slice(0, 1), stream: true });
    // Assess
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = (await res.text()).split('\n\n').filter(Boolean);
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.replace(/^data: /, '')));
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks[0].choices[0].delta.tool_calls).toEqual([
      { index: 0, id: 'call_1', type: 'function', function: { name: 'lookup_order', arguments: '{"order_id":"1234"}' } },
    ]);
    expect(chunks.map((c) => c.choices[0]?.finish_reason ?? null)).toEqual([null, 'tool_calls', null]);
    expect(chunks[2].usage.total_tokens).toBeGreaterThan(0);
  });

  it('answers a final text when the script answers, and 404 for another route', async () => {
    // Prepare
    model = await startScriptedModel(() => ({ answer: 'Refunded.' }));
    // Act
    const answered = (await (await complete({ model: 'm', messages: CONVERSATION })).json()) as any;
    const other = await fetch(`${model.baseURL}/responses`, { method: 'POST', body: '{}' });
    // Assess
    expect(answered.choices[0]).toMatchObject({ message: { role: 'assistant', content: 'Refunded.' }, finish_reason: 'stop' });
    expect(other.status).toBe(404);
  });
});

import { completionsUrl, openAiTarget, parseCompletion, toOpenAiMessages } from '../../../../../functions/core/replay/targets/openai';
import type { ChatMessage, StepRequest } from '../../../../../functions/core/replay/types';
import type { OutboundRequest, OutboundResponse } from '../../../../../functions/core/ports';

const ok = (body: unknown, status = 200): OutboundResponse => ({ status, headers: {}, body: JSON.stringify(body), durationMs: 1 });
const completion = (message: Record<string, unknown>) =>
  ok({ id: 'chatcmpl-1', choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop' }] });

function fakeSender(...replies: OutboundResponse[]) {
  const requests: OutboundRequest[] = [];
  const sleeps: number[] = [];
  return {
    requests,
    sleeps,
    sleep: async (ms: number) => void sleeps.push(ms),
    http: async (req: OutboundRequest) => {
      requests.push(req);
      return replies.shift() ?? completion({ content: 'fallback' });
    },
  };
}

const config = {
  type: 'openai' as const,
  base_url: 'https://llm.example.com/v1/',
  model: 'gpt-test',
  api_key: 'sk-test',
  temperature: 0,
  seed: 7,
  timeout_ms: 5000,
};

const conversation: ChatMessage[] = [
  { role: 'system', content: 'You are a support agent.' },
  { role: 'user', content: 'Refund 1234' },
  { role: 'assistant', content: null, tool_calls: [{ id: 'c1', name: 'lookup_order', arguments: { order_id: '1234' } }] },
  { role: 'tool', tool_call_id: 'c1', name: 'lookup_order', content: { status: 'delivered' } },
  { role: 'assistant', content: null, tool_calls: [{ id: 'c2', name: 'refund_order', arguments: {} }] },
  { role: 'tool', tool_call_id: 'c2', name: 'refund_order', content: 'plain text result' },
];

describe('openai target: request mapping', () => {
  it('builds the completions URL without duplicating /v1 and with or without a trailing slash', () => {
    expect(completionsUrl('https://api.openai.com/v1')).toBe('https://api.openai.com/v1/chat/completions');
    expect(completionsUrl('https://api.openai.com/v1/')).toBe('https://api.openai.com/v1/chat/completions');
    expect(completionsUrl('http://127.0.0.1:11434')).toBe('http://127.0.0.1:11434/v1/chat/completions');
    expect(completionsUrl('https://gw.example.com/openai/v1/chat/completions')).toBe('https://gw.example.com/openai/v1/chat/completions');
    expect(completionsUrl('https://gw.example.com/litellm')).toBe('https://gw.example.com/litellm/chat/completions');
  });

  it('maps assistant tool calls to function calls with JSON-string arguments and tool results to strings', () => {
    expect(toOpenAiMessages(conversation)).toEqual([
      { role: 'system', content: 'You are a support agent.' },
      { role: 'user', content: 'Refund 1234' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup_order', arguments: '{"order_id":"1234"}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: '{"status":"delivered"}' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c2', type: 'function', function: { name: 'refund_order', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c2', content: 'plain text result' },
    ]);
  });

  it('POSTs model, messages, tools, temperature and seed with the bearer key', async () => {
    // Prepare
    const f = fakeSender(completion({ content: 'Done.' }));
    const req: StepRequest = {
      run_id: 'r',
      attempt: 1,
      step: 1,
      tools: [
        { name: 'lookup_order', description: 'Look up', parameters: { type: 'object', properties: { order_id: { type: 'string' } } } },
        { name: 'ping' },
      ],
      messages: conversation.slice(0, 2),
    };
    // Act
    const turn = await openAiTarget(config, f).step(req);
    // Assess
    expect(turn).toEqual({ output: 'Done.' });
    const sent = f.requests[0];
    expect(sent).toMatchObject({ url: 'https://llm.example.com/v1/chat/completions', method: 'POST', timeoutMs: 5000 });
    expect(sent.headers).toEqual({ 'Content-Type': 'application/json', Authorization: 'Bearer sk-test' });
    expect(JSON.parse(sent.body ?? '')).toEqual({
      model: 'gpt-test',
      messages: [
        { role: 'system', content: 'You are a support agent.' },
        { role: 'user', content: 'Refund 1234' },
      ],
      tools: [
        {
          type: 'function',
          function: { name: 'lookup_order', description: 'Look up', parameters: { type: 'object', properties: { order_id: { type: 'string' } } } },
        },
        { type: 'function', function: { name: 'ping', parameters: { type: 'object', properties: {} } } },
      ],
      temperature: 0,
      seed: 7,
    });
  });

  it('sends no tools and no Authorization when the trace has no tools and no key is set', async () => {
    // Prepare
    const f = fakeSender(completion({ content: 'ok' }));
    // Act
    await openAiTarget({ ...config, api_key: undefined, seed: undefined }, f).step({ run_id: 'r', attempt: 1, step: 1, tools: [], messages: [] });
    // Assess
    expect(f.requests[0].headers).toEqual({ 'Content-Type': 'application/json' });
    expect(Object.keys(JSON.parse(f.requests[0].body ?? ''))).toEqual(['model', 'messages', 'temperature']);
  });
});

describe('openai target: answer parsing', () => {
  it('parses tool-call arguments from JSON strings', () => {
    // Act
    const turn = parseCompletion(
      JSON.stringify({
        choices: [
          {
            message: {
              content: null,
              tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'lookup_order', arguments: '{"order_id":"1"}' } }],
            },
          },
        ],
      }),
      1,
    );
    // Assess
    expect(turn).toEqual({ tool_calls: [{ id: 'call_a', name: 'lookup_order', arguments: { order_id: '1' } }], content: null });
  });

  it('replaces invalid JSON arguments with {} and keeps a note', () => {
    // Act
    const turn = parseCompletion(
      JSON.stringify({ choices: [{ message: { tool_calls: [{ function: { name: 'lookup_order', arguments: '{"order_id": ' } }] } }] }),
      4,
    );
    // Assess
    expect(turn).toEqual({
      tool_calls: [{ id: 'call_4_1', name: 'lookup_order', arguments: {} }],
      content: null,
      notes: ['arguments of lookup_order (call_4_1) are not a JSON object; replaced with {}'],
    });
  });

  it('retries a response without choices and then a 500, with the same rule as http', async () => {
    // Prepare
    const f = fakeSender(ok({ error: 'nope' }), ok({ error: 'boom' }, 500), completion({ content: 'third time lucky' }));
    // Act
    const turn = await openAiTarget(config, f).step({ run_id: 'r', attempt: 1, step: 1, tools: [], messages: [] });
    // Assess
    expect(turn).toEqual({ output: 'third time lucky' });
    expect(f.sleeps).toEqual([500, 1000]);
  });
});

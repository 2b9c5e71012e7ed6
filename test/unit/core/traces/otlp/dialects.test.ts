// The two dialects: which spans are agent traffic (kept) and which are not (skipped), what kind each is, where a model
// call's messages are read from (GenAI before OpenInference), and what a tool span says in either.
import { isAgentSpan, kindOf, llmView, toolExec } from '../../../../../functions/core/traces/otlp/spans';
import type { Span, SpanEvent } from '../../../../../functions/core/traces/otlp/types';

const span = (name: string, attrs: Record<string, unknown> = {}, events: SpanEvent[] = [], extra: Partial<Span> = {}): Span => ({
  traceId: 'ab'.repeat(16),
  spanId: 'cd'.repeat(8),
  name,
  attrs,
  resource: {},
  events,
  isError: false,
  ...extra,
});

describe('isAgentSpan', () => {
  it.each([
    ['a GenAI attribute', span('chat', { 'gen_ai.operation.name': 'chat' })],
    ['a GenAI event only', span('llm call', {}, [{ name: 'gen_ai.user.message', attrs: { content: 'hi' } }])],
    ['an execute_tool span name', span('execute_tool search')],
    ['the OpenInference span kind', span('agent', { 'openinference.span.kind': 'AGENT' })],
    ['OpenInference LLM attributes', span('llm', { 'llm.model_name': 'gpt-4o' })],
    ['OpenInference tool attributes', span('tool', { 'tool.name': 'search' })],
    ['an OpenLLMetry request type', span('openai.chat', { 'llm.request.type': 'chat' })],
  ])('keeps a span with %s', (_what, s) => {
    expect(isAgentSpan(s)).toBe(true);
  });

  it.each([
    ['an HTTP server span', span('GET /health', { 'http.request.method': 'GET', 'http.route': '/health' })],
    ['a database span', span('SELECT orders', { 'db.system': 'postgresql', 'db.query.text': 'SELECT 1' })],
    ['an exception event', span('POST /chat', { 'http.request.method': 'POST' }, [{ name: 'exception', attrs: { 'exception.message': 'x' } }])],
    ['a generic input.value', span('handler', { 'input.value': '{"q":1}' })],
  ])('skips %s', (_what, s) => {
    expect(isAgentSpan(s)).toBe(false);
  });
});

describe('kindOf', () => {
  it('reads gen_ai.operation.name first, then the OpenInference span kind', () => {
    expect(kindOf(span('x', { 'gen_ai.operation.name': 'chat' }))).toBe('llm');
    expect(kindOf(span('x', { 'gen_ai.operation.name': 'generate_content' }))).toBe('llm');
    expect(kindOf(span('x', { 'gen_ai.operation.name': 'execute_tool' }))).toBe('tool');
    expect(kindOf(span('x', { 'gen_ai.operation.name': 'invoke_agent' }))).toBe('other');
    expect(kindOf(span('x', { 'gen_ai.operation.name': 'embeddings', 'openinference.span.kind': 'LLM' }))).toBe('other');
    expect(kindOf(span('x', { 'openinference.span.kind': 'llm' }))).toBe('llm');
    expect(kindOf(span('x', { 'openinference.span.kind': 'TOOL' }))).toBe('tool');
    expect(kindOf(span('x', { 'openinference.span.kind': 'CHAIN' }))).toBe('other');
  });

  it('falls back to tool names, message attributes and events, and the OpenLLMetry request type', () => {
    expect(kindOf(span('execute_tool search'))).toBe('tool');
    expect(kindOf(span('x', { 'gen_ai.tool.name': 'search' }))).toBe('tool');
    expect(kindOf(span('x', { 'gen_ai.prompt.0.content': 'hi' }))).toBe('llm');
    expect(kindOf(span('x', { 'llm.input_messages.0.message.role': 'user' }))).toBe('llm');
    expect(kindOf(span('x', {}, [{ name: 'gen_ai.choice', attrs: {} }]))).toBe('llm');
    expect(kindOf(span('x', { 'llm.request.type': 'completion' }))).toBe('llm');
    expect(kindOf(span('x', { 'gen_ai.system': 'openai' }))).toBe('other');
  });
});

describe('llmView', () => {
  it('reads GenAI messages before OpenInference ones when a span carries both', () => {
    const s = span('chat', {
      'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'from genai' }] }]),
      'llm.input_messages.0.message.role': 'user',
      'llm.input_messages.0.message.content': 'from openinference',
      'llm.output_messages.0.message.role': 'assistant',
      'llm.output_messages.0.message.content': 'answer',
    });

    const view = llmView(s);

    expect(view.input).toEqual([{ role: 'user', content: 'from genai', calls: [] }]);
    expect(view.output).toEqual({ role: 'assistant', content: 'answer', calls: [] });
  });

  it('reads the messages of the operation-details event and the system instructions', () => {
    const details: SpanEvent = {
      name: 'gen_ai.client.inference.operation.details',
      attrs: {
        'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'hi' }] }]),
        'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'hello' }] }]),
        'gen_ai.system_instructions': JSON.stringify([{ type: 'text', content: 'Be brief.' }]),
      },
    };

    const view = llmView(span('chat', { 'gen_ai.operation.name': 'chat' }, [details]));

    expect(view).toMatchObject({ system: 'Be brief.', input: [{ role: 'user', content: 'hi' }], output: { role: 'assistant', content: 'hello' } });
  });

  it('reads the raw provider request and response of an OpenInference span when no messages are indexed', () => {
    const s = span('llm', {
      'openinference.span.kind': 'LLM',
      'input.value': JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }),
      'output.value': JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'hello' } }] }),
    });

    expect(llmView(s)).toMatchObject({ input: [{ role: 'user', content: 'hi' }], output: { role: 'assistant', content: 'hello' } });
  });
});

describe('toolExec', () => {
  const ns = (ms: number) => String(1_700_000_000_000_000_000n + BigInt(ms) * 1_000_000n);

  it('reads a GenAI tool span: name, call id, arguments, result, duration, error', () => {
    const s = span(
      'execute_tool search',
      {
        'gen_ai.tool.call.id': 'c1',
        'gen_ai.tool.call.arguments': '{"q":"x"}',
        'gen_ai.tool.call.result': '[1]',
        'gen_ai.tool.description': 'Search',
      },
      [],
      { start: ns(0), end: ns(250), isError: true, statusMessage: 'quota' },
    );

    expect(toolExec(s)).toMatchObject({
      id: 'c1',
      name: 'search',
      arguments: '{"q":"x"}',
      result: '[1]',
      durationMs: 250,
      error: 'quota',
      description: 'Search',
    });
  });

  it('reads an OpenInference tool span: tool.name, tool_call.id, input.value, output.value, tool.parameters', () => {
    const s = span('tool', {
      'openinference.span.kind': 'TOOL',
      'tool.name': 'lookup',
      'tool_call.id': 'toolu_1',
      'input.value': '{"id":7}',
      'output.value': 'found',
      'tool.parameters': '{"type":"object"}',
    });

    expect(toolExec(s)).toMatchObject({ id: 'toolu_1', name: 'lookup', arguments: '{"id":7}', result: 'found', parameters: { type: 'object' } });
  });
});

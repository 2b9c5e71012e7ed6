// OTLP/JSON import: GenAI semconv (three message encodings) and OpenInference spans become valid native traces.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { convertOtlp } from '../../../../../functions/core/traces/otlp/convert';
import { isOtlpExport } from '../../../../../functions/core/traces/otlp/read-json';
import { traceInputSchema, type TraceInput, type TraceStep } from '../../../../../functions/core/traces/schema';

type Export = { resourceSpans: unknown[] };

function fixture(name: string): Export {
  return JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'fixtures', 'otlp', name), 'utf8')) as Export;
}

/** Converts and validates every trace, failing with the schema's issues when one does not pass. */
function convertValid(body: Export): TraceInput[] {
  return convertOtlp(body).map((raw) => {
    const parsed = traceInputSchema.safeParse(raw);
    if (!parsed.success) throw new Error(`trace does not validate: ${JSON.stringify(parsed.error.issues)}`);
    return parsed.data;
  });
}

const roles = (t: TraceInput): string[] => t.steps.map((s) => s.role);
const toolSteps = (t: TraceInput): Extract<TraceStep, { role: 'tool' }>[] =>
  t.steps.filter((s): s is Extract<TraceStep, { role: 'tool' }> => s.role === 'tool');
const calls = (t: TraceInput) => t.steps.flatMap((s) => (s.role === 'assistant' ? (s.tool_calls ?? []) : []));

const s = (key: string, value: string) => ({ key, value: { stringValue: value } });
const span = (traceId: string, spanId: string, name: string, startMs: number, attributes: unknown[], extra: Record<string, unknown> = {}) => ({
  traceId,
  spanId,
  name,
  startTimeUnixNano: String(1_700_000_000_000_000_000n + BigInt(startMs) * 1_000_000n),
  endTimeUnixNano: String(1_700_000_000_000_000_000n + BigInt(startMs + 10) * 1_000_000n),
  attributes,
  ...extra,
});
const exportOf = (...spans: unknown[]): Export => ({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans }] }] });
const chat = (input: unknown[], output: unknown[]) => [
  s('gen_ai.operation.name', 'chat'),
  s('gen_ai.input.messages', JSON.stringify(input)),
  s('gen_ai.output.messages', JSON.stringify(output)),
];
const userMsg = (text: string) => ({ role: 'user', parts: [{ type: 'text', content: text }] });

describe('isOtlpExport', () => {
  it('recognises a body with a resourceSpans array', () => {
    expect(isOtlpExport({ resourceSpans: [] })).toBe(true);
    expect(isOtlpExport(fixture('two-traces.json'))).toBe(true);
  });

  it('rejects native traces and non-objects', () => {
    expect(isOtlpExport({ steps: [{ role: 'user', content: 'hi' }] })).toBe(false);
    expect(isOtlpExport({ resourceSpans: {} })).toBe(false);
    expect(isOtlpExport(null)).toBe(false);
    expect(isOtlpExport([{ resourceSpans: [] }])).toBe(false);
    expect(isOtlpExport('{"resourceSpans":[]}')).toBe(false);
  });
});

describe('convertOtlp', () => {
  it('converts new-style gen_ai.input/output.messages with two execute_tool spans, without duplicating the tool results', () => {
    // Prepare
    const body = fixture('genai-new-style.json');

    // Act
    const [trace, ...rest] = convertValid(body);

    // Assess
    expect(rest).toHaveLength(0);
    expect(roles(trace)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'assistant']);
    expect(trace.steps[0]).toEqual({ role: 'system', content: 'You are a travel assistant.' });
    expect(trace.steps[2]).toMatchObject({ content: 'Let me check both.' });
    expect(calls(trace)).toEqual([
      { id: 'call_wx_01', name: 'get_weather', arguments: { city: 'Paris' } },
      { id: 'call_tm_02', name: 'get_time', arguments: { city: 'Paris' } },
    ]);
    expect(toolSteps(trace)).toEqual([
      { role: 'tool', tool_call_id: 'call_wx_01', name: 'get_weather', content: { temp_c: 18, sky: 'cloudy' }, duration_ms: 120 },
      { role: 'tool', tool_call_id: 'call_tm_02', name: 'get_time', content: '14:05', duration_ms: 45 },
    ]);
    expect(trace.steps[5]).toMatchObject({ role: 'assistant', content: expect.stringContaining('18°C') });
    expect(trace.name).toBe('invoke_agent travel-agent');
    expect(trace.agent).toEqual({ name: 'travel-agent', version: '2.3.0' });
    expect(trace.model).toEqual({ provider: 'openai', name: 'gpt-4o-mini' });
    expect(trace.tools?.map((t) => t.name)).toEqual(['get_weather', 'get_time']);
    expect(trace.tools?.[0].parameters).toMatchObject({ required: ['city'] });
    expect(trace.metadata).toEqual({ otlp_trace_id: '5b8efff798038103d269b633813fc60c', source: 'otlp', conversation_id: 'conv-7781' });
    expect(trace.tags).toEqual(['otlp']);
    expect(trace.trace_id).toBeUndefined();
  });

  it('converts old-style indexed gen_ai.prompt/completion attributes, generating call ids and matching the tool span by name', () => {
    // Prepare
    const body = fixture('genai-indexed.json');

    // Act
    const [trace] = convertValid(body);

    // Assess
    expect(roles(trace)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant']);
    expect(trace.steps[1]).toEqual({ role: 'user', content: 'Where is my order 1234?' });
    expect(calls(trace)).toEqual([{ id: 'call_1', name: 'lookup_order', arguments: { order_id: '1234' } }]);
    expect(toolSteps(trace)).toEqual([
      { role: 'tool', tool_call_id: 'call_1', name: 'lookup_order', content: { status: 'shipped', carrier: 'UPS' }, duration_ms: 90 },
    ]);
    expect(trace.steps[4]).toEqual({ role: 'assistant', content: 'Your order 1234 has shipped with UPS.' });
    expect(trace.model).toEqual({ provider: 'openai', name: 'gpt-4o' });
    expect(trace.tools).toEqual([
      { name: 'lookup_order', description: 'Look up an order by id', parameters: { type: 'object', properties: { order_id: { type: 'string' } } } },
    ]);
    expect(trace.name).toBe('support-run');
  });

  it('converts an OpenInference trace (AGENT, LLM, TOOL, LLM spans)', () => {
    // Prepare
    const body = fixture('openinference.json');

    // Act
    const [trace] = convertValid(body);

    // Assess
    expect(roles(trace)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant']);
    expect(calls(trace)).toEqual([{ id: 'toolu_01A', name: 'search_flights', arguments: { origin: 'SFO', destination: 'JFK', date: '2025-03-14' } }]);
    expect(toolSteps(trace)).toEqual([
      {
        role: 'tool',
        tool_call_id: 'toolu_01A',
        name: 'search_flights',
        content: [{ flight: 'UA 1523', departs: '07:05', price: 289 }],
        duration_ms: 790,
      },
    ]);
    expect(trace.model).toEqual({ provider: 'anthropic', name: 'claude-3-5-sonnet-20241022' });
    expect(trace.agent).toEqual({ name: 'flight-agent' });
    expect(trace.tools).toHaveLength(1);
    expect(trace.tools?.[0]).toMatchObject({ name: 'search_flights', parameters: { required: ['origin', 'destination', 'date'] } });
    expect(trace.metadata).toMatchObject({ conversation_id: 'sess-42' });
  });

  it('converts gen_ai.*.message and gen_ai.choice span events, taking a tool result from the next model input', () => {
    // Prepare
    const body = fixture('genai-events.json');

    // Act
    const [trace] = convertValid(body);

    // Assess
    expect(roles(trace)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant']);
    expect(calls(trace)).toEqual([{ id: 'call_fx', name: 'fx_rate', arguments: { from: 'USD', to: 'EUR' } }]);
    expect(toolSteps(trace)).toEqual([{ role: 'tool', tool_call_id: 'call_fx', name: 'fx_rate', content: { rate: 0.92 } }]);
    expect(trace.steps[4]).toEqual({ role: 'assistant', content: '100 USD is about 92 EUR.' });
  });

  it('returns one trace per traceId, in order of first appearance', () => {
    // Prepare
    const body = fixture('two-traces.json');

    // Act
    const traces = convertValid(body);

    // Assess
    expect(traces.map((t) => t.metadata?.otlp_trace_id)).toEqual(['11111111111111111111111111111111', '22222222222222222222222222222222']);
    expect(traces.map((t) => t.steps[0])).toEqual([
      { role: 'user', content: 'What are your opening hours?' },
      { role: 'user', content: 'Do you ship to Canada?' },
    ]);
    expect(traces.map((element) => roles(element))).toEqual([
      ['user', 'assistant'],
      ['user', 'assistant'],
    ]);
  });

  it('turns a tool span with ERROR status into a tool step carrying the status message as error', () => {
    // Prepare
    const body = fixture('tool-error.json');

    // Act
    const [trace] = convertValid(body);

    // Assess
    expect(roles(trace)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(toolSteps(trace)).toEqual([
      { role: 'tool', tool_call_id: 'call_cx', name: 'cancel_booking', error: 'upstream timeout after 5000 ms', duration_ms: 5000 },
    ]);
  });

  it('reads numeric status code 2 as an error, falling back to the exception message', () => {
    // Prepare
    const body = exportOf(
      span(
        't1',
        'a',
        'chat',
        0,
        chat([userMsg('run it')], [{ role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'run', arguments: {} }] }]),
      ),
      span(
        't1',
        'b',
        'execute_tool run',
        20,
        [s('gen_ai.operation.name', 'execute_tool'), s('gen_ai.tool.name', 'run'), s('gen_ai.tool.call.id', 'c1')],
        {
          status: { code: 2 },
          events: [{ name: 'exception', attributes: [s('exception.message', 'boom')] }],
        },
      ),
    );

    // Act
    const [trace] = convertValid(body);

    // Assess
    expect(toolSteps(trace)).toEqual([{ role: 'tool', tool_call_id: 'c1', name: 'run', error: 'boom', duration_ms: 10 }]);
  });

  it('decodes intValue, doubleValue, boolValue, arrayValue and kvlistValue attribute values', () => {
    // Prepare
    const args = {
      key: 'gen_ai.tool.call.arguments',
      value: {
        kvlistValue: {
          values: [
            { key: 'n', value: { intValue: '42' } },
            { key: 'big', value: { intValue: '9007199254740993' } },
            { key: 'x', value: { doubleValue: 1.5 } },
            { key: 'ok', value: { boolValue: true } },
            { key: 'tags', value: { arrayValue: { values: [{ stringValue: 'a' }, { intValue: 7 }] } } },
          ],
        },
      },
    };
    const body = exportOf(
      span('t1', 'a', 'chat', 0, chat([userMsg('go')], [])),
      span('t1', 'b', 'execute_tool calc', 20, [
        s('gen_ai.operation.name', 'execute_tool'),
        args,
        { key: 'gen_ai.tool.call.result', value: { intValue: 7 } },
      ]),
    );

    // Act
    const [trace] = convertValid(body);

    // Assess
    expect(calls(trace)).toEqual([{ id: 'call_1', name: 'calc', arguments: { n: 42, big: '9007199254740993', x: 1.5, ok: true, tags: ['a', 7] } }]);
    expect(toolSteps(trace)[0]).toMatchObject({ tool_call_id: 'call_1', content: 7 });
  });

  it('records a tool span no model output asked for as an assistant call followed by its result', () => {
    // Prepare
    const body = exportOf(
      span('t1', 'a', 'chat', 0, chat([userMsg('weather?')], [])),
      span('t1', 'b', 'execute_tool get_weather', 20, [
        s('gen_ai.operation.name', 'execute_tool'),
        s('gen_ai.tool.call.arguments', '{"city":"Oslo"}'),
        s('gen_ai.tool.call.result', 'rain'),
      ]),
    );

    // Act
    const [trace] = convertValid(body);

    // Assess
    expect(roles(trace)).toEqual(['user', 'assistant', 'tool']);
    expect(calls(trace)).toEqual([{ id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } }]);
    expect(toolSteps(trace)[0]).toMatchObject({ tool_call_id: 'call_1', name: 'get_weather', content: 'rain' });
  });

  it('generates call ids that do not collide with ids the trace already uses', () => {
    // Prepare
    const output = [
      {
        role: 'assistant',
        parts: [
          { type: 'tool_call', name: 'a', arguments: {} },
          { type: 'tool_call', id: 'call_1', name: 'b', arguments: {} },
        ],
      },
    ];
    const body = exportOf(span('t1', 'a', 'chat', 0, chat([userMsg('go')], output)));

    // Act
    const [trace] = convertValid(body);

    // Assess
    expect(calls(trace).map((c) => c.id)).toEqual(['call_2', 'call_1']);
  });

  it('answers calls in order when tool spans carry no call id, matching the earliest open call of the same name', () => {
    // Prepare
    const output = [
      {
        role: 'assistant',
        parts: [
          { type: 'tool_call', id: 'x1', name: 'fetch', arguments: { url: 'a' } },
          { type: 'tool_call', id: 'x2', name: 'fetch', arguments: { url: 'b' } },
        ],
      },
    ];
    const tool = (id: string, start: number, result: string) =>
      span('t1', id, 'execute_tool fetch', start, [
        s('gen_ai.operation.name', 'execute_tool'),
        s('gen_ai.tool.name', 'fetch'),
        s('gen_ai.tool.call.result', result),
      ]);
    const body = exportOf(span('t1', 'a', 'chat', 0, chat([userMsg('go')], output)), tool('c', 30, 'B?'), tool('b', 20, 'A?'));

    // Act
    const [trace] = convertValid(body);

    // Assess
    expect(toolSteps(trace).map((t) => [t.tool_call_id, t.content])).toEqual([
      ['x1', 'A?'],
      ['x2', 'B?'],
    ]);
  });

  it('leaves out model calls made inside a tool span (a sub-agent)', () => {
    // Prepare
    const body = exportOf(
      span(
        't1',
        'a',
        'chat',
        0,
        chat([userMsg('research this')], [{ role: 'assistant', parts: [{ type: 'tool_call', id: 'r1', name: 'research', arguments: {} }] }]),
      ),
      span('t1', 'b', 'execute_tool research', 20, [
        s('gen_ai.operation.name', 'execute_tool'),
        s('gen_ai.tool.name', 'research'),
        s('gen_ai.tool.call.id', 'r1'),
        s('gen_ai.tool.call.result', 'done'),
      ]),
      span('t1', 'c', 'chat', 25, chat([userMsg('inner question')], [{ role: 'assistant', parts: [{ type: 'text', content: 'inner answer' }] }]), {
        parentSpanId: 'b',
      }),
    );

    // Act
    const [trace] = convertValid(body);

    // Assess
    expect(roles(trace)).toEqual(['user', 'assistant', 'tool']);
    expect(trace.steps.some((st) => st.role === 'user' && st.content === 'inner question')).toBe(false);
  });

  it('adds a new user turn found in a later model input after the last assistant message', () => {
    // Prepare
    const first = [{ role: 'assistant', parts: [{ type: 'text', content: 'Which city?' }] }];
    const body = exportOf(
      span('t1', 'a', 'chat', 0, chat([userMsg('weather?')], first)),
      span(
        't1',
        'b',
        'chat',
        50,
        chat([userMsg('weather?'), ...first, userMsg('Oslo')], [{ role: 'assistant', parts: [{ type: 'text', content: 'Rain.' }] }]),
      ),
    );

    // Act
    const [trace] = convertValid(body);

    // Assess
    expect(trace.steps).toEqual([
      { role: 'user', content: 'weather?' },
      { role: 'assistant', content: 'Which city?' },
      { role: 'user', content: 'Oslo' },
      { role: 'assistant', content: 'Rain.' },
    ]);
  });

  it('skips malformed spans and values instead of throwing', () => {
    // Prepare
    const body: Export = {
      resourceSpans: [
        null,
        42,
        { scopeSpans: 'nope' },
        { resource: { attributes: 'bad' }, scopeSpans: [null, { spans: [null, 'x', { name: 'no trace id' }] }] },
        {
          scopeSpans: [
            {
              spans: [
                {
                  traceId: 'abc',
                  startTimeUnixNano: 'soon',
                  attributes: [null, { key: 1 }, { key: 'k' }],
                  events: [null, { attributes: 5 }],
                  status: 'bad',
                },
                span('abc', 'b', 'chat', 10, [
                  s('gen_ai.operation.name', 'chat'),
                  s('gen_ai.input.messages', '{not json'),
                  s('gen_ai.output.messages', JSON.stringify([null, { role: 'assistant', parts: [null, { type: 'tool_call' }] }])),
                ]),
              ],
            },
          ],
        },
      ],
    };

    // Act
    const traces = convertOtlp(body);

    // Assess
    expect(traces).toHaveLength(1);
    expect(traces[0]).toMatchObject({ steps: [], metadata: { otlp_trace_id: 'abc', source: 'otlp' }, tags: ['otlp'] });
  });

  it('never throws on randomly corrupted fixtures', () => {
    // Prepare: a seeded generator, so a failure reproduces.
    let seed = 7;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const junk = [null, 0, -1, '', 'x', '{', '[{"type":"text"}]', {}, [], true, { stringValue: 5 }, { intValue: 'nan' }];
    const corrupt = (node: unknown): unknown => {
      if (random() < 0.04) return junk[Math.floor(random() * junk.length)];
      if (Array.isArray(node)) return node.map((element) => corrupt(element));
      if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, corrupt(v)]));
      return node;
    };
    const names = ['genai-new-style.json', 'genai-indexed.json', 'openinference.json', 'genai-events.json', 'tool-error.json', 'two-traces.json'];

    // Act / Assess
    for (let round = 0; round < 200; round += 1) {
      const body = corrupt(fixture(names[round % names.length])) as Export;
      if (!isOtlpExport(body)) continue;
      expect(() => convertOtlp(body).map((t) => traceInputSchema.safeParse(t))).not.toThrow();
    }
  });

  it('still returns a trace with no user message, for the schema to reject with a clear message', () => {
    // Prepare
    const body = exportOf(span('t1', 'a', 'chat gpt-4o', 0, [s('gen_ai.operation.name', 'chat'), s('gen_ai.request.model', 'gpt-4o')]));

    // Act
    const traces = convertOtlp(body);
    const parsed = traceInputSchema.safeParse(traces[0]);

    // Assess
    expect(traces).toHaveLength(1);
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toMatch(/at least one|too_small/);
  });

  it('returns nothing for an export without spans', () => {
    expect(convertOtlp({ resourceSpans: [] })).toEqual([]);
    expect(convertOtlp({ resourceSpans: [{ scopeSpans: [{ spans: [] }] }] })).toEqual([]);
  });
});

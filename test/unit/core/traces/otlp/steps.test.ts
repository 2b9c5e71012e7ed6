// Step building from model calls and tool executions: the order of the transcript, and how each tool result finds the
// call it answers (by id, by name, from a span or from the next model input).
import { buildSteps } from '../../../../../functions/core/traces/otlp/steps';
import type { LlmView, Msg, Span, ToolExec } from '../../../../../functions/core/traces/otlp/types';

const at = (ms: number) => String(1_700_000_000_000_000_000n + BigInt(ms) * 1_000_000n);
const span = (start: number): Span => ({
  traceId: 't',
  spanId: `s${start}`,
  name: 'x',
  start: at(start),
  attrs: {},
  resource: {},
  events: [],
  isError: false,
});
const user = (content: string): Msg => ({ role: 'user', content, calls: [] });
const assistant = (content: string | null, calls: Msg['calls'] = []): Msg => ({ role: 'assistant', content, calls });
const toolMsg = (toolCallId: string, content: unknown, name?: string): Msg => ({
  role: 'tool',
  content,
  calls: [],
  toolCallId,
  ...(name ? { name } : {}),
});
const llm = (start: number, input: Msg[], output?: Msg, system?: string): LlmView => ({
  span: span(start),
  input,
  ...(output ? { output } : {}),
  ...(system ? { system } : {}),
});
const exec = (start: number, x: Partial<ToolExec> & { name: string }): ToolExec => ({
  span: span(start),
  arguments: undefined,
  result: undefined,
  ...x,
});
const call = (id: string, name: string, args: unknown = {}) => ({ id, name, arguments: args });

describe('buildSteps', () => {
  it('puts the system instructions first, then the first input, each output, and tool spans before the next model call', () => {
    const steps = buildSteps(
      [llm(0, [user('weather?')], assistant(null, [call('c1', 'weather', '{"city":"Oslo"}')]), 'Be brief.'), llm(300, [], assistant('Rain.'))],
      [exec(100, { id: 'c1', name: 'weather', result: '"rain"', durationMs: 80 })],
    );

    expect(steps).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'weather?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', name: 'weather', arguments: { city: 'Oslo' } }] },
      { role: 'tool', tool_call_id: 'c1', name: 'weather', content: 'rain', duration_ms: 80 },
      { role: 'assistant', content: 'Rain.' },
    ]);
  });

  it('replaces a result read from the next model input with the tool span of the same call (duration, error)', () => {
    const calls = [call('c1', 'pay')];
    const steps = buildSteps(
      [
        llm(0, [user('pay')], assistant(null, calls)),
        llm(300, [user('pay'), assistant(null, calls), toolMsg('c1', 'declined')], assistant('Declined.')),
      ],
      [exec(400, { id: 'c1', name: 'pay', error: 'card declined', durationMs: 30 })],
    );

    expect(steps.filter((st) => st.role === 'tool')).toEqual([
      { role: 'tool', tool_call_id: 'c1', name: 'pay', error: 'card declined', duration_ms: 30 },
    ]);
  });

  it('records a second execution of the same call id (a retry) as another result of that call', () => {
    const steps = buildSteps(
      [llm(0, [user('go')], assistant(null, [call('c1', 'fetch')]))],
      [exec(100, { id: 'c1', name: 'fetch', error: 'timeout' }), exec(200, { id: 'c1', name: 'fetch', result: 'ok' })],
    );

    expect(steps.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'c1', name: 'fetch', error: 'timeout' },
      { role: 'tool', tool_call_id: 'c1', name: 'fetch', content: 'ok' },
    ]);
  });

  it('takes an unrecorded output from the next call input, and does not repeat a user turn sent again', () => {
    const steps = buildSteps(
      [llm(0, [user('hi')]), llm(100, [user('hi'), assistant('Hello!'), user('bye')], assistant('Bye!')), llm(200, [user('bye')])],
      [],
    );

    expect(steps).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'Hello!' },
      { role: 'user', content: 'bye' },
      { role: 'assistant', content: 'Bye!' },
    ]);
  });

  it('drops a tool result that answers no call, and a message whose content was not captured', () => {
    const steps = buildSteps(
      [
        llm(0, [{ role: 'system', content: null, calls: [] }, user('go')], assistant('Done.')),
        llm(100, [user('go'), assistant('Done.'), toolMsg('zz', 'orphan')]),
      ],
      [],
    );

    expect(steps).toEqual([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: 'Done.' },
    ]);
  });
});

// An OTLP conversation (several chat spans, each carrying the growing history, with tool executions between them)
// keeps its user turns: the user steps come out once each, in order, and the replay splits the trace into those turns
// (docs/campaigns-and-replay.md#turns).
import { convertOtlp } from '../../../../../functions/core/traces/otlp/convert';
import { compileRun } from '../../../../../functions/core/replay/compile';
import { splitTurns } from '../../../../../functions/core/replay/turns';
import { traceInputSchema } from '../../../../../functions/core/traces/schema';
import { makeCampaign, RUN_ID } from '../../../../helpers/replay-fakes';

const s = (key: string, value: string) => ({ key, value: { stringValue: value } });
const nanos = (ms: number) => String(1_700_000_000_000_000_000n + BigInt(ms) * 1_000_000n);
const span = (spanId: string, name: string, startMs: number, attributes: unknown[]) => ({
  traceId: 'c0ffee00c0ffee00c0ffee00c0ffee00',
  spanId,
  name,
  startTimeUnixNano: nanos(startMs),
  endTimeUnixNano: nanos(startMs + 10),
  attributes,
});
const chat = (id: string, at: number, input: unknown[], output: unknown) =>
  span(id, 'chat gpt-4o-mini', at, [
    s('gen_ai.operation.name', 'chat'),
    s('gen_ai.input.messages', JSON.stringify(input)),
    s('gen_ai.output.messages', JSON.stringify([output])),
  ]);
const text = (role: string, content: string) => ({ role, parts: [{ type: 'text', content }] });
const lookup = { role: 'assistant', parts: [{ type: 'tool_call', id: 'call_1', name: 'lookup_order', arguments: { order_id: '1234' } }] };
const lookupResult = { role: 'tool', parts: [{ type: 'tool_call_response', id: 'call_1', response: { status: 'packing' } }] };

describe('an OTLP conversation of several chat spans', () => {
  it('keeps its user turns in order, and the replay splits it into those turns', () => {
    // Prepare
    const system = text('system', 'You are a support agent.');
    const u1 = text('user', 'Where is order 1234?');
    const a1 = text('assistant', 'It is being packed.');
    const u2 = text('user', 'Send it to 9 New Street.');
    const a2 = text('assistant', 'Done.');
    const u3 = text('user', 'Thanks!');
    const body = {
      resourceSpans: [
        {
          resource: { attributes: [] },
          scopeSpans: [
            {
              spans: [
                chat('01', 0, [system, u1], lookup),
                span('02', 'execute_tool lookup_order', 20, [
                  s('gen_ai.operation.name', 'execute_tool'),
                  s('gen_ai.tool.name', 'lookup_order'),
                  s('gen_ai.tool.call.id', 'call_1'),
                  s('gen_ai.tool.call.result', '{"status":"packing"}'),
                ]),
                chat('03', 40, [system, u1, lookup, lookupResult], a1),
                chat('04', 60, [system, u1, lookup, lookupResult, a1, u2], a2),
                chat('05', 80, [system, u1, lookup, lookupResult, a1, u2, a2, u3], text('assistant', 'You are welcome.')),
              ],
            },
          ],
        },
      ],
    };

    // Act
    const [raw] = convertOtlp(body);
    const trace = traceInputSchema.parse(raw);
    const turns = splitTurns(trace.steps);

    // Assess
    expect(trace.steps.filter((step) => step.role === 'user').map((step) => step.content)).toEqual([
      'Where is order 1234?',
      'Send it to 9 New Street.',
      'Thanks!',
    ]);
    expect(turns.map((t) => t.map((step) => step.content))).toEqual([
      ['You are a support agent.', 'Where is order 1234?'],
      ['Send it to 9 New Street.'],
      ['Thanks!'],
    ]);
    const stored = { ...trace, trace_id: '00000000-0000-4000-8000-000000000000', name: 'conversation', tools: [], metadata: {}, tags: [] };
    const run = compileRun({
      run_id: RUN_ID,
      trace: { ...stored, created_at: '', step_count: 0, tool_call_count: 0, size_bytes: 0 },
      campaign: makeCampaign(),
    });
    expect(run.turnCount).toBe(3);
  });
});

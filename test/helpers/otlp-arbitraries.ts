// Generated OTLP/JSON exports at real sizes (0-80 attributes a span, values nested to the depth limit, events, several
// resources), and the OpenLLMetry-style two-call tool conversation with 28 attributes on its last chat span.
import fc from 'fast-check';

type Json = Record<string, unknown>;

/** AnyValue nesting the protobuf reader keeps (MAX_VALUE_DEPTH in functions/core/traces/otlp/read-proto.ts). */
export const VALUE_DEPTH_LIMIT = 20;

const text = fc.string({ unit: 'grapheme', maxLength: 24 });
const hexId = (bytes: number) =>
  fc
    .uint8Array({ minLength: bytes, maxLength: bytes })
    .map((b) => (b.some((x) => x !== 0) ? Buffer.from(b).toString('hex') : '01'.padStart(bytes * 2, '0')));
const nanos = fc.bigInt({ min: 1n, max: 2n ** 63n }).map(String);

const scalar: fc.Arbitrary<Json> = fc.oneof(
  text.map((stringValue) => ({ stringValue })),
  fc.boolean().map((boolValue) => ({ boolValue })),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((n) => ({ intValue: String(n) })),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((doubleValue) => ({ doubleValue })),
  fc.uint8Array({ maxLength: 12 }).map((b) => ({ bytesValue: Buffer.from(b).toString('base64') })),
  fc.constant({}),
);

/** A value nested `depth` levels (arrays and key-value lists in turn) around a scalar. */
const chain = (depth: number): fc.Arbitrary<Json> =>
  depth === 0
    ? scalar
    : chain(depth - 1).chain((inner) =>
        fc.constantFrom<Json>({ arrayValue: { values: [inner] } }, { kvlistValue: { values: [{ key: 'k', value: inner }] } }),
      );

const { value } = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 3 }).map((values) => ({ arrayValue: { values } })),
    fc.array(fc.record({ key: text, value: tie('value') }), { maxLength: 3 }).map((values) => ({ kvlistValue: { values } })),
  ),
}));

/** Any AnyValue: shallow trees of every kind, or a chain up to one level past the depth limit. */
export const anyValue: fc.Arbitrary<Json> = fc.oneof(value, fc.integer({ min: 0, max: VALUE_DEPTH_LIMIT + 1 }).chain(chain));

const attributes = (max: number) => fc.array(fc.record({ key: text, value: anyValue }), { maxLength: max });

const span = (traceId: string) =>
  fc.record(
    {
      traceId: fc.constant(traceId),
      spanId: hexId(8),
      parentSpanId: hexId(8),
      name: text,
      kind: fc.integer({ min: 0, max: 5 }),
      startTimeUnixNano: nanos,
      endTimeUnixNano: nanos,
      attributes: attributes(80),
      events: fc.array(fc.record({ name: text, timeUnixNano: nanos, attributes: attributes(10) }), { maxLength: 3 }),
      status: fc.record({ code: fc.integer({ min: 0, max: 2 }), message: text }, { requiredKeys: ['code'] }),
    },
    { requiredKeys: ['traceId', 'spanId', 'name', 'attributes'] },
  );

/** An export of one or two OTel traces over one to three resources. */
export function otlpExport(): fc.Arbitrary<{ resourceSpans: Json[] }> {
  return fc.array(hexId(16), { minLength: 1, maxLength: 2 }).chain((traceIds) =>
    fc
      .array(
        fc.record({
          resource: fc.record({ attributes: attributes(6) }),
          scopeSpans: fc.array(fc.record({ spans: fc.array(fc.constantFrom(...traceIds).chain(span), { minLength: 1, maxLength: 4 }) }), {
            minLength: 1,
            maxLength: 2,
          }),
        }),
        { minLength: 1, maxLength: 3 },
      )
      .map((resourceSpans) => ({ resourceSpans })),
  );
}

const str = (key: string, stringValue: string) => ({ key, value: { stringValue } });
const int = (key: string, n: number) => ({ key, value: { intValue: String(n) } });

/** Shuffles with a seeded generator (so a failing case replays), keeping the list's elements. */
function shuffled<T>(list: T[], seed: number): T[] {
  const out = [...list];
  let s = seed >>> 0 || 1;
  for (let i = out.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const SYSTEM = 'You are a support agent for an online shop.';
const USER = 'Where is my order 1234?';
const RESULT = '{"status": "shipped", "carrier": "UPS"}';

/**
 * An OpenLLMetry-instrumented agent run (attribute form: `gen_ai.prompt.N.*`, `gen_ai.completion.0.*`, model and usage
 * attributes): a chat call asking for lookup_order, the tool, and a chat call answering, whose span carries 28
 * attributes plus `padding` more, in an order `seed` shuffles (seed 0: as listed).
 */
export function openLlmetryExport(opts: { padding?: number; seed?: number } = {}): { resourceSpans: Json[] } {
  const traceId = '0af7651916cd43dd8448eb211c80319c';
  const model = [str('gen_ai.system', 'openai'), str('gen_ai.request.model', 'gpt-4o'), str('llm.request.type', 'chat')];
  const tools = [
    str('llm.request.functions.0.name', 'lookup_order'),
    str('llm.request.functions.0.description', 'Look up an order by id'),
    str('llm.request.functions.0.parameters', '{"type":"object","properties":{"order_id":{"type":"string"}}}'),
  ];
  const chat1 = [
    ...model,
    ...tools,
    str('gen_ai.prompt.0.role', 'system'),
    str('gen_ai.prompt.0.content', SYSTEM),
    str('gen_ai.prompt.1.role', 'user'),
    str('gen_ai.prompt.1.content', USER),
    str('gen_ai.completion.0.role', 'assistant'),
    str('gen_ai.completion.0.finish_reason', 'tool_calls'),
    str('gen_ai.completion.0.tool_calls.0.id', 'call_1'),
    str('gen_ai.completion.0.tool_calls.0.name', 'lookup_order'),
    str('gen_ai.completion.0.tool_calls.0.arguments', '{"order_id": "1234"}'),
  ];
  const chat2 = [
    ...model,
    str('gen_ai.response.model', 'gpt-4o-2024-08-06'),
    int('gen_ai.usage.prompt_tokens', 182),
    int('gen_ai.usage.completion_tokens', 14),
    int('llm.usage.total_tokens', 196),
    { key: 'gen_ai.request.temperature', value: { doubleValue: 0.2 } },
    ...tools,
    str('gen_ai.prompt.0.role', 'system'),
    str('gen_ai.prompt.0.content', SYSTEM),
    str('gen_ai.prompt.1.role', 'user'),
    str('gen_ai.prompt.1.content', USER),
    str('gen_ai.prompt.2.role', 'assistant'),
    str('gen_ai.prompt.2.content', ''),
    str('gen_ai.prompt.2.tool_calls.0.id', 'call_1'),
    str('gen_ai.prompt.2.tool_calls.0.name', 'lookup_order'),
    str('gen_ai.prompt.2.tool_calls.0.arguments', '{"order_id": "1234"}'),
    str('gen_ai.prompt.3.role', 'tool'),
    str('gen_ai.prompt.3.content', RESULT),
    str('gen_ai.prompt.3.tool_call_id', 'call_1'),
    str('gen_ai.completion.0.role', 'assistant'),
    str('gen_ai.completion.0.content', 'Your order 1234 has shipped with UPS.'),
    str('gen_ai.completion.0.finish_reason', 'stop'),
    str('gen_ai.response.id', 'chatcmpl-42'),
    { key: 'llm.is_streaming', value: { boolValue: false } },
  ];
  const padding = Array.from({ length: opts.padding ?? 0 }, (_, i) => str(`app.padding.${i}`, `value ${i}`));
  const at = (ms: number) => String(1732233600000000000n + BigInt(ms) * 1_000_000n);
  const spanOf = (spanId: string, name: string, from: number, to: number, attrs: Json[], parentSpanId = '1111111111111111') => ({
    traceId,
    spanId,
    parentSpanId,
    name,
    kind: 3,
    startTimeUnixNano: at(from),
    endTimeUnixNano: at(to),
    attributes: attrs,
    status: {},
  });
  return {
    resourceSpans: [
      {
        resource: { attributes: [str('service.name', 'shop-support')] },
        scopeSpans: [
          {
            scope: { name: 'opentelemetry.instrumentation.openai' },
            spans: [
              spanOf('1111111111111111', 'support-run', 0, 1500, [str('traceloop.entity.name', 'support-run')], ''),
              spanOf('2222222222222222', 'openai.chat', 5, 600, chat1),
              spanOf('4444444444444444', 'openai.chat', 700, 1400, opts.seed ? shuffled([...chat2, ...padding], opts.seed) : [...chat2, ...padding]),
              spanOf('3333333333333333', 'execute_tool lookup_order', 610, 690, [
                str('gen_ai.operation.name', 'execute_tool'),
                str('gen_ai.tool.name', 'lookup_order'),
                str('gen_ai.tool.call.id', 'call_1'),
                str('gen_ai.tool.call.arguments', '{"order_id": "1234"}'),
                str('gen_ai.tool.call.result', RESULT),
              ]),
            ],
          },
        ],
      },
    ],
  };
}

// OTLP/JSON is data: an AnyValue or a GenAI event body of the wrong type is read without running any of its code. A
// parsed object whose `toString` or `valueOf` is not a function made String() and Number() throw, and POST /v1/traces
// answer 500 (found by `npm run bench -- fuzz`, mutations of valid bodies).
import fc from 'fast-check';
import { convertOtlp } from '../../../../../functions/core/traces/otlp/convert';
import { decodeAttrs } from '../../../../../functions/core/traces/otlp/read-json';
import { scalarNumber, scalarText } from '../../../../../functions/core/traces/otlp/util';

/** Objects as JSON.parse makes them from `{"toString": [], "valueOf": 1}`: own keys that shadow the conversions. */
const poisoned = JSON.parse('{"toString": [], "valueOf": {"toString": 1}}') as object;
const poisonedArray = JSON.parse('[{"toString": []}]') as unknown[];

describe('scalarText and scalarNumber', () => {
  it('read a poisoned object or array without throwing: its JSON, NaN', () => {
    expect(() => String(poisoned)).toThrow(TypeError);
    expect(() => Number(poisonedArray)).toThrow(TypeError);

    expect(scalarText(poisoned)).toBe('{"toString":[],"valueOf":{"toString":1}}');
    expect(scalarText(poisonedArray)).toBe('[{"toString":[]}]');
    expect(scalarNumber(poisoned)).toBeNaN();
    expect(scalarNumber(poisonedArray)).toBeNaN();
  });

  it('give what String() and Number() give for strings, numbers, booleans and null', () => {
    for (const v of ['12', ' 7 ', '', 'x', 3.5, -0, true, false, null]) {
      expect([v, scalarNumber(v)]).toEqual([v, Number(v)]);
      if (v !== null) expect([v, scalarText(v)]).toEqual([v, String(v)]);
    }
    expect([scalarText(null), scalarText(undefined)]).toEqual(['', '']);
  });
});

describe('decodeAttrs', () => {
  it('reads AnyValues of the wrong type without throwing', () => {
    const attrs = decodeAttrs([
      { key: 's', value: { stringValue: poisoned } },
      { key: 'i', value: { intValue: poisonedArray } },
      { key: 'd', value: { doubleValue: poisoned } },
      { key: 'n', value: { intValue: '42' } },
      { key: 'big', value: { intValue: '9007199254740993' } },
      { key: 'f', value: { doubleValue: 2.5 } },
    ]);

    expect(attrs).toEqual({
      s: '{"toString":[],"valueOf":{"toString":1}}',
      i: '[{"toString":[]}]',
      d: NaN,
      n: 42,
      big: '9007199254740993',
      f: 2.5,
    });
  });
});

describe('convertOtlp', () => {
  const span = (attributes: unknown[], events: unknown[] = []) => ({
    traceId: '5b8efff798038103d269b633813fc60c',
    spanId: 'eee19b7ec3c1b174',
    name: 'chat',
    startTimeUnixNano: '1700000000000000000',
    endTimeUnixNano: '1700000000010000000',
    attributes,
    events,
  });
  const exportOf = (...spans: unknown[]) => ({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans }] }] });

  it('reads GenAI events whose choice index or message text is of the wrong type', () => {
    const body = exportOf(
      span(
        [{ key: 'gen_ai.operation.name', value: { stringValue: 'chat' } }],
        [
          { name: 'gen_ai.user.message', attributes: [], body: { kvlistValue: { values: [{ key: 'content', value: { stringValue: 'hi' } }] } } },
          { name: 'gen_ai.choice', attributes: [], body: { kvlistValue: { values: [{ key: 'index', value: { intValue: poisonedArray } }] } } },
        ],
      ),
      span([{ key: 'gen_ai.prompt', value: { stringValue: JSON.stringify([{ role: 'user', content: { text: poisoned, content: 'x' } }]) } }]),
    );

    expect(() => convertOtlp(body)).not.toThrow();
  });

  it('never throws on any JSON as an AnyValue, poisoned objects included', () => {
    const shadowing = fc.dictionary(fc.constantFrom('toString', 'valueOf', 'text', 'content', 'index'), fc.jsonValue(), { minKeys: 1 });
    const value = fc.oneof(fc.jsonValue(), shadowing, fc.array(shadowing, { maxLength: 3 }));
    const anyValue = fc.oneof(
      value.map((v) => ({ stringValue: v })),
      value.map((v) => ({ intValue: v })),
      value.map((v) => ({ doubleValue: v })),
      value.map((v) => ({ boolValue: v })),
      value.map((v) => ({ arrayValue: { values: [{ intValue: v }] } })),
    );
    fc.assert(
      fc.property(fc.array(anyValue, { maxLength: 6 }), anyValue, (values, body) => {
        const attributes = values.map((v, i) => ({ key: ['gen_ai.operation.name', 'gen_ai.prompt', 'x'][i % 3], value: v }));
        const s = span(attributes, [{ name: 'gen_ai.choice', attributes: [], body }]);
        convertOtlp(JSON.parse(JSON.stringify(exportOf(s))) as { resourceSpans: unknown[] });
      }),
      { numRuns: 300 },
    );
  });
});

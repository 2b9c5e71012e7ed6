// fast-check generators of hostile API bodies (raw JSON text, mutations of valid bodies) and the vocabulary they draw
// on, shared by the fuzz properties (test/helpers/fuzz-properties.ts) and the fuzz bench (test/bench/fuzz.ts); the
// request lines and headers are in fuzz-request-arbitraries.ts.
import * as fc from 'fast-check';
import { openApiDocument } from '../../functions/core/openapi/document';
import { routes } from '../../lib/routes';
import { DEFAULT_BODY_LIMIT } from '../../functions/core/limits';

/** Field names and string values the generators favour, so that generated bodies reach past the first checks. */
export interface Vocabulary {
  keys: string[];
  strings: string[];
}

/** Keys that have broken JavaScript object handling before (prototype pollution, shadowed methods). */
const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', 'then', 'length', '', ' '];

/** Strings worth trying in any field: empty, blank, control and bidi characters, lone surrogates, globs, URLs. */
const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '\u202e evil',
  '\u2028\u2029',
  '\ufeff',
  '*',
  '**',
  '(a+)+$',
  '[',
  '\\',
  '%00',
  '../../etc/passwd',
  'https://example.com/hook',
  'http://127.0.0.1:9/step',
  'https://user:pw@example.com/',
  'https://[::1]/',
  'https://example.com:99999/',
  'https://ex ample.com/',
  'https://\u4f8b\u3048.jp/',
  'https:///path',
  'HTTPS://EXAMPLE.COM/',
  'https://169.254.169.254/latest/meta-data/',
  'javascript:alert(1)',
  'wh_aaaaaaaaaaaaaaaaaaaaaaaa',
  '00000000-0000-4000-8000-000000000000',
  'x'.repeat(300),
];

/**
 * The vocabulary of the API itself, read from the OpenAPI document (which the route table and the zod schemas
 * generate): every property name and every enum value, so a new field or route is covered without editing this file.
 */
export function apiVocabulary(extraStrings: string[] = []): Vocabulary {
  const keys = new Set<string>(HOSTILE_KEYS);
  const strings = new Set<string>(HOSTILE_STRINGS);
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const n of node) walk(n);
      return;
    }
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
      if (k === 'properties' && v && typeof v === 'object') for (const p of Object.keys(v)) keys.add(p);
      if (k === 'enum' && Array.isArray(v)) for (const e of v) if (typeof e === 'string') strings.add(e);
      if ((k === 'const' || k === 'example') && typeof v === 'string') strings.add(v);
      walk(v);
    }
  };
  walk(openApiDocument(routes));
  // OTLP exports are typed loosely in the document; their field names are what the converter reads.
  for (const k of [
    'resourceSpans',
    'scopeSpans',
    'spans',
    'attributes',
    'key',
    'value',
    'stringValue',
    'intValue',
    'arrayValue',
    'kvlistValue',
    'values',
    'traceId',
    'spanId',
    'parentSpanId',
    'events',
    'body',
  ])
    keys.add(k);
  for (const s of extraStrings) strings.add(s);
  return { keys: [...keys], strings: [...strings] };
}

// ---------------------------------------------------------------- raw JSON text

/** One UTF-16 unit or code point, biased towards the characters that break parsers, encoders and stores. */
const hostileChar: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), weight: 6 },
  { arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)), weight: 1 },
  { arbitrary: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)), weight: 1 },
  { arbitrary: fc.constantFrom('"', '\\', '/', '\u2028', '\u202e', '\ufeff', '\ufffd', '\u{1f600}', 'e\u0301'), weight: 1 },
);

export const hostileString = (maxLength = 24): fc.Arbitrary<string> => fc.string({ unit: hostileChar, maxLength });

/** A JSON string literal: escaped by JSON.stringify (lone surrogates become \udxxx escapes), or hand-escaped. */
function stringLiteral(vocab: Vocabulary): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...vocab.strings).map((s) => JSON.stringify(s)), weight: 4 },
    { arbitrary: hostileString().map((s) => JSON.stringify(s)), weight: 4 },
    { arbitrary: fc.constantFrom('"\\ud800"', '"\\udc00\\ud800"', '"\\u0000"', '"a\\u0000b"', '"\\uD83D\\uDE00"', '"\\/"', '"\\u00e9"'), weight: 1 },
  );
}

/** A 300-450 digit integer: finite for a parser that keeps digits, Infinity for JSON.parse. */
const hugeInteger = fc
  .tuple(fc.integer({ min: 1, max: 9 }), fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 299, maxLength: 450 }), fc.boolean())
  .map(([first, rest, negative]) => `${negative ? '-' : ''}${first}${rest.join('')}`);

/** Numbers a JSON parser reads but a store cannot keep: non-finite after parsing, or outside DynamoDB's range. */
export const unstorableNumber: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('1e999', '-1e999', '1E+400', '2e308', '1e126', '-1.5e200', '1e-131', '-3.8758587373404317e-143', '5e-324'),
  hugeInteger,
);

/** Finite, in-range numbers that are not exact in a double or beyond 2^53 (the SDK's marshaller refuses those). */
export const impreciseNumber: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '9007199254740993',
    '-9007199254740993',
    '18446744073709551616',
    '1e20',
    '1.5e100',
    '9.99e125',
    '0.1234567890123456789012345678901234567890',
    '1e-129',
  ),
  fc
    .tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 16, max: 125 }), fc.boolean())
    .map(([d, n, scientific]) => (scientific ? `${d}e${n}` : `${d}${'0'.repeat(n)}`)),
);

/** The numbers at the edges of what can be parsed, represented and stored. */
export const edgeNumber: fc.Arbitrary<string> = fc.oneof(impreciseNumber, unstorableNumber);

/** Number literals: small and large integers, doubles, boundaries, and the edge numbers above. */
export const numberLiteral: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.integer().map(String), weight: 3 },
  { arbitrary: fc.integer({ min: -3, max: 1002 }).map(String), weight: 3 },
  { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)), weight: 2 },
  { arbitrary: fc.constantFrom('-0', '0.0', '1.0', '0.5', '1e2', '100', '101', '255', '256', '1000', '1001'), weight: 2 },
  { arbitrary: edgeNumber, weight: 2 },
);

/** Tokens no JSON parser may accept: bad numbers, raw control characters in strings, bad escapes, JS literals. */
const INVALID_TOKENS = [
  'NaN',
  'Infinity',
  '-Infinity',
  '01',
  '+1',
  '.5',
  '1.',
  '0x10',
  '1e',
  '--1',
  'undefined',
  "'a'",
  '"\u0000"',
  '"a\nb"',
  '"\\x41"',
  '"\\u12"',
  '"\\',
];

const literal = (vocab: Vocabulary): fc.Arbitrary<string> =>
  fc.oneof(
    { arbitrary: fc.constantFrom('null', 'true', 'false'), weight: 2 },
    { arbitrary: numberLiteral, weight: 3 },
    { arbitrary: stringLiteral(vocab), weight: 4 },
  );

const keyLiteral = (vocab: Vocabulary): fc.Arbitrary<string> =>
  fc.oneof({ arbitrary: fc.constantFrom(...vocab.keys).map((k) => JSON.stringify(k)), weight: 5 }, { arbitrary: stringLiteral(vocab), weight: 1 });

const ws = fc.constantFrom('', '', '', ' ', '\n', '\t', '\r\n  ');

/**
 * Any JSON value as raw text, built token by token so it can hold what JSON.stringify never writes:
 * duplicate keys, 1e999 and 400-digit integers, escaped lone surrogates.
 */
export function jsonValueText(vocab: Vocabulary, maxDepth = 5): fc.Arbitrary<string> {
  const { value } = fc.letrec<{ value: string; array: string; object: string }>((tie) => ({
    value: fc.oneof({ depthSize: 'small', maxDepth, withCrossShrink: true }, literal(vocab), tie('array'), tie('object')),
    array: fc.tuple(fc.array(tie('value'), { maxLength: 5 }), ws).map(([items, w]) => `[${w}${items.join(`,${w}`)}]`),
    object: fc
      .tuple(fc.array(fc.tuple(keyLiteral(vocab), tie('value')), { maxLength: 6 }), fc.option(fc.nat(), { nil: undefined }), ws)
      .map(([entries, dup, w]) => {
        // A duplicate of one key, later in the text: JSON.parse keeps the last, other parsers the first.
        if (dup !== undefined && entries.length) entries = [...entries, [entries[dup % entries.length][0], 'null']];
        return `{${w}${entries.map(([k, v]) => `${k}:${w}${v}`).join(`,${w}`)}}`;
      }),
  }));
  return value;
}

/** A JSON object as raw text (what most routes want, so most generated bodies get past the object check). */
export function jsonObjectText(vocab: Vocabulary): fc.Arbitrary<string> {
  return fc
    .tuple(fc.array(fc.tuple(keyLiteral(vocab), jsonValueText(vocab, 4)), { maxLength: 8 }), fc.option(fc.nat(), { nil: undefined }))
    .map(([entries, dup]) => {
      if (dup !== undefined && entries.length) entries = [...entries, [entries[dup % entries.length][0], '"dup"']];
      return `{${entries.map(([k, v]) => `${k}:${v}`).join(',')}}`;
    });
}

/** Nesting around the depth limits (32 levels, 128 for traces) and far beyond, as arrays or objects, closed or not. */
export const deepText: fc.Arbitrary<string> = fc
  .tuple(
    fc.oneof(fc.integer({ min: 20, max: 5000 }), fc.integer({ min: 29, max: 34 }), fc.integer({ min: 125, max: 130 }), fc.constant(100_000)),
    fc.constantFrom('[', '{"a":', '{"steps":['),
    fc.boolean(),
  )
  .map(([n, open, closed]) => {
    const close = open === '[' ? ']' : open === '{"a":' ? '}' : ']}';
    return `{"name":"deep","x":${open.repeat(n)}1${closed ? close.repeat(n) : ''}}`;
  });

/** A UUID v4 made from a number: thousands of distinct ids without generating each one. */
const indexUuid = (i: number) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;

/** Objects with thousands of keys, and thousands-long arrays (of ids, steps or numbers) under an API field name. */
export function wideText(vocab: Vocabulary): fc.Arbitrary<string> {
  const item = fc.constantFrom<(i: number) => string>(
    (i) => JSON.stringify(indexUuid(i)),
    () => '{"role":"user","content":"x"}',
    (i) => String(i),
    () => '"*"',
  );
  return fc.oneof(
    fc.integer({ min: 100, max: 5000 }).map((n) => `{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}`),
    fc
      .tuple(fc.constantFrom(...vocab.keys), fc.constantFrom(50, 51, 100, 101, 128, 129, 256, 257, 999, 1000, 1001, 2000, 2001, 5000), item)
      .map(([key, n, make]) => `{${JSON.stringify(key)}:[${Array.from({ length: n }, (_, i) => make(i)).join(',')}]}`),
  );
}

/** A body just under or over the default body limit, counted in bytes of multi-byte characters or not. */
export const limitText: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: -64, max: 64 }), fc.constantFrom('a', '\u00e9', '\u{1f600}'))
  .map(([delta, ch]) => {
    const overhead = '{"name":""}'.length;
    const bytes = DEFAULT_BODY_LIMIT + delta - overhead;
    return `{"name":"${ch.repeat(Math.max(0, Math.floor(bytes / Buffer.byteLength(ch))))}"}`;
  });

/** Text that is not JSON at all, or JSON broken at some point. */
export function malformedText(vocab: Vocabulary): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      '',
      ' ',
      '\ufeff{}',
      '{',
      '}',
      '{"a":}',
      '{"a" 1}',
      "{'a':1}",
      '{a:1}',
      '[1,]',
      '{"a":1,}',
      '{}{}',
      '{} x',
      '\u0000',
      'undefined',
      '<html></html>',
      'a=1&b=2',
    ),
    fc.tuple(jsonObjectText(vocab), fc.nat()).map(([t, cut]) => t.slice(0, cut % Math.max(1, t.length))),
    // One invalid token in place of the first value of an otherwise valid object.
    fc
      .tuple(jsonObjectText(vocab), fc.constantFrom(...INVALID_TOKENS))
      .map(([t, bad]) => (t === '{}' ? `{"name":${bad}}` : t.replace(/:(null|true|false|-?\d[\d.eE+-]*|"(?:[^"\\]|\\.)*")/, () => `:${bad}`))),
    hostileString(64),
  );
}

/** Bytes that are not UTF-8 (the gateway decodes them to U+FFFD), wrapped in JSON or not. */
export const invalidUtf8: fc.Arbitrary<Uint8Array> = fc
  .tuple(fc.uint8Array({ minLength: 1, maxLength: 32 }), fc.boolean())
  .map(([bytes, wrapped]) =>
    wrapped ? Buffer.concat([Buffer.from('{"name":"'), Buffer.from(bytes), Buffer.from('","steps":[]}')]) : Buffer.from(bytes),
  );

/** Every kind of request body: any top-level JSON value (objects favoured), deep, wide, at the limit, broken, not UTF-8. */
export function rawBody(vocab: Vocabulary): fc.Arbitrary<string | Uint8Array> {
  return fc.oneof(
    { arbitrary: jsonObjectText(vocab), weight: 8 },
    { arbitrary: jsonValueText(vocab), weight: 4 },
    { arbitrary: deepText, weight: 1 },
    { arbitrary: wideText(vocab), weight: 1 },
    { arbitrary: limitText, weight: 1 },
    { arbitrary: malformedText(vocab), weight: 2 },
    { arbitrary: invalidUtf8, weight: 1 },
  );
}

// ---------------------------------------------------------------- mutations of valid bodies

/**
 * One change to a valid body: follow `choices` down the tree (`depth` levels at most) and replace the value there
 * with raw JSON text, delete it, or add a key next to it. The same mutation applies to any template.
 */
export interface BodyMutation {
  choices: number[];
  depth: number;
  op: 'replace' | 'delete' | 'add';
  key: string;
  text: string;
}

export function bodyMutation(vocab: Vocabulary): fc.Arbitrary<BodyMutation> {
  return fc.record({
    choices: fc.array(fc.nat(), { minLength: 8, maxLength: 8 }),
    depth: fc.integer({ min: 1, max: 8 }),
    op: fc.constantFrom('replace', 'replace', 'replace', 'delete', 'add'),
    key: fc.oneof(fc.constantFrom(...vocab.keys), hostileString(8)),
    text: fc.oneof(
      { arbitrary: jsonValueText(vocab, 3), weight: 5 },
      { arbitrary: numberLiteral, weight: 2 },
      { arbitrary: edgeNumber, weight: 2 },
      { arbitrary: deepText, weight: 1 },
      { arbitrary: wideText(vocab), weight: 1 },
    ),
  });
}

/** Sets an own property, even one named `__proto__` (plain assignment would change the prototype instead). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Applies a mutation to a JSON-compatible template; returns the raw body text. */
export function applyMutation(template: unknown, m: BodyMutation): string {
  const slotValue = '@@fuzz-slot-9b1e@@';
  const root = structuredClone(template) as unknown;
  let parent: Record<string, unknown> | unknown[] | undefined;
  let key: string | number | undefined;
  let node = root;
  for (let level = 0; level < m.depth; level++) {
    if (node === null || typeof node !== 'object') break;
    const children: (string | number)[] = Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
    if (children.length === 0) break;
    parent = node as Record<string, unknown>;
    key = children[m.choices[level] % children.length];
    node = (parent as Record<string | number, unknown>)[key];
  }
  if (parent === undefined || key === undefined) {
    // The template itself is a leaf or empty: the mutation becomes the whole body, or one key in it.
    if (m.op === 'add' && root && typeof root === 'object' && !Array.isArray(root)) setOwn(root as Record<string, unknown>, m.key, slotValue);
    else return m.text;
  } else if (m.op === 'delete') {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key as string];
    return JSON.stringify(root);
  } else if (m.op === 'add' && !Array.isArray(parent)) {
    setOwn(parent, m.key, slotValue);
  } else {
    (parent as Record<string | number, unknown>)[key] = slotValue;
  }
  return JSON.stringify(root).replace(JSON.stringify(slotValue), () => m.text);
}

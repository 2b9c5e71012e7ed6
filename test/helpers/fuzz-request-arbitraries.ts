// fast-check generators of hostile request lines and headers: path ids, query strings, header values, content types,
// Idempotency-Keys and credentials. The body generators are in fuzz-arbitraries.ts.
import * as fc from 'fast-check';
import { hostileString, jsonValueText, type Vocabulary } from './fuzz-arbitraries';

/** Percent-encodes every byte outside the unreserved set (so the segment survives URL parsing as sent). */
export function percentEncode(value: string | Uint8Array): string {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value);
  let out = '';
  for (const b of bytes) {
    const c = String.fromCharCode(b);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

const urlSafeChar = fc.constantFrom(..."abcdefABCDEF0123456789-._~!$&'()*+,;=:@%".split(''));

/**
 * Node's HTTP parser refuses a request line plus headers over 16 KiB before any handler runs; `oversize` inputs go
 * beyond it (see FuzzOptions.oversize).
 */
export const HEADER_LIMIT_BYTES = 16 * 1024;
const oversized = fc.integer({ min: HEADER_LIMIT_BYTES + 1, max: HEADER_LIMIT_BYTES + 4096 });

/** A path segment for a `{param}`: real ids first, then ids of the wrong shape, length or encoding. */
export function pathSegment(knownIds: string[], opts: { oversize?: boolean } = {}): fc.Arbitrary<string> {
  const arbs: fc.WeightedArbitrary<string>[] = [
    { arbitrary: fc.uuid({ version: 4 }), weight: 2 },
    { arbitrary: fc.uuid({ version: 4 }).map((u) => u.toUpperCase()), weight: 1 },
    { arbitrary: fc.uuid().map((u) => u.replace(/-/g, '')), weight: 1 },
    { arbitrary: fc.stringMatching(/^wh_[a-z0-9]{24}$/), weight: 1 },
    { arbitrary: fc.string({ unit: urlSafeChar, minLength: 1, maxLength: 40 }), weight: 2 },
    { arbitrary: fc.integer({ min: 37, max: 4000 }).map((n) => 'a'.repeat(n)), weight: 1 },
    {
      arbitrary: hostileString(40)
        .filter((s) => s.length > 0)
        .map((element) => percentEncode(element)),
      weight: 2,
    },
    { arbitrary: fc.uint8Array({ minLength: 1, maxLength: 24 }).map((element) => percentEncode(element)), weight: 1 },
    {
      arbitrary: fc.constantFrom(
        '%',
        '%z',
        '%zz',
        '%00',
        '%2F',
        '%2e%2e',
        '%ED%A0%80',
        '%E0%A4%A',
        '%C0%AF',
        '..%2F..%2Fetc',
        '%20',
        '+',
        'null',
        'undefined',
        '0',
        '-1',
      ),
      weight: 2,
    },
  ];
  if (opts.oversize) arbs.push({ arbitrary: oversized.map((n) => 'a'.repeat(n)), weight: 1 });
  if (knownIds.length) {
    const known = fc.constantFrom(...knownIds);
    arbs.push(
      { arbitrary: known, weight: 6 },
      { arbitrary: known.map((id) => id.toUpperCase()), weight: 1 },
      { arbitrary: known.map((id) => percentEncode(id).replace(/-/g, '%2D')), weight: 1 },
      { arbitrary: fc.tuple(known, fc.constantFrom('%20', '%00', '.', 'x', '%2F', ';a=b')).map(([id, tail]) => id + tail), weight: 1 },
    );
  }
  return fc.oneof(...arbs);
}

/** Query parameter names that some route reads, plus odd ones. */
const QUERY_KEYS = ['limit', 'cursor', 'status', 'campaign_id', 'trace_id', 'run_id', 'Limit', 'limit[]', 'cursor ', ''];

/** A query string (without `?`): limits, cursors (real ones, tampered ones, forged ones), filters and garbage. */
export function queryString(opts: { ids: string[]; cursors: string[]; vocab: Vocabulary; oversize?: boolean }): fc.Arbitrary<string> {
  const limit = fc.oneof(
    fc.integer({ min: -2, max: 102 }).map(String),
    fc.constantFrom(
      '',
      '0',
      '1',
      '100',
      '101',
      '1e2',
      '1.0',
      '+5',
      ' 5',
      '5 ',
      '0x10',
      '\u0663',
      '\uff11',
      'NaN',
      'Infinity',
      '-0',
      '00050',
      '9'.repeat(400),
    ),
  );
  const cursorArbs: fc.Arbitrary<string>[] = [
    fc.constantFrom('', '.', '..', 'a.b.c', 'eyJ9.AAAA', 'null'),
    fc
      .tuple(jsonValueText(opts.vocab, 2), fc.string({ unit: urlSafeChar, maxLength: 40 }))
      .map(([j, mac]) => `${Buffer.from(j).toString('base64url')}.${mac}`),
    hostileString(40),
  ];
  if (opts.oversize) cursorArbs.push(oversized.map((n) => 'A'.repeat(n)));
  if (opts.cursors.length) {
    const real = fc.constantFrom(...opts.cursors);
    cursorArbs.push(
      real,
      real,
      fc.tuple(real, fc.nat()).map(([c, i]) => {
        const at = i % c.length;
        return c.slice(0, at) + (c[at] === 'A' ? 'B' : 'A') + c.slice(at + 1);
      }),
      real.map((c) => `${c.split('.')[0]}.`),
    );
  }
  const ids = opts.ids.length ? fc.oneof(fc.constantFrom(...opts.ids), fc.uuid({ version: 4 }), hostileString(12)) : fc.uuid({ version: 4 });
  const valueFor = (key: string): fc.Arbitrary<string> =>
    key.startsWith('limit') || key === 'Limit'
      ? limit
      : key.startsWith('cursor')
        ? fc.oneof(...cursorArbs)
        : key === 'status'
          ? fc.oneof(
              fc.constantFrom(...opts.vocab.strings.slice(0, 40), 'queued', 'running', 'completed', 'failed', 'QUEUED', 'all'),
              hostileString(8),
            )
          : ids;
  const pair = fc
    .oneof(fc.constantFrom(...QUERY_KEYS), hostileString(6))
    .chain((key) =>
      fc
        .tuple(fc.constant(key), valueFor(key), fc.boolean())
        .map(([k, v, raw]) => (raw && /^[\w.~-]*$/.test(v) ? `${percentEncode(k)}=${v}` : `${percentEncode(k)}=${percentEncode(v)}`)),
    );
  return fc.oneof(
    { arbitrary: fc.array(pair, { maxLength: 4 }).map((pairs) => pairs.join('&')), weight: 8 },
    {
      arbitrary: fc.constantFrom('', '&', '&&=&', '=', 'limit', 'limit=', 'limit=1&limit=2', 'cursor=%', 'limit=%zz', 'limit=1%00', '%ff%fe=1'),
      weight: 2,
    },
  );
}

/** Header values fetch can send: TAB, visible ASCII, space, obs-text; no CR, LF or NUL. */
const headerChar = fc.oneof(
  { arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), weight: 8 },
  { arbitrary: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)), weight: 1 },
  { arbitrary: fc.constant('\t'), weight: 1 },
);
export const headerValue = (minLength = 0, maxLength = 64): fc.Arbitrary<string> => fc.string({ unit: headerChar, minLength, maxLength });

/** Content types: the JSON ones the API accepts, near misses, and garbage; undefined sends none. */
export const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  {
    arbitrary: fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'application/json;charset=UTF-16',
      'APPLICATION/JSON',
      ' application/json ',
      'application/vnd.api+json',
      'application/problem+json',
      'application/json, text/plain',
      'application/jsonx',
      'application/json;;;',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'text/plain',
      'text/json',
      '*/*',
      ';',
      '',
    ),
    weight: 6,
  },
  { arbitrary: headerValue(), weight: 2 },
  { arbitrary: fc.constant(undefined), weight: 1 },
);

/** Idempotency-Key values: absent, empty, 1-255 characters, over the limit, and keys already used by someone. */
export function idempotencyKey(knownKeys: string[] = [], opts: { oversize?: boolean } = {}): fc.Arbitrary<string | undefined> {
  const arbs: fc.WeightedArbitrary<string | undefined>[] = [
    { arbitrary: fc.constant(undefined), weight: 4 },
    { arbitrary: headerValue(1, 40), weight: 3 },
    { arbitrary: fc.constantFrom('', ' ', 'a', 'k'.repeat(255), 'k'.repeat(256), '\u00ff'.repeat(255), 'é'), weight: 2 },
    { arbitrary: fc.integer({ min: 200, max: 2000 }).chain((n) => headerValue(n, n)), weight: 1 },
  ];
  if (knownKeys.length) arbs.push({ arbitrary: fc.constantFrom(...knownKeys), weight: 2 });
  if (opts.oversize) arbs.push({ arbitrary: oversized.map((n) => 'k'.repeat(n)), weight: 1 });
  return fc.oneof(...arbs);
}

/** An API key or project id header value: the real ones, near misses, and garbage; undefined sends none. */
export function credentialValue(real: string[], shape: 'key' | 'project'): fc.Arbitrary<string | undefined> {
  const one = fc.constantFrom(...real);
  return fc.oneof(
    { arbitrary: one, weight: 6 },
    { arbitrary: fc.constant(undefined), weight: 1 },
    { arbitrary: one.map((v) => v.toUpperCase()), weight: 1 },
    {
      arbitrary: fc
        .tuple(one, fc.nat())
        .map(([v, i]) => v.slice(0, i % v.length) + (v[i % v.length] === 'a' ? 'b' : 'a') + v.slice((i % v.length) + 1)),
      weight: 1,
    },
    { arbitrary: one.map((v) => `${v}, ${v}`), weight: 1 },
    { arbitrary: shape === 'key' ? fc.stringMatching(/^rts_[A-Za-z0-9]{40}$/) : fc.uuid({ version: 4 }), weight: 1 },
    { arbitrary: headerValue(0, 80), weight: 2 },
  );
}

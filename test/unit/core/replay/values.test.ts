import { canonicalJson } from '../../../../functions/core/json';
import { uuidSeries } from '../../../../functions/core/replay/hash';
import { canonical, getPath, isSubset } from '../../../../functions/core/replay/values';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('canonical JSON of tool arguments', () => {
  it.each([
    [{ b: 1, a: { d: [3, { z: 1, y: null }], c: 'x' } }],
    [{ u: undefined, s: 'quote " and \\ and \n', n: -0.5, big: 1e21, t: true, f: false }],
    [[1, undefined, 'a', { k: undefined }]],
    [{ nested: { date: new Date(0) } }],
    [{}],
    ['plain'],
  ])('is byte-identical to core canonicalJson for %p', (value) => {
    expect(canonical(value)).toBe(canonicalJson(value));
  });
});

describe('dotted paths and subsets', () => {
  it('reads nested keys and array indexes, and reports absent ones', () => {
    const v = { a: { b: [{ c: 5 }] } };
    expect(getPath(v, 'a.b.0.c')).toEqual({ found: true, value: 5 });
    expect(getPath(v, 'a.b.1.c')).toEqual({ found: false });
    expect(getPath(v, 'a.x')).toEqual({ found: false });
  });

  it('matches nested subsets and compares arrays whole', () => {
    expect(isSubset({ a: { b: 1 } }, { a: { b: 1, c: 2 }, d: 3 })).toBe(true);
    expect(isSubset({ a: [1, 2] }, { a: [1, 2] })).toBe(true);
    expect(isSubset({ a: [1] }, { a: [1, 2] })).toBe(false);
    expect(isSubset({ a: 1 }, { a: '1' })).toBe(false);
  });
});

describe('event id series', () => {
  it('gives deterministic, distinct UUID v4-shaped ids per sequence and per seed', () => {
    // Prepare
    const a = uuidSeries('run:1:policy');
    const again = uuidSeries('run:1:policy');
    const other = uuidSeries('run:2:policy');
    // Act
    const ids = Array.from({ length: 5000 }, (_, i) => a(i + 1));
    // Assess
    expect(ids.filter((id) => !UUID_V4.test(id))).toEqual([]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(again(7)).toBe(ids[6]);
    expect(other(7)).not.toBe(ids[6]);
  });
});

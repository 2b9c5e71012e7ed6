// The fuzz harness adopts an id the own project wrote into its own data, never one it referred to (test/helpers/fuzz-own-data.ts).
import { ownDataStrings } from '../../helpers/fuzz-own-data';

const FOREIGN = '82244c1c-a742-4097-a8ec-5872cd2cdab8';
const has = (body: string) => ownDataStrings(body).some((s) => s.includes(FOREIGN));

describe('ownDataStrings', () => {
  it('holds ids written as data: a metadata key, a name, a nested value', () => {
    expect(has(JSON.stringify({ metadata: { [FOREIGN.toUpperCase()]: { a: 1 } } }))).toBe(true);
    expect(has(JSON.stringify({ name: `copy of ${FOREIGN}` }))).toBe(true);
    expect(has(JSON.stringify({ steps: [{ role: 'user', content: [FOREIGN] }] }))).toBe(true);
  });

  it('leaves out references: values under a key ending in _id or _ids, at any depth', () => {
    expect(has(JSON.stringify({ trace_id: FOREIGN }))).toBe(false);
    expect(has(JSON.stringify({ add_trace_ids: ['x', FOREIGN] }))).toBe(false);
    expect(has(JSON.stringify({ baseline: { Batch_ID: FOREIGN } }))).toBe(false);
    expect(has(JSON.stringify({ items: [{ trace_id: FOREIGN }] }))).toBe(false);
  });

  it('holds nothing of a body that is not JSON', () => {
    expect(ownDataStrings(`{"name": "${FOREIGN}"`)).toEqual([]);
  });
});

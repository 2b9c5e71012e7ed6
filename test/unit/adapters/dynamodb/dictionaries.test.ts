// The compression dictionaries never change once items name them: each version's text is pinned by its hash.
import { createHash } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { ATTEMPT_DICTIONARIES, MARKER_DICTIONARIES, RUN_CI_DICTIONARIES, dictionary } from '../../../../functions/adapters/dynamodb/dictionaries';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('compression dictionaries', () => {
  it('keep the text of every version items were written with', () => {
    expect(sha256(ATTEMPT_DICTIONARIES[1])).toBe('04edbc4484bc05c08559606f39865cfd466fab23c4ff928a39426cb682dc1351');
    expect(sha256(MARKER_DICTIONARIES[1])).toBe('5f96f5a665a1efff4295d06025d52be9713982ef6147c0af6d0700a82da97c27');
    expect(sha256(RUN_CI_DICTIONARIES[1])).toBe('c24f55267181950a2f623efcfc5e6f7b47a910a968a93359f1a17ebe459120ad');
  });

  it('fit deflate (a dictionary counts only within its 32 KB window)', () => {
    for (const d of [ATTEMPT_DICTIONARIES, MARKER_DICTIONARIES, RUN_CI_DICTIONARIES].flatMap((set) => Object.values(set))) {
      expect(d.length).toBeLessThanOrEqual(32 * 1024);
      expect(() => deflateRawSync(Buffer.from('{}'), { dictionary: d })).not.toThrow();
    }
  });

  it('refuse a version this code does not know, naming it', () => {
    expect(() => dictionary(ATTEMPT_DICTIONARIES, 99)).toThrow('unknown compression dictionary version 99');
    expect(() => dictionary(MARKER_DICTIONARIES, undefined)).toThrow('unknown compression dictionary version undefined');
  });
});

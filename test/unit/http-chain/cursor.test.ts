// Pagination cursors signed with the key the deps give: a round trip, and a 422 for anything another key, another
// listing or a hand signed.
import { ValidationError } from '../../../functions/core/errors';
import { decodeCursor, encodeCursor, type CursorDeps } from '../../../functions/http-chain/cursor';

/** Deps whose cursor key is `key` (replaceable: a rotation), counting the reads. */
function keyed(key: string): CursorDeps & { reads: number; rotate(next: string): void } {
  let current = Buffer.from(key, 'utf8');
  const deps = {
    reads: 0,
    rotate: (next: string) => {
      current = Buffer.from(next, 'utf8');
    },
    cursorKeys: {
      current: async () => {
        deps.reads += 1;
        return current;
      },
    },
  };
  return deps;
}

const LAST = { pk: 'P#p1#TRACE', sk: 'T#2030-01-01T00:00:00.000Z#t1' };

describe('encodeCursor / decodeCursor', () => {
  it('round-trips the store key of one listing, reading the key through the deps', async () => {
    // Prepare
    const deps = keyed('deployment-key');

    // Act
    const cursor = await encodeCursor(deps, 'traces:p1', LAST);
    const decoded = await decodeCursor(deps, 'traces:p1', cursor!);

    // Assess
    expect(decoded).toEqual(LAST);
    expect(deps.reads).toBe(2);
  });

  it('reads no key when there is nothing to sign or verify (the last page, no cursor given)', async () => {
    // Prepare
    const deps = keyed('deployment-key');

    // Act
    const [cursor, after] = [await encodeCursor(deps, 'traces:p1', undefined), await decodeCursor(deps, 'traces:p1', undefined)];

    // Assess
    expect([cursor, after]).toEqual([null, undefined]);
    expect(deps.reads).toBe(0);
  });

  it('refuses with a 422 a cursor signed with another key: another deployment, or before a rotation', async () => {
    // Prepare
    const deps = keyed('old-key');
    const cursor = (await encodeCursor(deps, 'traces:p1', LAST))!;
    deps.rotate('new-key');

    // Act
    const outcome = await decodeCursor(deps, 'traces:p1', cursor).catch((err: unknown) => err);

    // Assess
    expect(outcome).toBeInstanceOf(ValidationError);
    expect((outcome as ValidationError).status).toBe(422);
  });

  it.each([
    ['another listing', (c: string) => c, 'campaigns:p1'],
    ['another project', (c: string) => c, 'traces:p2'],
    [
      'a changed payload',
      (c: string) => `${Buffer.from(JSON.stringify({ s: 'traces:p1', k: { pk: 'P#p2' } })).toString('base64url')}.${c.split('.')[1]}`,
      'traces:p1',
    ],
    ['a truncated signature', (c: string) => c.slice(0, -1), 'traces:p1'],
    ['an extra part', (c: string) => `${c}.x`, 'traces:p1'],
  ])('refuses with a 422 a cursor from %s', async (_what, change, scope) => {
    // Prepare
    const deps = keyed('deployment-key');
    const cursor = change((await encodeCursor(deps, 'traces:p1', LAST))!);

    // Act
    const outcome = await decodeCursor(deps, scope, cursor).catch((err: unknown) => err);

    // Assess
    expect(outcome).toBeInstanceOf(ValidationError);
  });

  it('fails, signing nothing, when the key cannot be read', async () => {
    // Prepare
    const deps: CursorDeps = { cursorKeys: { current: () => Promise.reject(new Error('reading secret failed')) } };

    // Act
    const outcome = await encodeCursor(deps, 'traces:p1', LAST).catch((err: Error) => err.message);

    // Assess
    expect(outcome).toBe('reading secret failed');
  });
});

// The request schemas' zod/mini speaks English on its own: Lambda bundles load no classic zod, which would set it.
import * as z from '../../../../functions/core/openapi/zod-mini';

describe('zod/mini as the request schemas use it', () => {
  it("answers with zod's English messages without classic zod loaded", () => {
    // Act
    const r = z.object({ name: z.string().check(z.maxLength(3)), n: z.number() }).safeParse({ name: 'long', n: 'x' });

    // Assess
    expect(Object.keys(require.cache).some((f) => /[\\/]zod[\\/]v4[\\/]classic[\\/]/.test(f))).toBe(false);
    expect(r.error?.issues.map((i) => i.message)).toEqual([
      'Too big: expected string to have <=3 characters',
      'Invalid input: expected number, received string',
    ]);
  });
});

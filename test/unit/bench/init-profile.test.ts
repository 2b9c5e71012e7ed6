// The cold-init profile of the bundle benchmark: a bundle's require() time, summed by the package whose code ran.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import { REPO_ROOT } from '../../../lib/constructs/bundling';
import { formatProfile, profileInit } from '../../bench/init-profile';

// A module that does measurable work at load: builds many zod/mini schemas, in a package of its own.
const SOURCE = `
import * as z from 'zod/mini';
const schemas = [];
for (let i = 0; i < 3000; i++) schemas.push(z.object({ a: z.string().check(z.maxLength(i + 1)), b: z.optional(z.number()) }));
export const count = schemas.length;
`;

describe('profileInit', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rts-init-profile-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('sums the cold require by the package whose code ran, largest first', () => {
    // Prepare: an unminified bundle, as the benchmark profiles
    const file = path.join(dir, 'index.js');
    buildSync({
      bundle: true,
      platform: 'node',
      format: 'cjs',
      stdin: { contents: SOURCE, resolveDir: REPO_ROOT, loader: 'ts' },
      outfile: file,
      logLevel: 'silent',
    });

    // Act
    const profile = profileInit(file, { PATH: process.env.PATH }, 2);

    // Assess
    expect(profile.totalMs).toBeGreaterThan(0);
    expect(profile.groups[0].name).toBe('zod');
    expect(profile.groups.reduce((a, g) => a + g.ms, 0)).toBeCloseTo(profile.totalMs, 5);
    expect(formatProfile('probe', profile)).toMatch(/^probe: [\d.]+ ms sampled in its cold require\(\)\n +[\d.]+ ms +\d+ % {2}zod/);
  }, 60_000);
});

// A test fixture (or a function) bundled as `cdk synth` bundles a function (lib/constructs/bundling.ts), in a temporary
// folder that lives for one describe block: for the tests that run a bundle in fresh Node processes (stack traces, lazy
// built-ins, the first request, the logger's streams).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { buildBundles } from '../../lib/constructs/bundling';

export interface FixtureBundle {
  /** The folder holding the bundle (and `files`), removed after the block. */
  dir: string;
  /** The bundle's `index.js`. */
  bundle: string;
}

/**
 * Registers the block's beforeAll (bundling `fixture`, a repo-relative module path, and writing `files`, name -> text,
 * beside it) and afterAll (removing the folder); the returned object is filled in by beforeAll.
 */
export function useFixtureBundle(fixture: string, prefix: string, files: Record<string, string> = {}): FixtureBundle {
  const built = { dir: '', bundle: '' };
  beforeAll(() => {
    built.dir = mkdtempSync(path.join(tmpdir(), `rts-${prefix}-`));
    built.bundle = path.join(buildBundles([fixture], built.dir).get(fixture)!, 'index.js');
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(built.dir, name), text);
  }, 120_000);
  afterAll(() => built.dir && rmSync(built.dir, { recursive: true, force: true }));
  return built;
}

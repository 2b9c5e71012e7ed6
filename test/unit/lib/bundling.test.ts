// Lambda bundling: each function carries the repositories its code reads and the clients its route row names, and no
// others, wired before its handler runs.
import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { REPO_ROOT, entryFile, entryPoints, esbuildOptions, reposRead, reposReadBy, wiringOf } from '../../../lib/constructs/bundling';
import { REPO_NAMES } from '../../../functions/wiring/deps';
import { routes } from '../../../lib/routes';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { plugins } = require('../../../lib/constructs/esbuild-run.js') as { plugins: import('esbuild').Plugin[] };

const FIXTURE = 'test/fixtures/bundling/reads-by-name';

/** The bundles of `entries` as buildBundles makes them, with esbuild's record of what each holds. */
async function bundle(entries: string[], outdir: string): Promise<Metafile> {
  const repos = reposRead(entries);
  const { metafile } = await build({
    ...esbuildOptions(),
    sourcemap: false,
    metafile: true,
    plugins,
    outdir,
    entryPoints: entryPoints(entries, repos),
  });
  return metafile;
}

/** The source files of which an entry's bundle keeps at least `minBytes`. */
const inputsOf = (metafile: Metafile, entry: string, minBytes = 1) =>
  Object.entries(Object.entries(metafile.outputs).find(([file]) => file.endsWith(`${entry}/index.js`))![1].inputs)
    .filter(([, input]) => input.bytesInOutput >= minBytes)
    .map(([file]) => file);

describe('reposReadBy', () => {
  it.each([
    ['a property read', 'return t.runs.get(e)', ['runs']],
    ['an optional read', 'e.judgeCache?.get(k)', ['judgeCache']],
    ['a destructuring', 'let{runs:n,events:r}=t;', ['runs']],
    ['a computed read with a literal', 't["batches"].list()', ['batches']],
    ['an object literal key (as deps are overridden)', '{...t,runs:o(t.x)}', ['runs']],
    ['the list of names (quoted)', 'var R=["projects","traces","campaigns","runs"];', []],
    ['a longer name and a path', 'e.runsCount;fetch("/v1/runs")', []],
  ])('finds %s', (_name, code, expected) => {
    expect(reposReadBy(code)).toEqual(expected);
  });

  it('knows every repository of Deps', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    expect([...REPO_NAMES].sort()).toEqual(Object.keys(require('../../../functions/wiring/repos')).sort());
  });
});

describe('reposRead', () => {
  it('finds what each function reads: the run view reads runs and campaigns, the authorizer projects, the dashboard nothing', () => {
    // Act
    const read = reposRead([
      'functions/http/get-run',
      'functions/http/authorizer',
      'functions/dashboard/handler',
      'functions/events/webhook-delivery',
    ]);

    // Assess
    expect(read.get('functions/http/get-run')!.sort()).toEqual(['campaigns', 'idempotency', 'runs']);
    expect(read.get('functions/http/authorizer')).toEqual(['projects']);
    expect(read.get('functions/dashboard/handler')).toEqual([]);
    expect(read.get('functions/events/webhook-delivery')).toEqual(['webhooks', 'deliveryLog']);
  });

  it('wires the cursor key into exactly the list routes, the functions the stack lets read its secret', () => {
    // Act
    const read = reposRead(routes.map((r) => `functions/http/${r.handler}`));

    // Assess
    const withKey = routes.filter((r) => read.get(`functions/http/${r.handler}`)!.includes('cursorKeys'));
    expect(withKey.map((r) => r.handler).sort()).toEqual(
      routes
        .filter((r) => r.list)
        .map((r) => r.handler)
        .sort(),
    );
  });
});

describe('wiringOf', () => {
  it("wires a route's adapters from its row and none for the other functions, which import their own", () => {
    expect(wiringOf('functions/http/post-runs')).toEqual(['queue', 'bus']);
    expect(wiringOf('functions/http/post-campaigns')).toEqual(['bus']);
    expect(wiringOf('functions/http/get-run')).toEqual([]);
    expect(wiringOf('functions/workers/replay-worker')).toEqual([]);
  });
});

describe('bundles', () => {
  let outdir: string;
  let metafile: Metafile;
  const entries = ['functions/http/get-run', 'functions/http/post-webhooks', 'functions/http/post-runs', 'functions/http/post-campaigns', FIXTURE];
  beforeAll(async () => {
    outdir = mkdtempSync(path.join(tmpdir(), 'rts-bundling-'));
    metafile = await bundle(entries, outdir);
  }, 120_000);
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('carry the repositories the function reads and not the others', () => {
    // A few bytes of a module's constants esbuild cannot prove unused do not count: its code is what weighs.
    const repos = inputsOf(metafile, 'functions/http/get-run', 100).filter((f) => /adapters\/dynamodb\/.*-repo\.ts$/.test(f));

    expect(repos.map((f) => path.basename(f)).sort()).toEqual(['campaigns-repo.ts', 'idempotency-repo.ts', 'runs-repo.ts']);
  });

  it.each([
    ['functions/http/post-runs', ['eventbridge-publisher.ts', 'sqs-queue.ts']],
    ['functions/http/post-campaigns', ['eventbridge-publisher.ts']],
    ['functions/http/get-run', []],
  ])('carry the queue and bus clients their row names and no other: %s', (entry, expected) => {
    const clients = inputsOf(metafile, entry, 100).filter((f) => /adapters\/(sqs|eventbridge|http)\//.test(f));

    expect(clients.map((f) => path.basename(f)).sort()).toEqual(expected);
  });

  it.each(['functions/http/get-run', 'functions/http/post-runs'])(
    'take their AWS credentials from the environment only, without the SDK default chain (SSO, ini files, metadata): %s',
    (entry) => {
      const providers = inputsOf(metafile, entry).filter((f) => /credential-provider|lambda-credentials/.test(f));

      expect(
        providers.filter((f) => /credential-provider-(node|ini|sso|process|web-identity|http|imds)|@smithy\/credential-provider-imds/.test(f)),
      ).toEqual([]);
      expect(providers).toContain('functions/adapters/lambda-credentials.ts');
      expect(providers.some((f) => f.includes('@aws-sdk/credential-provider-env/'))).toBe(true);
    },
  );

  it('hold no code of ours that the analysis did not see, but the repositories they wire', async () => {
    // Prepare: the analysis build (reposRead's: each entry and the adapter modules its row wires), with its record
    const checked = ['functions/http/get-run', 'functions/http/post-runs'];
    const modules = [...checked, 'functions/wiring/with-queue', 'functions/wiring/with-bus'];
    const { metafile: analysed } = await build({
      ...esbuildOptions(),
      packages: 'external',
      sourcemap: false,
      write: false,
      metafile: true,
      outdir: path.join(outdir, 'analysis'),
      entryPoints: Object.fromEntries(modules.map((e) => [`${e}/index`, entryFile(e)])),
    });
    const ours = (files: string[]) => files.filter((f) => f.startsWith('functions/') && !f.startsWith('functions/adapters/'));

    // Assess: so no read of a repository can hide in code the analysis did not scan
    for (const entry of checked) {
      const seen = new Set([entry, ...wiringOf(entry).map((kind) => `functions/wiring/with-${kind}`)].flatMap((m) => ours(inputsOf(analysed, m))));
      expect(ours(inputsOf(metafile, entry)).filter((f) => !seen.has(f) && f !== 'functions/wiring/repos.ts')).toEqual([]);
    }
  });

  it('validate with zod/mini only: a handler bundles neither classic zod nor the OpenAPI generator', () => {
    const inputs = inputsOf(metafile, 'functions/http/post-webhooks');

    expect(inputs.filter((f) => f.includes('node_modules/zod/v4/mini/'))).not.toEqual([]);
    expect(inputs.filter((f) => /node_modules\/(zod\/v4\/classic|@asteasolutions)\//.test(f))).toEqual([]);
  });

  it('fail naming the repository when the code reaches one bundling did not see it read', async () => {
    // Prepare
    const file = path.join(outdir, FIXTURE, 'index.js');
    expect(readFileSync(file, 'utf8')).not.toMatch(/DynamoBatchesRepo|batches-repo/);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { handler } = require(file) as { handler: (name: string) => Promise<unknown> };

    // Act / Assess
    await expect(handler('batches')).rejects.toThrow(
      'this function has no batches repository wired: bundling found no read of deps.batches in its code',
    );
  });

  it('resolve from the repository root', () => {
    expect(esbuildOptions().absWorkingDir).toBe(REPO_ROOT);
  });
});

// Lambda bundling: each function carries the repositories its code reads and the clients its route row names, and no
// others, wired before its handler runs.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { REPO_ROOT, entryFile, entryPoints, esbuildOptions, reposRead, reposReadBy, wiringOf } from '../../../lib/constructs/bundling';
import { REPO_NAMES } from '../../../functions/wiring/deps';
import { routes } from '../../../lib/routes';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { plugins, LEFT_OUT, LAZY_BUILTINS, REQUIRED_AS_ESM } = require('../../../lib/constructs/esbuild-run.js') as {
  plugins: import('esbuild').Plugin[];
  LEFT_OUT: { name: string; file: RegExp }[];
  LAZY_BUILTINS: string[];
  REQUIRED_AS_ESM: string[];
};

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
  const entries = [
    ...['functions/http/get-run', 'functions/http/post-webhooks', 'functions/http/post-runs', 'functions/http/post-campaigns'],
    ...['functions/workers/replay-worker', 'functions/http/patch-eval-set', 'functions/http/list-ci-batches', FIXTURE],
    ...['functions/http/post-webhook-resend', 'functions/http/post-webhook-test', 'functions/http/post-webhook-recover'],
    ...['functions/http/get-health', 'functions/http/get-openapi'],
  ];
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
    const modules = [...checked, 'functions/wiring/with-queue', 'functions/wiring/with-bus', 'functions/wiring/repos'];
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

    // Assess: so no read of a repository can hide in code the analysis did not scan (the repositories themselves, and
    // the code of ours they use, such as the concurrency limiter of batch writes, read none)
    for (const entry of checked) {
      const wired = [entry, 'functions/wiring/repos', ...wiringOf(entry).map((kind) => `functions/wiring/with-${kind}`)];
      const seen = new Set(wired.flatMap((m) => ours(inputsOf(analysed, m))));
      expect(ours(inputsOf(metafile, entry)).filter((f) => !seen.has(f))).toEqual([]);
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

  it.each(['get-run', 'post-webhooks', 'post-runs', 'post-campaigns'])("carry their own route row and no other's: %s", (handler) => {
    const code = readFileSync(path.join(outdir, 'functions/http', handler, 'index.js'), 'utf8');

    const rows = routes.filter((r) => code.includes(JSON.stringify(r.summary)));
    expect(rows.map((r) => r.handler)).toEqual([handler]);
  });

  it.each(['event-streams', 'sha256-js', 'imds-region', 'endpoint-cache', 's3-endpoint-params', 'sigv4a'])(
    'carry the stubs of a module no function runs in place of it: %s',
    (name) => {
      // A function with all three clients: DynamoDB, SQS, EventBridge
      const inputs = inputsOf(metafile, 'functions/http/post-runs');
      const module = LEFT_OUT.find((m) => m.name === name)!;

      expect(inputs).toContain(`rts-left-out:${name}`);
      expect(inputs.filter((f) => module.file.test(f))).toEqual([]);
    },
  );

  it('leave out what only those modules use: the event-stream codec, CRC32, the LRU cache of endpoint discovery', () => {
    const inputs = inputsOf(metafile, 'functions/http/post-runs');

    expect(
      inputs.filter((f) => /submodules\/event-streams\/|checksum\/crc32\/|\/(mnemonist|obliterator|@aws-sdk\/endpoint-cache)\//.test(f)),
    ).toEqual([]);
  });

  it("keep the one field of the SDK clients' package.json they read, the version", () => {
    const output = Object.entries(metafile.outputs).find(([file]) => file.endsWith('functions/http/post-runs/index.js'))![1];
    const manifests = Object.entries(output.inputs).filter(([file]) => /@aws-sdk\/client-[a-z0-9-]+\/package\.json$/.test(file));

    expect(manifests).toHaveLength(3);
    for (const [, input] of manifests) expect(input.bytesInOutput).toBeLessThan(64);
  });

  it('keep no dynamic import(): each is a require(), so no built-in is loaded as ESM (bundled-first-request.test.ts)', () => {
    const dynamic = Object.entries(metafile.outputs).flatMap(([file, o]) =>
      o.imports.filter((i) => i.kind === 'dynamic-import').map((i) => [file, i.path]),
    );

    expect(Object.values(metafile.outputs).some((o) => o.imports.some((i) => i.path === 'node:http' && i.kind === 'require-call'))).toBe(true);
    expect(dynamic).toEqual([]);
  });

  it('require the built-ins of LAZY_BUILTINS from their getters alone (bundled-lazy-builtins.test.ts)', () => {
    const requiredBy = (module: string) =>
      Object.entries(metafile.inputs)
        .filter(([, input]) => input.imports.some((i) => i.path === module && i.external))
        .map(([file]) => file);

    expect(LAZY_BUILTINS).toEqual(expect.arrayContaining(['node:stream/web', 'node:module', 'node:dgram']));
    // Each with a getter for the names its importers import (middy's core, ours), not one per export of the module.
    for (const module of LAZY_BUILTINS) {
      expect(requiredBy(module)).toEqual([expect.stringMatching(new RegExp(`^rts-lazy-builtin:${module}#[A-Za-z,]+$`))]);
    }
    expect(requiredBy('node:module')).toEqual(['rts-lazy-builtin:node:module#SourceMap']);
    expect(requiredBy('node:dgram')).toEqual(['rts-lazy-builtin:node:dgram#createSocket']);
  });

  it("require Powertools' logger from functions/wiring/logger.ts alone, as the ES modules a static import would bring", () => {
    const requires = Object.entries(metafile.inputs).flatMap(([file, input]) =>
      input.imports.filter((i) => /@aws-lambda-powertools\/logger\//.test(i.path)).map((i) => [file, i.kind]),
    );

    expect(REQUIRED_AS_ESM).toEqual(['@aws-lambda-powertools/logger', '@aws-lambda-powertools/logger/middleware']);
    expect(new Set(requires.map(([file]) => file)).has('functions/wiring/logger.ts')).toBe(true);
    expect(requires.filter(([file]) => !file.includes('node_modules/')).every(([, kind]) => kind === 'require-call')).toBe(true);
    // One copy of Powertools (its ES modules, shared with metrics and batch), none of its CommonJS build.
    expect(Object.keys(metafile.inputs).filter((f) => /@aws-lambda-powertools\/[^/]+\/lib\/cjs\//.test(f))).toEqual([]);
    expect(Object.keys(metafile.inputs).some((f) => f.endsWith('@aws-lambda-powertools/logger/lib/esm/Logger.js'))).toBe(true);
  });

  it('take re2js from functions/core/replay/pattern.ts alone (the use its trimmed build is proven for), in a file beside', () => {
    const importers = Object.entries(metafile.inputs)
      .filter(([, input]) => input.imports.some((i) => /node_modules\/re2js\/|re2js\.js$/.test(i.path)))
      .map(([file, input]) => [file, input.imports.filter((i) => /re2js/.test(i.path)).map((i) => [i.path, i.kind, i.external])]);

    expect(importers).toEqual([['functions/core/replay/pattern.ts', [['./re2js.js', 'require-call', true]]]]);
    expect(Object.keys(metafile.inputs).filter((f) => f.includes('node_modules/re2js/'))).toEqual([]);
    const beside = (entry: string) => existsSync(path.join(outdir, entry, 're2js.js'));
    expect(entries.filter((e) => e !== FIXTURE && beside(e))).toEqual(['functions/http/post-campaigns', 'functions/workers/replay-worker']);
  });

  it('leave zod and the request schemas to the routes that check requests: the replay worker and get-run carry neither', () => {
    // The campaign schema module builds every schema when it loads (14 % of the worker's init when it carried it).
    for (const entry of ['functions/workers/replay-worker', 'functions/http/get-run']) {
      expect([entry, inputsOf(metafile, entry).filter((f) => /node_modules\/zod\/|core\/(campaigns|traces|ci)\/schema\.ts$/.test(f))]).toEqual([
        entry,
        [],
      ]);
    }
    expect(inputsOf(metafile, 'functions/http/post-campaigns')).toContain('functions/core/campaigns/schema.ts');
  });

  it("leave the local service's way to its embedded store out of every function", () => {
    // The DynamoDB client only holds the request handler local mode gives it; the handler's module is local mode's.
    for (const entry of entries.filter((e) => e !== FIXTURE)) {
      expect([entry, inputsOf(metafile, entry).filter((f) => /adapters\/dynamodb\/store-calls\.ts$|functions\/local\//.test(f))]).toEqual([
        entry,
        [],
      ]);
    }
    expect(inputsOf(metafile, 'functions/workers/replay-worker')).toContain('functions/adapters/dynamodb/client.ts');
  });

  it('give PATCH /v1/campaigns/{id}/eval-set the schema of its body, not the campaign format', () => {
    const inputs = inputsOf(metafile, 'functions/http/patch-eval-set');

    expect(inputs).toContain('functions/core/campaigns/eval-set-schema.ts');
    expect(inputs).not.toContain('functions/core/campaigns/schema.ts');
  });

  it('leave zod to the webhook routes that check a body: resend and test carry none, recover the schema of its body only', () => {
    // The routes under /v1/webhooks/{id} used to load the webhook schemas (and zod, 6 ms of init) for one event name.
    for (const entry of ['functions/http/post-webhook-resend', 'functions/http/post-webhook-test']) {
      expect([entry, inputsOf(metafile, entry).filter((f) => /node_modules\/zod\/|core\/webhooks\/(recover-)?schema\.ts$/.test(f))]).toEqual([
        entry,
        [],
      ]);
    }
    const recover = inputsOf(metafile, 'functions/http/post-webhook-recover');

    expect(recover).toContain('functions/core/webhooks/recover-schema.ts');
    expect(recover).not.toContain('functions/core/webhooks/schema.ts');
  });

  it('give the routes that read nothing of the service state (health, the OpenAPI document) no AWS client and no deps', () => {
    for (const entry of ['functions/http/get-health', 'functions/http/get-openapi']) {
      expect([
        entry,
        inputsOf(metafile, entry).filter((f) => /node_modules\/(@aws-sdk|@smithy)\/|functions\/(wiring\/deps|adapters\/dynamodb)/.test(f)),
      ]).toEqual([entry, []]);
    }
    expect(inputsOf(metafile, 'functions/http/get-run')).toContain('functions/wiring/deps.ts');
  });

  it('give GET /v1/ci/batches its filter, not the CI request schemas', () => {
    const inputs = inputsOf(metafile, 'functions/http/list-ci-batches');

    expect(inputs).toContain('functions/core/ci/filter-schema.ts');
    expect(inputs).not.toContain('functions/core/ci/schema.ts');
  });

  it('resolve from the repository root', () => {
    expect(esbuildOptions().absWorkingDir).toBe(REPO_ROOT);
  });
});

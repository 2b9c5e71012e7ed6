// A bundle's first request after a cold init, on the Lambda runtime's Node major, in a fresh process: it loads what it
// uses and nothing else. On Node 22 the SDK's HTTP handler, left to `import("node:http")` on its first request, has Node
// build an ESM facade of `node:http` that reads every export, `WebSocket` among them, and so loads undici (~20 ms of CPU
// in each container) for a DynamoDB client that never touches fetch. The bundles turn dynamic imports into require()
// (lib/constructs/bundling.ts, BUNDLE.dynamicImport); this holds the run view's bundle to it, and to loading no web
// streams at init (middy's `node:stream/web`, required on first use: LAZY_BUILTINS in lib/constructs/esbuild-run.js).
import * as path from 'node:path';
import { buildBundles } from '../../../lib/constructs/bundling';
import { UNDICI, WEB_STREAMS, firstRequest } from '../../helpers/first-request';
import { useFixtureBundle } from '../../helpers/fixture-bundle';
import { LAMBDA_NODE_MAJOR, nodeBinary } from '../../helpers/node-binary';

const node = nodeBinary(LAMBDA_NODE_MAJOR);
/** Node's `console` module, which the logger's Console needs (the global console is Node's own, loaded at start). */
const CONSOLE = 'NativeModule console';
if ('skip' in node) console.warn(`first-request test skipped: ${node.skip}`);
const describeWithNode = 'skip' in node ? describe.skip : describe;

/** What a Lambda gives the run view's function that matters here: region, credentials, table, quiet logs. */
const LAMBDA_ENV = {
  PATH: process.env.PATH,
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'AKIDFIRSTREQUEST',
  AWS_SECRET_ACCESS_KEY: 'first-request-secret',
  TABLE_NAME: 'rts',
  POWERTOOLS_LOG_LEVEL: 'SILENT',
};

describeWithNode('the first request of a bundle (GET /v1/runs/{run_id})', () => {
  const built = useFixtureBundle('functions/http/get-run', 'first-request');

  it('is answered (404: the store holds no such run) without loading undici, HTTP/2 or the ESM loader', () => {
    const first = firstRequest((node as { path: string }).path, built.bundle, LAMBDA_ENV);

    expect(first.status).toBe(404);
    expect(first.loaded.filter((m) => m === UNDICI || /\bhttp2\b|internal\/modules\/esm\/module_job|worker_threads/.test(m))).toEqual([]);
  });

  it("loads no web streams at init (middy's import of node:stream/web waits for a read), only the SDK's at its first response", () => {
    const first = firstRequest((node as { path: string }).path, built.bundle, LAMBDA_ENV);
    const webStreams = (list: string[]) => list.filter((m) => WEB_STREAMS.test(m));

    expect(webStreams(first.initLoaded)).toEqual([]);
    expect(webStreams(first.loaded)).not.toContain('NativeModule stream/web');
  });

  it("builds no logger at init nor for a request that writes no line (Powertools' Logger and its Console wait for one)", () => {
    const first = firstRequest((node as { path: string }).path, built.bundle, LAMBDA_ENV);
    // The probe sees it: logging every event builds the logger, and its Console, when the module loads.
    const eager = firstRequest((node as { path: string }).path, built.bundle, { ...LAMBDA_ENV, POWERTOOLS_LOGGER_LOG_EVENT: 'true' });

    expect(first.status).toBe(404);
    expect([...first.initLoaded, ...first.loaded]).not.toContain(CONSOLE);
    expect(eager.status).toBe(404);
    expect(eager.initLoaded).toContain(CONSOLE);
  });

  it('still loads undici when the bundle keeps the dynamic import (the probe sees what it is meant to)', () => {
    const kept = path.join(
      buildBundles(['functions/http/get-run'], path.join(built.dir, 'kept'), { supported: { 'dynamic-import': true } }).get(
        'functions/http/get-run',
      )!,
      'index.js',
    );

    const first = firstRequest((node as { path: string }).path, kept, LAMBDA_ENV);

    expect(first.status).toBe(404);
    expect(first.loaded).toContain(UNDICI);
  });
});

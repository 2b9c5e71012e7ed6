// `npm run bench -- bundles`, second part: what a cold start costs after the module's init, the first request. The
// minimal bundle (one GetItem) and GET /v1/runs/{run_id} (a 404 from a store that holds nothing) each serve two
// requests in fresh processes on Lambda's Node (test/helpers/first-request.ts), the run view once more as bundled with
// esbuild's default, which keeps the SDK's `import("node:http")` (lib/constructs/bundling.ts, BUNDLE.dynamicImport), and
// the authorizer, which a cold API request meets first (it refuses a key the store does not hold). They alternate, so
// all see the same machine load; CPU medians.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { buildBundles } from '../../lib/constructs/bundling';
import { UNDICI, firstRequest } from '../helpers/first-request';
import { PROBE_ENV, buildBaseline, probeNode } from './bundles';
import { median } from './median';

export interface FirstRequestRow {
  name: string;
  initMs: number;
  firstMs: number;
  secondMs: number;
  /** In how many of the runs the first request loaded undici. */
  undiciRuns: number;
  runs: number;
}

export interface FirstRequestBench {
  node: string;
  rows: FirstRequestRow[];
}

/** Dummy credentials: the bundles sign requests; the loopback store reads no signature. */
const ENV = { ...PROBE_ENV, AWS_ACCESS_KEY_ID: 'AKIDBENCH', AWS_SECRET_ACCESS_KEY: 'bench' };

export const ROW_BASELINE = '(baseline: DynamoDB document client)';
export const ROW_RUN_VIEW = 'GET /v1/runs/{run_id}';
export const ROW_RUN_VIEW_KEPT = "GET /v1/runs/{run_id}, the SDK's import() kept";
export const ROW_AUTHORIZER = 'the authorizer (a key the store does not hold)';

/** API Gateway's REQUEST authorizer event: the route's ARN and the two headers it reads. */
const AUTHORIZER_EVENT = {
  type: 'REQUEST',
  methodArn: 'arn:aws:execute-api:us-east-1:123456789012:bench/prod/GET/v1/runs/6f1c7a38-2a4f-4e43-9d5b-0f2f5e8b9a11',
  headers: { 'x-api-key': `rts_${'a'.repeat(40)}`, 'x-project-id': '0b3f2c1e-9a8d-4c7b-8e6f-5d4c3b2a1908' },
  requestContext: { requestId: 'first-request' },
};

export async function benchFirstRequest(runs = 7): Promise<FirstRequestBench> {
  const dir = mkdtempSync(path.join(tmpdir(), 'rts-bench-first-'));
  try {
    const entry = 'functions/http/get-run';
    const authorizer = 'functions/http/authorizer';
    const bundled = buildBundles([entry, authorizer], path.join(dir, 'bundled'));
    const files: [string, string, object | undefined][] = [
      [ROW_BASELINE, buildBaseline(path.join(dir, 'baseline')), undefined],
      [ROW_RUN_VIEW, path.join(bundled.get(entry)!, 'index.js'), undefined],
      [
        ROW_RUN_VIEW_KEPT,
        path.join(buildBundles([entry], path.join(dir, 'kept'), { supported: { 'dynamic-import': true } }).get(entry)!, 'index.js'),
        undefined,
      ],
      [ROW_AUTHORIZER, path.join(bundled.get(authorizer)!, 'index.js'), AUTHORIZER_EVENT],
    ];
    const samples = new Map(files.map(([name]) => [name, [] as ReturnType<typeof firstRequest>[]]));
    for (let i = 0; i < runs; i++) for (const [name, file, event] of files) samples.get(name)!.push(firstRequest(probeNode().path, file, ENV, event));
    return {
      node: probeNode().version,
      rows: files.map(([name]) => {
        const got = samples.get(name)!;
        return {
          name,
          initMs: median(got.map((g) => g.initMs)),
          firstMs: median(got.map((g) => g.firstMs)),
          secondMs: median(got.map((g) => g.secondMs)),
          undiciRuns: got.filter((g) => g.loaded.includes(UNDICI)).length,
          runs: got.length,
        };
      }),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatFirstRequest(r: FirstRequestBench): string {
  const head = ['bundle', 'init ms', 'first request ms', 'next request ms', 'undici loaded'];
  const body = r.rows.map((x) => [x.name, x.initMs.toFixed(1), x.firstMs.toFixed(1), x.secondMs.toFixed(1), `${x.undiciRuns} of ${x.runs}`]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ');
  return [
    `first request after a cold init, CPU on Node ${r.node} (medians; DynamoDB answered on loopback)`,
    line(head),
    ...body.map((cells) => line(cells)),
  ].join('\n');
}

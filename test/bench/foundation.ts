// Bench of the foundation routes: POST /v1/traces (10 KB, 1 MB) and GET /v1/runs/{id} at 10 connections,
// next to a baseline measured in the same run the same way: a bare node:http server doing one GetItem on the same dynalite.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDocClient } from '../../functions/adapters/dynamodb/client';
import { startTestService } from '../helpers/local-service';
import { compareLoads, fmt, runLoad, type LoadResult } from './load';

function traceOfSize(bytes: number, seed: number) {
  const steps: unknown[] = [
    { role: 'system', content: 'You are a support agent.' },
    { role: 'user', content: `request ${seed}` },
  ];
  let i = 0;
  // Bigger tool results for bigger traces keep the step count under the 2,000-step limit.
  const chunk = 'lorem ipsum dolor sit amet '.repeat(bytes > 100_000 ? 200 : 20);
  while (JSON.stringify(steps).length < bytes) {
    steps.push({ role: 'assistant', content: null, tool_calls: [{ id: `c${i}`, name: 'fetch_page', arguments: { page: i } }] });
    steps.push({ role: 'tool', tool_call_id: `c${i}`, content: { text: `${seed}-${i}-${chunk}` } });
    i++;
  }
  steps.push({ role: 'assistant', content: 'done' });
  return JSON.stringify({ name: `bench ${seed}`, steps });
}

export interface FoundationBench {
  postTrace10k: LoadResult;
  postTrace1m: LoadResult;
  getRun: LoadResult;
  baselineGetItem: LoadResult;
}

export async function benchFoundation(durationMs = 5000): Promise<FoundationBench> {
  // The store in its own process, as `npm start` runs it.
  const svc = await startTestService({ deliverWebhooks: false, storeInChildProcess: true });
  try {
    const headers = { ...svc.authHeaders, 'Content-Type': 'application/json' };
    const c = await svc.api('POST', '/v1/campaigns', { name: 'bench', target: { type: 'recorded' } });
    const t = await svc.api('POST', '/v1/traces', JSON.parse(traceOfSize(2000, 0)));
    const run = await svc.api('POST', '/v1/runs', { trace_id: t.body.trace_id, campaign_id: c.body.campaign_id });
    await svc.idle();
    const runId = run.body.run_id as string;

    const small = Array.from({ length: 200 }, (_, i) => traceOfSize(10 * 1024, i));
    const postTrace10k = await runLoad({
      url: `${svc.url}/v1/traces`,
      method: 'POST',
      headers,
      bodies: small,
      connections: 10,
      durationMs,
      warmup: 20,
    });
    const big = Array.from({ length: 4 }, (_, i) => traceOfSize(1024 * 1024, 1000 + i));
    const postTrace1m = await runLoad({ url: `${svc.url}/v1/traces`, method: 'POST', headers, bodies: big, connections: 10, durationMs, warmup: 4 });

    // Baseline: the same store, one GetItem per request, no routing, auth or validation, served by this process's main
    // thread like the service (the load generator's worker thread, the store's process and the machine are shared alike).
    const doc = dynamoDocClient();
    const table = process.env.TABLE_NAME!;
    const key = { pk: `RUN#${svc.projectId}#${runId}`, sk: 'META' };
    const bare = createServer((_req, res) => {
      doc.send(new GetCommand({ TableName: table, Key: key })).then(
        (r) => {
          const body = JSON.stringify(r.Item ?? {});
          res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
          res.end(body);
        },
        () => {
          res.writeHead(500);
          res.end();
        },
      );
    });
    await new Promise<void>((r) => bare.listen(0, '127.0.0.1', () => r()));
    const baseUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;
    // Both warmed up alike (2,000 requests each: the JIT settles within them), then measured in alternating slices: a
    // ratio of the two is what the goal is about.
    const { a: getRun, b: baselineGetItem } = await compareLoads(
      { url: `${svc.url}/v1/runs/${runId}`, method: 'GET', headers: svc.authHeaders, connections: 10, durationMs },
      { url: baseUrl, method: 'GET', connections: 10, durationMs },
      { warmupRequests: 2000, slices: 2 },
    );
    await new Promise<void>((r) => {
      bare.close(() => r());
      bare.closeAllConnections();
    });
    return { postTrace10k, postTrace1m, getRun, baselineGetItem };
  } finally {
    await svc.stop();
  }
}

export function printFoundation(r: FoundationBench): void {
  console.log('\n== API (local gateway + dynalite, 10 connections) ==');
  console.log(`POST /v1/traces 10 KB      ${fmt(r.postTrace10k)}`);
  console.log(`POST /v1/traces 1 MB       ${fmt(r.postTrace1m)}`);
  console.log(`GET  /v1/runs/{id}         ${fmt(r.getRun)}`);
  console.log(`baseline GetItem (bare)    ${fmt(r.baselineGetItem)}`);
  console.log(
    `GET /v1/runs/{id} at ${((100 * r.getRun.rps) / r.baselineGetItem.rps).toFixed(0)} % of the baseline's requests/s, ` +
      `p99 ${(r.getRun.p99 / r.baselineGetItem.p99).toFixed(2)}x the baseline's (goal: >= 75 %, <= 1.5x)`,
  );
}

if (require.main === module) {
  benchFoundation().then(printFoundation, (e) => {
    console.error(e);
    process.exit(1);
  });
}

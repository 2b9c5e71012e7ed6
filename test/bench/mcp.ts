// MCP tool calls through the local service (docs/benchmarks.md#mcp-tool-calls): an `mcp` target's loopback agent
// makes N recorded calls over MCP with the official SDK client, one after another and 10 at a time; the same trace
// and the same N calls through the step protocol (an `http` target making one call a step) give the per-call overhead.
import './bench-env';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resetAwsClients } from '../../functions/adapters/aws';
import { startTestService, type TestService } from '../helpers/local-service';
import { startMcpAgent } from '../helpers/mcp-agent';
import { countAwsCalls, takeCounts, totalCalls } from './aws-counter';

export interface McpBenchRow {
  calls: number;
  /** Calls one after another, as the agent times them (initialize and tools/list excluded). */
  mcpSequentialMs: number;
  /** One MCP ping (token check and session read, no serving), on average. */
  mcpPingMs: number;
  /** The same calls, 10 at a time. */
  mcpConcurrentMs: number;
  /** POST /v1/runs to completed, one attempt: the mcp target, calls one after another. */
  mcpRunMs: number;
  /** The same for the step protocol, one call a step. */
  stepRunMs: number;
  /** Store calls of the whole run, per tool call: the mcp target (calls one after another), the step protocol. */
  mcpStoreCallsPerCall: number;
  stepStoreCallsPerCall: number;
}

export interface McpBench {
  rows: McpBenchRow[];
}

function traceOf(calls: number) {
  const ids = Array.from({ length: calls }, (_, i) => `o${i}`);
  return {
    name: `mcp bench ${calls}`,
    tools: [{ name: 'lookup_order', description: 'Look up an order', parameters: { type: 'object', properties: { order_id: { type: 'string' } } } }],
    steps: [
      { role: 'system', content: 'You look orders up.' },
      { role: 'user', content: `Look up ${calls} orders.` },
      ...ids.flatMap((id) => [
        { role: 'assistant', content: null, tool_calls: [{ id, name: 'lookup_order', arguments: { order_id: id } }] },
        { role: 'tool', tool_call_id: id, name: 'lookup_order', content: { order_id: id, status: 'delivered', total: 42.5 } },
      ]),
      { role: 'assistant', content: 'All delivered.' },
    ],
  };
}

/** A step-protocol agent making call k at step k, then answering. */
async function startStepAgent(calls: number): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const { step } = JSON.parse(raw) as { step: number };
      const body =
        step <= calls
          ? { tool_calls: [{ id: `c${step}`, name: 'lookup_order', arguments: { order_id: `o${step - 1}` } }] }
          : { output: 'All delivered.' };
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/step`, close: () => new Promise((r) => server.close(() => r())) };
}

/** A run of one attempt against `target`: its wall time and the store calls it made. */
async function timedRun(svc: TestService, traceId: string, target: Record<string, unknown>): Promise<{ ms: number; storeCalls: number }> {
  const c = await svc.api('POST', '/v1/campaigns', { name: 'bench', target, max_steps: 200 });
  takeCounts();
  const started = performance.now();
  const r = await svc.api('POST', '/v1/runs', { trace_id: traceId, campaign_id: c.body.campaign_id });
  await svc.idle();
  const run = await svc.api('GET', `/v1/runs/${r.body.run_id}`);
  const ms = performance.now() - started;
  const storeCalls = totalCalls(takeCounts());
  if (run.body.status !== 'completed' || run.body.summary.passed_count !== 1) throw new Error(`bench run ended ${run.body.status}`);
  return { ms, storeCalls };
}

const PINGS = 20;

export async function benchMcp(sizes = [20, 100]): Promise<McpBench> {
  countAwsCalls();
  resetAwsClients();
  // The store in its own process, as `npm start` runs it.
  const svc = await startTestService({ deliverWebhooks: false, storeInChildProcess: true });
  const rows: McpBenchRow[] = [];
  try {
    for (const calls of [5, ...sizes]) {
      const trace = await svc.api('POST', '/v1/traces', traceOf(calls));
      const ids = Array.from({ length: calls }, (_, i) => `o${i}`);
      let sequentialMs = 0;
      let pingMs = 0;
      const sequential = await startMcpAgent(async (_invoke, mcp) => {
        const pinged = performance.now();
        for (let i = 0; i < PINGS; i++) await mcp.client.ping();
        pingMs = (performance.now() - pinged) / PINGS;
        const started = performance.now();
        for (const id of ids) await mcp.call('lookup_order', { order_id: id });
        sequentialMs = performance.now() - started;
        return 'All delivered.';
      });
      let concurrentMs = 0;
      const concurrent = await startMcpAgent(async (_invoke, mcp) => {
        const started = performance.now();
        for (let i = 0; i < ids.length; i += 10) await Promise.all(ids.slice(i, i + 10).map((id) => mcp.call('lookup_order', { order_id: id })));
        concurrentMs = performance.now() - started;
        return 'All delivered.';
      });
      const step = await startStepAgent(calls);
      try {
        const mcpRun = await timedRun(svc, trace.body.trace_id, { type: 'mcp', url: sequential.url });
        await timedRun(svc, trace.body.trace_id, { type: 'mcp', url: concurrent.url });
        const stepRun = await timedRun(svc, trace.body.trace_id, { type: 'http', url: step.url });
        // The first size only warms the service up.
        if (calls === 5) continue;
        rows.push({
          calls,
          mcpSequentialMs: sequentialMs,
          mcpPingMs: pingMs,
          mcpConcurrentMs: concurrentMs,
          mcpRunMs: mcpRun.ms,
          stepRunMs: stepRun.ms,
          mcpStoreCallsPerCall: mcpRun.storeCalls / calls,
          stepStoreCallsPerCall: stepRun.storeCalls / calls,
        });
      } finally {
        await Promise.all([sequential.close(), concurrent.close(), step.close()]);
      }
    }
    return { rows };
  } finally {
    await svc.stop();
  }
}

export function printMcp(r: McpBench): void {
  console.log('\n== MCP tool calls (local service, official SDK client) ==');
  for (const row of r.rows) {
    const perCall = (ms: number) => `${(ms / row.calls).toFixed(1)} ms/call`;
    console.log(
      `${row.calls} calls: ping ${row.mcpPingMs.toFixed(1)} ms; sequential ${((row.calls * 1000) / row.mcpSequentialMs).toFixed(0)} calls/s (${perCall(row.mcpSequentialMs)}), ` +
        `10 at a time ${((row.calls * 1000) / row.mcpConcurrentMs).toFixed(0)} calls/s; ` +
        `run ${row.mcpRunMs.toFixed(0)} ms (mcp) vs ${row.stepRunMs.toFixed(0)} ms (step protocol): ` +
        `overhead ${((row.mcpRunMs - row.stepRunMs) / row.calls).toFixed(1)} ms/call; ` +
        `store calls per tool call ${row.mcpStoreCallsPerCall.toFixed(1)} (mcp) vs ${row.stepStoreCallsPerCall.toFixed(1)} (step)`,
    );
  }
}

if (require.main === module) {
  benchMcp().then(printMcp, (e) => {
    console.error(e);
    process.exit(1);
  });
}

// Bench of the OTLP receiver: spans/s ingested for a 1,000-span protobuf export (100 agent traces of 10 GenAI
// spans each, plain and gzip; and one trace of 1,000 spans), and the time to merge one trace split over 10 exports, sent
// one after the other and all at once. The store runs in its own process, as `npm start` runs it.
import { gzipSync } from 'node:zlib';
import { Root, type INamespace } from 'protobufjs';
import { buildDescriptor } from '../../functions/core/traces/otlp/proto/generate';
import { otlpTraceUuid } from '../../functions/core/traces/otlp/merge';
import { startTestService, type TestService } from '../helpers/local-service';
import { median } from './median';

const REQUEST = Root.fromJSON(buildDescriptor() as INamespace).lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
const T0 = 1_732_233_600_000_000_000n;

let traceCounter = 0;
const nextTraceId = () => Buffer.from((++traceCounter).toString(16).padStart(32, '0'), 'hex');
const kv = (key: string, value: string | number) => ({ key, value: typeof value === 'number' ? { intValue: value } : { stringValue: value } });
const at = (ms: number) => String(T0 + BigInt(ms) * 1_000_000n);

/**
 * One agent run as GenAI-instrumented apps record it: an invoke_agent span, then per turn a chat span (the history so
 * far in, a tool call out) and its execute_tool span, then the final chat span. `spans` is the total count.
 */
export function agentTrace(spans: number): Record<string, unknown>[] {
  const traceId = nextTraceId();
  const id = (n: number) => Buffer.from(n.toString(16).padStart(16, '0'), 'hex');
  const rootId = id(1);
  const out: Record<string, unknown>[] = [
    {
      traceId,
      spanId: rootId,
      name: 'invoke_agent bench-bot',
      startTimeUnixNano: at(0),
      endTimeUnixNano: at(spans * 100),
      attributes: [kv('gen_ai.operation.name', 'invoke_agent'), kv('gen_ai.agent.name', 'bench-bot')],
    },
  ];
  const history: unknown[] = [{ role: 'user', parts: [{ type: 'text', content: 'Check the status of every order on my account and summarise.' }] }];
  let n = 2;
  const turns = Math.floor((spans - 2) / 2);
  for (let t = 0; t < turns; t++) {
    const call = { type: 'tool_call', id: `call_${t}`, name: 'lookup_order', arguments: { order_id: String(1000 + t) } };
    out.push({
      traceId,
      spanId: id(n++),
      parentSpanId: rootId,
      name: 'chat gpt-4o-mini',
      startTimeUnixNano: at(t * 100 + 1),
      endTimeUnixNano: at(t * 100 + 40),
      attributes: [
        kv('gen_ai.operation.name', 'chat'),
        kv('gen_ai.request.model', 'gpt-4o-mini'),
        kv('gen_ai.provider.name', 'openai'),
        kv('gen_ai.usage.input_tokens', 300 + t * 40),
        kv('gen_ai.input.messages', JSON.stringify(history.slice(-6))),
        kv('gen_ai.output.messages', JSON.stringify([{ role: 'assistant', parts: [call] }])),
      ],
    });
    const result = { order_id: String(1000 + t), status: t % 3 === 0 ? 'delayed' : 'delivered', carrier: 'UPS', items: t % 5 };
    out.push({
      traceId,
      spanId: id(n++),
      parentSpanId: rootId,
      name: 'execute_tool lookup_order',
      startTimeUnixNano: at(t * 100 + 50),
      endTimeUnixNano: at(t * 100 + 90),
      attributes: [
        kv('gen_ai.operation.name', 'execute_tool'),
        kv('gen_ai.tool.name', 'lookup_order'),
        kv('gen_ai.tool.call.id', call.id),
        kv('gen_ai.tool.call.arguments', JSON.stringify(call.arguments)),
        kv('gen_ai.tool.call.result', JSON.stringify(result)),
      ],
    });
    history.push({ role: 'assistant', parts: [call] }, { role: 'tool', parts: [{ type: 'tool_call_response', id: call.id, response: result }] });
  }
  while (out.length < spans) {
    out.push({
      traceId,
      spanId: id(n++),
      parentSpanId: rootId,
      name: 'chat gpt-4o-mini',
      startTimeUnixNano: at(turns * 100 + out.length),
      endTimeUnixNano: at(turns * 100 + out.length + 30),
      attributes: [
        kv('gen_ai.operation.name', 'chat'),
        kv('gen_ai.input.messages', JSON.stringify(history.slice(-6))),
        kv('gen_ai.output.messages', JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: `All ${turns} orders checked.` }] }])),
      ],
    });
  }
  return out;
}

export function encode(spans: Record<string, unknown>[]): Buffer {
  const resource = { attributes: [kv('service.name', 'bench-service'), kv('service.version', '1.0.0')] };
  return Buffer.from(
    REQUEST.encode(REQUEST.fromObject({ resourceSpans: [{ resource, scopeSpans: [{ scope: { name: 'bench' }, spans }] }] })).finish(),
  );
}

async function post(svc: TestService, body: Buffer, gzip = false): Promise<number> {
  const headers: Record<string, string> = {
    ...svc.authHeaders,
    'Content-Type': 'application/x-protobuf',
    ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
  };
  const started = process.hrtime.bigint();
  const res = await fetch(`${svc.url}/v1/traces`, { method: 'POST', headers, body: gzip ? gzipSync(body) : body });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`export answered ${res.status}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

export interface OtlpBench {
  exportBytes: { plain: number; gzip: number };
  /** 1,000 spans of 100 traces in one export: median ms per export and spans/s. */
  manyTraces: { ms: number; spansPerSec: number };
  manyTracesGzip: { ms: number; spansPerSec: number };
  /** 1,000 spans of one trace in one export. */
  oneTrace: { ms: number; spansPerSec: number };
  /** One 100-span trace in 10 exports of 10 spans: total ms sent in sequence, and all at once. */
  merge10Sequential: { totalMs: number; perExportMs: number };
  merge10Concurrent: { totalMs: number };
  mergedVersion: number;
}

export async function benchOtlp(rounds = 5): Promise<OtlpBench> {
  const svc = await startTestService({ deliverWebhooks: false, storeInChildProcess: true });
  try {
    // Warm-up: the route's modules, the store's tables and connections, one export of the size measured.
    await post(svc, encode(Array.from({ length: 100 }, () => agentTrace(10)).flat()));
    const manyBodies = Array.from({ length: rounds }, () => encode(Array.from({ length: 100 }, () => agentTrace(10)).flat()));
    const many: number[] = [];
    for (const body of manyBodies) many.push(await post(svc, body));
    const manyGzipBodies = Array.from({ length: rounds }, () => encode(Array.from({ length: 100 }, () => agentTrace(10)).flat()));
    const manyGzip: number[] = [];
    for (const body of manyGzipBodies) manyGzip.push(await post(svc, body, true));
    const one: number[] = [];
    for (let r = 0; r < rounds; r++) one.push(await post(svc, encode(agentTrace(1000))));

    const split = (spans: Record<string, unknown>[]) => Array.from({ length: 10 }, (_, k) => encode(spans.slice(k * 10, k * 10 + 10)));
    const sequential: number[] = [];
    let mergedVersion = 0;
    for (let r = 0; r < rounds; r++) {
      const spans = agentTrace(100);
      const started = Date.now();
      for (const body of split(spans)) await post(svc, body);
      sequential.push(Date.now() - started);
      const traceId = otlpTraceUuid(svc.projectId, (spans[0].traceId as Buffer).toString('hex'));
      mergedVersion = (await svc.api('GET', `/v1/traces/${traceId}`)).body.version as number;
    }
    const concurrent: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const bodies = split(agentTrace(100));
      const started = Date.now();
      await Promise.all(bodies.map((b) => post(svc, b)));
      concurrent.push(Date.now() - started);
    }
    const rate = (ms: number) => ({ ms, spansPerSec: 1000 / (ms / 1000) });
    return {
      exportBytes: { plain: manyBodies[0].length, gzip: gzipSync(manyGzipBodies[0]).length },
      manyTraces: rate(median(many)),
      manyTracesGzip: rate(median(manyGzip)),
      oneTrace: rate(median(one)),
      merge10Sequential: { totalMs: median(sequential), perExportMs: median(sequential) / 10 },
      merge10Concurrent: { totalMs: median(concurrent) },
      mergedVersion,
    };
  } finally {
    await svc.stop();
  }
}

export function printOtlp(b: OtlpBench): void {
  const kib = (n: number) => `${(n / 1024).toFixed(0)} KiB`;
  console.log('\n== OTLP receiver (POST /v1/traces, protobuf, local service, store in its own process) ==');
  console.log(
    `1,000-span export, 100 traces x 10 spans (${kib(b.exportBytes.plain)}): ${b.manyTraces.ms.toFixed(0)} ms, ${b.manyTraces.spansPerSec.toFixed(0)} spans/s`,
  );
  console.log(
    `  the same, gzip (${kib(b.exportBytes.gzip)}): ${b.manyTracesGzip.ms.toFixed(0)} ms, ${b.manyTracesGzip.spansPerSec.toFixed(0)} spans/s`,
  );
  console.log(`1,000-span export, one trace: ${b.oneTrace.ms.toFixed(0)} ms, ${b.oneTrace.spansPerSec.toFixed(0)} spans/s`);
  console.log(
    `one 100-span trace split over 10 exports: ${b.merge10Sequential.totalMs} ms in sequence (${b.merge10Sequential.perExportMs.toFixed(0)} ms per export, version ${b.mergedVersion}), ${b.merge10Concurrent.totalMs} ms all at once`,
  );
}

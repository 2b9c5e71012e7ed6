// A small HTTP load generator: N keep-alive connections in a worker thread (the second core), fixed duration, latency percentiles.
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

export interface LoadSpec {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Bodies cycled through, one per request (POST). */
  bodies?: string[];
  connections: number;
  durationMs: number;
  /** Requests before measuring starts. */
  warmup?: number;
  /** Also keep every latency (sorted), so that slices measured apart can be merged (mergeLoads). */
  keepLatencies?: boolean;
}

export interface LoadResult {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
  statusCounts: Record<string, number>;
  /** How long the measured part lasted. */
  seconds: number;
  /** Every latency in ms, sorted, with keepLatencies. */
  latencies?: number[];
  /** CPU time of this process's main thread (the server under test) per measured request, in µs; Linux only. */
  cpuUsPerRequest?: number;
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const spec = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: spec.connections });
const u = new URL(spec.url);
function once(i) {
  return new Promise((resolve) => {
    const body = spec.bodies && spec.bodies.length ? spec.bodies[i % spec.bodies.length] : undefined;
    const t0 = process.hrtime.bigint();
    const req = http.request({ agent, host: u.hostname, port: u.port, path: u.pathname + u.search, method: spec.method,
      headers: { ...(spec.headers || {}), ...(body ? { 'Content-Length': Buffer.byteLength(body) } : {}) } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, ms: Number(process.hrtime.bigint() - t0) / 1e6 }));
    });
    req.on('error', () => resolve({ status: 0, ms: Number(process.hrtime.bigint() - t0) / 1e6 }));
    if (body) req.write(body);
    req.end();
  });
}
(async () => {
  let n = 0;
  // Warm-up requests go over every connection too (not measured).
  await Promise.all(Array.from({ length: spec.connections }, async () => { while (n < (spec.warmup || 0)) await once(n++); }));
  const lat = []; const statuses = {}; let errors = 0;
  parentPort.postMessage('measuring');
  const end = Date.now() + spec.durationMs; const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: spec.connections }, async () => {
    while (Date.now() < end) {
      const r = await once(n++);
      lat.push(r.ms); statuses[r.status] = (statuses[r.status] || 0) + 1;
      if (r.status === 0 || r.status >= 400) errors++;
    }
  }));
  const secs = Number(process.hrtime.bigint() - started) / 1e9;
  lat.sort((a, b) => a - b);
  const pct = (p) => lat.length ? lat[Math.min(lat.length - 1, Math.floor(p * lat.length))] : 0;
  parentPort.postMessage({ requests: lat.length, errors, rps: lat.length / secs, p50: pct(0.5), p99: pct(0.99), statusCounts: statuses,
    seconds: secs, latencies: spec.keepLatencies ? lat : undefined });
  agent.destroy();
})();
`;

/** USER_HZ: what Linux counts /proc CPU times in (100 on every common build). */
const CLOCK_TICKS_PER_S = 100;

/** CPU time (user + system) of this process's main thread so far, in µs; undefined where /proc is not there. */
function mainThreadCpuUs(): number | undefined {
  try {
    const stat = readFileSync(`/proc/${process.pid}/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS_PER_S;
  } catch {
    return undefined;
  }
}

/**
 * Runs one load test in a worker thread so the server under test keeps the main thread (the generator still shares the
 * machine's cores with it: a load test of a bare server and of the service pay that alike).
 */
export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: spec });
    let cpuAtStart: number | undefined;
    worker.on('message', (m: LoadResult | 'measuring') => {
      if (m === 'measuring') {
        cpuAtStart = mainThreadCpuUs();
        return;
      }
      const cpuAtEnd = mainThreadCpuUs();
      if (cpuAtStart !== undefined && cpuAtEnd !== undefined && m.requests > 0) m.cpuUsPerRequest = (cpuAtEnd - cpuAtStart) / m.requests;
      resolve(m);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

/** One result of slices of the same load measured apart: requests and time add up, percentiles over every latency. */
export function mergeLoads(parts: LoadResult[]): LoadResult {
  const latencies = parts.flatMap((p) => p.latencies ?? []).sort((a, b) => a - b);
  if (latencies.length !== parts.reduce((n, p) => n + p.requests, 0)) throw new Error('mergeLoads needs every slice run with keepLatencies');
  const pct = (p: number) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] : 0);
  const seconds = parts.reduce((n, p) => n + p.seconds, 0);
  const statusCounts: Record<string, number> = {};
  for (const p of parts) for (const [status, n] of Object.entries(p.statusCounts)) statusCounts[status] = (statusCounts[status] ?? 0) + n;
  const cpu = parts.every((p) => p.cpuUsPerRequest !== undefined)
    ? parts.reduce((n, p) => n + p.cpuUsPerRequest! * p.requests, 0) / Math.max(1, latencies.length)
    : undefined;
  return {
    requests: latencies.length,
    errors: parts.reduce((n, p) => n + p.errors, 0),
    rps: seconds > 0 ? latencies.length / seconds : 0,
    p50: pct(0.5),
    p99: pct(0.99),
    statusCounts,
    seconds,
    ...(cpu === undefined ? {} : { cpuUsPerRequest: cpu }),
  };
}

/**
 * Measures two loads the same way, for a ratio: each warmed up with `warmupRequests` requests (so that the JIT has
 * compiled both paths before either is measured, however loaded the machine), then `slices` slices of each in
 * A B B A A B ... order, so that a change of the machine's load during the run (other work on a shared machine) weighs
 * on both alike. Each side gets `durationMs` in all.
 */
export async function compareLoads(
  a: LoadSpec,
  b: LoadSpec,
  opts: { warmupRequests: number; slices: number },
): Promise<{ a: LoadResult; b: LoadResult }> {
  await runLoad({ ...a, warmup: opts.warmupRequests, durationMs: 0 });
  await runLoad({ ...b, warmup: opts.warmupRequests, durationMs: 0 });
  const parts: { a: LoadResult[]; b: LoadResult[] } = { a: [], b: [] };
  for (let i = 0; i < 2 * opts.slices; i++) {
    const side = i % 4 === 0 || i % 4 === 3 ? 'a' : 'b';
    const spec = side === 'a' ? a : b;
    parts[side].push(await runLoad({ ...spec, durationMs: spec.durationMs / opts.slices, warmup: 0, keepLatencies: true }));
  }
  return { a: mergeLoads(parts.a), b: mergeLoads(parts.b) };
}

export function fmt(r: LoadResult): string {
  const cpu = r.cpuUsPerRequest === undefined ? '' : `, ${(r.cpuUsPerRequest / 1000).toFixed(2)} ms CPU of the server's thread per request`;
  return `${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(6)} ms  (${r.requests} requests, ${r.errors} errors${cpu})`;
}

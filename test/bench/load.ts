// A small HTTP load generator: N keep-alive connections in a worker thread (the second core), fixed duration, latency percentiles.
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
}

export interface LoadResult {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
  statusCounts: Record<string, number>;
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
  for (let i = 0; i < (spec.warmup || 0); i++) await once(n++);
  const lat = []; const statuses = {}; let errors = 0;
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
  parentPort.postMessage({ requests: lat.length, errors, rps: lat.length / secs, p50: pct(0.5), p99: pct(0.99), statusCounts: statuses });
  agent.destroy();
})();
`;

/** Runs one load test in a worker thread so the server under test keeps the main thread. */
export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: spec });
    worker.once('message', (m: LoadResult) => {
      resolve(m);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

export function fmt(r: LoadResult): string {
  return `${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(6)} ms  (${r.requests} requests, ${r.errors} errors)`;
}

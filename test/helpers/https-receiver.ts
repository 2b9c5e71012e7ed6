// A real HTTPS webhook receiver on 127.0.0.1 with a throwaway CA made by openssl at test time; records raw bytes and timing.
import { execFileSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCertificates {
  /** PEM of the CA that signed the server certificate: give it to the sender's `ca` option. */
  ca: string;
  key: string;
  cert: string;
}

let certs: TestCertificates | undefined;

/** A CA plus a server certificate for localhost, 127.0.0.1 and ::1, made once per process. */
export function testCertificates(): TestCertificates {
  if (certs) return certs;
  const dir = mkdtempSync(join(tmpdir(), 'rts-certs-'));
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  try {
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    ssl(
      'req',
      '-x509',
      ...ec,
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '2',
      '-subj',
      '/CN=rts test CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    );
    ssl('req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost');
    writeFileSync(
      join(dir, 'ext.cnf'),
      'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n',
    );
    ssl(
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'server.pem',
      '-days',
      '2',
      '-extfile',
      'ext.cnf',
    );
    certs = {
      ca: readFileSync(join(dir, 'ca.pem'), 'utf8'),
      key: readFileSync(join(dir, 'server.key'), 'utf8'),
      cert: readFileSync(join(dir, 'server.pem'), 'utf8'),
    };
    return certs;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * How the receiver answers: `ok` 200; `error` 500; `hang` never answers (a sender times out); `redirect` 302 to
 * another https URL; `close` drops the connection after reading the request; `huge` streams a 2 MiB 200 body.
 */
export type ReceiverMode = 'ok' | 'error' | 'hang' | 'redirect' | 'close' | 'huge';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The body exactly as it arrived. */
  rawBody: Buffer;
  /** Arrival (headers received), epoch milliseconds with sub-millisecond precision. */
  at: number;
  /** The client's port: equal ports on two requests mean a kept-alive connection was reused. */
  remotePort: number;
}

export interface HttpsReceiver {
  url: string;
  port: number;
  mode: ReceiverMode;
  requests: ReceivedRequest[];
  /** Resolves once `n` requests have arrived in total; rejects after `timeoutMs`. */
  waitForRequests(n: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

const nowMs = () => performance.timeOrigin + performance.now();

/** Starts a receiver on 127.0.0.1 (or `host`), on a free port. */
export async function startHttpsReceiver(opts: { mode?: ReceiverMode; host?: string } = {}): Promise<HttpsReceiver> {
  const { key, cert } = testCertificates();
  const events = new EventEmitter();
  const requests: ReceivedRequest[] = [];
  const hanging = new Set<() => void>();
  const receiver = { mode: opts.mode ?? 'ok' } as HttpsReceiver;
  const server: Server = createServer({ key, cert }, (req, res) => {
    const at = nowMs();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawBody: Buffer.concat(chunks),
        at,
        remotePort: req.socket.remotePort ?? 0,
      });
      events.emit('request');
      switch (receiver.mode) {
        case 'ok':
          res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"received":true}');
          return;
        case 'error':
          res.writeHead(500, { 'Content-Type': 'text/plain' }).end('boom');
          return;
        case 'redirect':
          res.writeHead(302, { Location: 'https://example.com/elsewhere' }).end();
          return;
        case 'close':
          req.socket.destroy();
          return;
        case 'huge':
          res.writeHead(200, { 'Content-Type': 'text/plain' });
          res.end(Buffer.alloc(2 * 1024 * 1024, 'x'));
          return;
        case 'hang':
          hanging.add(() => res.destroy());
          return;
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, opts.host ?? '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const host = opts.host ?? '127.0.0.1';
  Object.assign(receiver, {
    url: `https://${host.includes(':') ? `[${host}]` : host}:${port}/hooks`,
    port,
    requests,
    waitForRequests: (n: number, timeoutMs = 10000) =>
      new Promise<ReceivedRequest[]>((resolve, reject) => {
        if (requests.length >= n) return resolve(requests);
        const timer = setTimeout(() => {
          events.off('request', check);
          reject(new Error(`expected ${n} requests, got ${requests.length} within ${timeoutMs} ms`));
        }, timeoutMs);
        function check() {
          if (requests.length < n) return;
          clearTimeout(timer);
          events.off('request', check);
          resolve(requests);
        }
        events.on('request', check);
      }),
    close: async () => {
      for (const end of hanging) end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
  return receiver;
}

/** An https URL on 127.0.0.1 where nothing listens (connections are refused). */
export async function refusedUrl(): Promise<string> {
  const probe: HttpServer = createHttpServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `https://127.0.0.1:${port}/hooks`;
}

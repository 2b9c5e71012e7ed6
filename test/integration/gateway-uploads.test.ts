// The local gateway checks credentials on the headers, before the body: uploads without a valid key are refused
// without being buffered, measured on `rts serve` running as a process of its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServeProcess } from '../helpers/serve-process';

const MiB = 1024 * 1024;

/**
 * POSTs `body` to /v1/traces, declaring one byte more than it sends, so the upload is never complete; answers the
 * status if one arrives within `waitMs` (0 when none does), then drops the connection.
 */
function heldUpload(baseUrl: string, body: Buffer, headers: Record<string, string>, waitMs: number): Promise<number> {
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    const req = request({
      host: url.hostname,
      port: url.port,
      path: '/v1/traces',
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(body.length + 1), ...headers },
    });
    const timer = setTimeout(() => done(0), waitMs);
    function done(status: number): void {
      clearTimeout(timer);
      req.destroy();
      resolve(status);
    }
    req.on('error', () => undefined); // the gateway closes while the client may still be writing
    req.once('response', (res) => done(res.statusCode ?? 0));
    req.write(body);
  });
}

/**
 * Sends the headers of an upload declaring `declared` bytes without credentials, then keeps writing its body for
 * `writeMs` without reading, as a sender busy sending does; then reads. Resolves to what it read before the connection
 * ended, and the error that ended it, if any.
 */
function busySender(baseUrl: string, declared: number, writeMs: number): Promise<{ answer: string; error: string | null }> {
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    let answer = '';
    let error: string | null = null;
    socket.pause();
    socket.on('data', (c: Buffer) => (answer += c.toString('latin1')));
    socket.on('error', (err: NodeJS.ErrnoException) => (error = err.code ?? err.message));
    socket.on('close', () => resolve({ answer, error }));
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    socket.write(`POST /v1/traces HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`);
    const until = Date.now() + writeMs;
    const pump = () => {
      if (socket.destroyed) return;
      if (Date.now() >= until || sent + chunk.length >= declared) {
        socket.resume();
        setTimeout(() => socket.destroy(), 2_000);
        return;
      }
      sent += chunk.length;
      if (socket.write(chunk)) setImmediate(pump);
      else socket.once('drain', pump);
    };
    pump();
  });
}

describe('local gateway: uploads without valid credentials', () => {
  it("keeps a refused upload's connection open until its sender has read the 401, however long it goes on sending", async () => {
    // Prepare
    const dataDir = mkdtempSync(join(tmpdir(), 'rts-uploads-'));
    const served = await startServeProcess(dataDir, ['--in-memory']);
    try {
      // Act: senders that write for a while before reading (a closed connection that still receives data is reset,
      // and a reset connection loses what its sender had not read yet)
      const results = await Promise.all(Array.from({ length: 4 }, () => busySender(served.url, 5 * MiB, 500)));
      // Assess
      for (const r of results) expect(r.answer).toMatch(/^HTTP\/1\.1 401 /);
    } finally {
      await served.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('answers 60 concurrent 5 MiB uploads with 401 before their bodies are sent, without buffering them', async () => {
    // Prepare
    const dataDir = mkdtempSync(join(tmpdir(), 'rts-uploads-'));
    const served = await startServeProcess(dataDir, ['--in-memory']);
    try {
      const body = Buffer.alloc(5 * MiB, 0x20);
      // A first refusal loads the authorizer, so its code is not counted below.
      await heldUpload(served.url, Buffer.alloc(1024), { 'X-Project-Id': '00000000-0000-4000-8000-000000000000', 'X-API-Key': 'rts_x' }, 10_000);
      const before = served.rss();
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, served.rss())), 20);
      // Act: half without a key, half with a wrong one (the authorizer runs and refuses)
      const statuses = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          heldUpload(
            served.url,
            body,
            i % 2 ? { 'X-Project-Id': '00000000-0000-4000-8000-000000000000', 'X-API-Key': `rts_${'a'.repeat(40)}` } : {},
            15_000,
          ),
        ),
      );
      clearInterval(sampler);
      peak = Math.max(peak, served.rss());
      // Assess: every upload was answered although none was complete, and the 300 MiB of bodies were not held
      expect(statuses).toEqual(Array(60).fill(401));
      expect(peak - before).toBeLessThan(100 * MiB);
    } finally {
      await served.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

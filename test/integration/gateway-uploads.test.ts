// The local gateway checks credentials on the headers, before the body: uploads without a valid key are refused
// without being buffered, measured on `rts serve` running as a process of its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
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

describe('local gateway: uploads without valid credentials', () => {
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

// `rts ci run` against the local service with repeats: a flaky cell passes with a note unless --max-flaky is missed.
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { createCampaign, createTraces, passingTrace, setEvalSet, runCiAgainst } from '../helpers/ci';
import { startTestService, type TestService } from '../helpers/local-service';

let svc: TestService;
let dir: string;

beforeAll(async () => {
  svc = await startTestService({ deliverWebhooks: false, queue: { concurrency: 8, redeliveryDelayMs: 20 } });
  dir = mkdtempSync(join(tmpdir(), 'rts-cli-ci-flaky-'));
});
afterAll(async () => {
  await svc.stop();
  rmSync(dir, { recursive: true, force: true });
});

const ci = (args: string[]) => runCiAgainst(svc, args);

/** A step-protocol agent that fails every other call ("Sorry." lacks "refund"); `reset` starts over with a pass. */
async function alternatingAgent() {
  let calls = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      calls += 1;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ output: calls % 2 === 1 ? 'Your refund is on its way.' : 'Sorry.' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/step`,
    reset: () => (calls = 0),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'testcase' });

describe('rts ci run with repeats', () => {
  it('passes a flaky cell with a note, and fails it when the batch misses --max-flaky', async () => {
    const agent = await alternatingAgent();
    try {
      // Prepare: one trace, one cell, two repeats: one passes, one fails.
      const ids = await createTraces(svc, [passingTrace('coin flip')]);
      const campaignId = await createCampaign(svc, {
        target: { type: 'http', url: agent.url, timeout_ms: 2000 },
        repeats: 2,
        criteria: [{ type: 'output_contains', value: 'refund' }],
      });
      await setEvalSet(svc, campaignId, ids);
      const lenient = ['--campaign', campaignId, '--min-pass-rate', '0', '--max-failures', '1'];
      const kept = join(dir, 'kept.xml');
      const failed = join(dir, 'failed.xml');
      const summary = join(dir, 'flaky.md');

      // Act
      const first = await ci([...lenient, '--junit', kept]);
      agent.reset();
      const second = await ci([...lenient, '--max-flaky', '0', '--junit', failed, '--summary', summary]);

      // Assess
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(/\ncoin flip\s+completed\s+0\.50\s+0\.00\s+0\s+yes \(1\)\s+-\s+pass\n/);
      expect(first.stdout).toContain('pass^k 0.00, flaky 1,');
      expect(first.stdout).toContain('\nFlaky cells (passing): coin flip [baseline] 1/2\n');
      const keptSuite = parser.parse(readFileSync(kept, 'utf8')).testsuite;
      expect(keptSuite).toMatchObject({ tests: '1', failures: '0', errors: '0' });
      expect(keptSuite.testcase[0]['system-out']).toMatch(/^flaky: 1\/2\n/);

      expect(second.code).toBe(1);
      expect(second.stdout).toContain('  - flaky_count 1 > max_flaky 0');
      const failedSuite = parser.parse(readFileSync(failed, 'utf8')).testsuite;
      expect(failedSuite).toMatchObject({ tests: '1', failures: '1', errors: '0' });
      expect(failedSuite.testcase[0].failure).toMatchObject({
        type: 'flaky',
        message: 'criterion output_contains: output does not contain "refund"; 1/2 passed; flaky: flaky_count 1 > max_flaky 0',
      });
      expect(readFileSync(summary, 'utf8')).toContain('#### Flaky scenarios\n\n- [coin flip](');
    } finally {
      await svc.idle();
      await agent.close();
    }
  });
});

// `rts traces upload` against the local service, in process: what it prints for a native trace and for an OTLP
// export (one line per trace with OTLP's per-trace result); a re-run replays the first answer (same idempotency key).
import { join } from 'node:path';
import { runTraces } from '../../functions/cli/traces';
import { captureOutput } from '../helpers/capture-output';
import { startTestService, type TestService } from '../helpers/local-service';

const ROOT = join(__dirname, '..', '..');
let svc: TestService;
const saved = { ...process.env };

beforeAll(async () => {
  svc = await startTestService({ deliverWebhooks: false });
  Object.assign(process.env, { RTS_API_URL: svc.url, RTS_API_KEY: svc.apiKey, RTS_PROJECT_ID: svc.projectId });
}, 60000);
afterAll(async () => {
  process.env = saved;
  await svc.stop();
});

async function upload(files: string[]): Promise<{ code: number; out: string }> {
  const { code, out } = await captureOutput(() => runTraces(['upload', ...files]));
  return { code, out };
}

describe('rts traces upload', () => {
  it('says created for a new native trace, and the same on a re-run, which replays the first answer', async () => {
    const file = join(ROOT, 'samples', 'traces', 'refund-order.json');
    const first = await upload([file]);
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/refund-order\.json: created +[0-9a-f-]{36} \(\d+ steps\) /);
    expect((await upload([file])).out).toBe(first.out);
  });

  it("prints OTLP's result per trace of an export (not the 200 as 'exists')", async () => {
    const file = join(ROOT, 'test', 'fixtures', 'otlp', 'two-traces.json');
    const first = await upload([file]);
    expect(first.code).toBe(0);
    const lines = first.out.trim().split('\n');
    expect(lines).toHaveLength(2);
    for (const l of lines) expect(l).toMatch(/two-traces\.json: created +[0-9a-f-]{36} \(\d+ steps\) /);
    expect((await upload([file])).out).toBe(first.out);
  });
});

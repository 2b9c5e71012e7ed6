// An event published after POST /v1/webhooks answered 201 reaches the new webhook: with events published continuously
// while the webhook is created, in the local service (one process) and with the fan-out in a process of its own.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { DynamoWebhooksRepo } from '../../functions/adapters/dynamodb/webhooks-repo';
import { createGuardedSender } from '../../functions/adapters/http/guarded-sender';
import { createProject } from '../../functions/core/auth';
import type { BusEvent } from '../../functions/core/events';
import { systemClock } from '../../functions/core/time';
import { createWebhook } from '../../functions/core/webhooks/service';
import { configureDeps, getDeps } from '../../functions/wiring/deps';
import { startDynalite, type TestTable } from '../helpers/dynalite';
import { sampleTrace } from '../helpers/fixtures';
import { startHttpsReceiver, testCertificates, type HttpsReceiver, type ReceivedRequest } from '../helpers/https-receiver';
import { startTestService, type TestService } from '../helpers/local-service';

const receivers: HttpsReceiver[] = [];
afterAll(() => Promise.all(receivers.map((r) => r.close())));

async function receiver(): Promise<HttpsReceiver> {
  const r = await startHttpsReceiver({ mode: 'ok' });
  receivers.push(r);
  return r;
}

const dataOf = (q: ReceivedRequest) => JSON.parse(q.rawBody.toString('utf8')).data as Record<string, string>;
/** Publishing goes on for 1.5 s after the create answered and until 30 events have begun after it. */
const enoughAfter = (answered: number, begun: { begun: number }[]) =>
  performance.now() > answered + 1500 && begun.filter((e) => e.begun > answered).length >= 30;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('webhook fan-out right after a create (local service)', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
    configureDeps({ http: createGuardedSender({ allowPrivate: true, ca: testCertificates().ca }), sleep: async () => undefined });
  });
  afterAll(async () => {
    configureDeps({ http: undefined, sleep: undefined });
    await svc.stop();
  });

  it('delivers every trace.created of an upload begun after the 201, with uploads running throughout', async () => {
    // Prepare: a project of its own, uploading from four loops before, during and after the create
    const p = await createProject({ projects: getDeps().projects, clock: systemClock }, { name: `race-${randomUUID().slice(0, 8)}` });
    const headers = { 'X-API-Key': p.api_key, 'X-Project-Id': p.project_id };
    const r = await receiver();
    const uploads: { begun: number; traceId: string }[] = [];
    let answered = Number.POSITIVE_INFINITY;
    let n = 0;
    const loop = async () => {
      while (!enoughAfter(answered, uploads)) {
        const begun = performance.now();
        const res = await svc.api('POST', '/v1/traces', sampleTrace({ name: `race ${n++}` }), headers);
        expect(res.status).toBe(201);
        uploads.push({ begun, traceId: res.body.trace_id });
      }
    };
    const loops = [loop(), loop(), loop(), loop()];
    await sleep(300);

    // Act
    const created = await svc.api('POST', '/v1/webhooks', { url: r.url, events: ['trace.created'] }, headers);
    answered = performance.now();
    await Promise.all(loops);
    await svc.idle();

    // Assess
    expect(created.status).toBe(201);
    const delivered = new Set(r.requests.map((q) => dataOf(q).trace_id));
    const after = uploads.filter((u) => u.begun > answered).map((u) => u.traceId);
    expect(after.length).toBeGreaterThanOrEqual(30);
    expect(after.filter((id) => !delivered.has(id))).toEqual([]);
  });
});

describe('webhook fan-out right after a create (fan-out in another process)', () => {
  let table: TestTable;
  let child: ChildProcessWithoutNullStreams;
  const settled = new Map<string, string>();
  const waiters = new Map<string, () => void>();

  beforeAll(async () => {
    table = await startDynalite();
    child = spawn(process.execPath, ['--require', 'tsx/cjs', join(__dirname, '..', 'helpers', 'fanout-child.ts')], {
      env: { ...process.env, RTS_TEST_CA: testCertificates().ca, POWERTOOLS_LOG_LEVEL: 'ERROR' },
    });
    const ready = new Promise<void>((resolve) => waiters.set('ready', resolve));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const [outcome, id = 'ready', ...rest] = line.split(' ');
      if (outcome !== 'ready') settled.set(id, outcome === 'done' ? 'done' : rest.join(' '));
      waiters.get(id)?.();
    });
    await ready;
  });
  afterAll(async () => {
    child.kill();
    await table.close();
  });

  /** Sends one event to the child and waits until it is handled. */
  function publish(projectId: string, runId: string): Promise<void> {
    const event: BusEvent = {
      id: randomUUID(),
      envelope: { event_type: 'run.completed', project_id: projectId, created_at: '2026-11-26T12:00:00.000000+00:00', data: { run_id: runId } },
    };
    return new Promise((resolve) => {
      waiters.set(event.id, resolve);
      child.stdin.write(`${JSON.stringify(event)}\n`);
    });
  }

  it('delivers every event published after the create returned, though the other process found no webhook just before', async () => {
    // Prepare: the other process keeps fanning events of a project without webhooks out
    const projectId = randomUUID();
    const r = await receiver();
    const published: { begun: number; runId: string }[] = [];
    let answered = Number.POSITIVE_INFINITY;
    const loop = async () => {
      while (!enoughAfter(answered, published)) {
        const runId = randomUUID();
        published.push({ begun: performance.now(), runId });
        await publish(projectId, runId);
      }
    };
    const loops = [loop(), loop(), loop()];
    while (settled.size < 30) await sleep(20);

    // Act: the create runs in this process
    await createWebhook({ webhooks: new DynamoWebhooksRepo(), clock: systemClock }, projectId, {
      url: r.url,
      events: ['run.completed'],
      is_enabled: true,
      description: null,
    });
    answered = performance.now();
    await Promise.all(loops);

    // Assess
    expect([...settled.values()].filter((s) => s !== 'done')).toEqual([]);
    const delivered = new Set(r.requests.map((q) => dataOf(q).run_id));
    const after = published.filter((e) => e.begun > answered).map((e) => e.runId);
    expect(after.length).toBeGreaterThanOrEqual(30);
    expect(after.filter((id) => !delivered.has(id))).toEqual([]);
  });
});

// The replay queue's SQS handler: each message's run is executed; unreadable bodies are dropped, failures reported per record.
import type { Context, SQSEvent } from 'aws-lambda';
import { makeCampaign, makeWorld, RUN_ID, sqsRecord as record, type FakeWorld } from '../../helpers/replay-fakes';

let world: FakeWorld;
jest.mock('../../../functions/wiring/deps', () => ({ getDeps: () => world.deps }));
jest.mock('../../../functions/wiring/with-bus', () => ({}));
jest.mock('../../../functions/wiring/with-http', () => ({}));
jest.mock('../../../functions/wiring/with-queue', () => ({}));

// Imported after the mocks are declared (jest hoists jest.mock above imports).
import { handler as replayWorker } from '../../../functions/workers/replay-worker';

const context = { getRemainingTimeInMillis: () => 300_000, awsRequestId: 'invocation-1' } as Context;

describe('replay worker handler', () => {
  beforeEach(() => {
    world = makeWorld(makeCampaign({ target: { type: 'recorded' } }));
  });

  it('executes the run of each message and reports no failures', async () => {
    // Prepare
    const event: SQSEvent = { Records: [record('m1', JSON.stringify(world.msg))] };
    // Act
    const res = await replayWorker(event, context);
    // Assess
    expect(res).toEqual({ batchItemFailures: [] });
    expect(world.deps.runs.runs.get(RUN_ID)).toMatchObject({ status: 'completed', summary: { attempt_count: 1, passed_count: 1 } });
  });

  it('drops a malformed body instead of retrying it, and reports only the record that failed', async () => {
    // Prepare
    const original = world.deps.runs.get.bind(world.deps.runs);
    world.deps.runs.get = async (pid, rid) => (rid === 'explodes' ? Promise.reject(new Error('store down')) : original(pid, rid));
    const event: SQSEvent = {
      Records: [
        record('bad-json', '{nope'),
        record('bad-shape', '{"run_id": 5}'),
        record('boom', JSON.stringify({ ...world.msg, run_id: 'explodes' })),
        record('ok', JSON.stringify(world.msg)),
      ],
    };
    // Act
    const res = await replayWorker(event, context);
    // Assess
    expect(res).toEqual({ batchItemFailures: [{ itemIdentifier: 'boom' }] });
    expect(world.deps.runs.runs.get(RUN_ID)?.status).toBe('completed');
  });
});

describe('replay worker handler, per-project share of the workers', () => {
  const OTHER = { project_id: 'other-project', run_id: 'other-run' };
  let leases: Array<{ projectId: string; holder: string; until: number; released: boolean }>;
  let sent: Array<{ messages: unknown[]; delaySeconds?: number }>;
  let sendFails: boolean;

  beforeEach(() => {
    process.env.RTS_PROJECT_WORKER_SHARE = '1';
    world = makeWorld(makeCampaign({ target: { type: 'recorded' } }));
    leases = [];
    sent = [];
    sendFails = false;
    // A project's single slot, held by another invocation for PROJECT busy; free for the others.
    Object.assign(world.deps, {
      leases: {
        acquire: async (projectId: string, _scope: string, slots: number, holder: string, _now: number, until: number) => {
          expect(slots).toBe(1);
          if (projectId === world.msg.project_id && busy) return null;
          leases.push({ projectId, holder, until, released: false });
          return 0;
        },
        release: async (projectId: string, _scope: string, _slot: number, holder: string) => {
          for (const l of leases) if (l.projectId === projectId && l.holder === holder) l.released = true;
        },
      },
      queue: {
        sendReplay: async (messages: unknown[], options?: { delaySeconds?: number }) => {
          if (sendFails) throw new Error('SQS down');
          sent.push({ messages, delaySeconds: options?.delaySeconds });
        },
      },
    });
  });
  afterEach(() => {
    delete process.env.RTS_PROJECT_WORKER_SHARE;
  });
  let busy = false;

  it('runs the messages of a project with a free slot, holding the lease for the invocation and releasing it after', async () => {
    busy = false;
    const res = await replayWorker({ Records: [record('m1', JSON.stringify(world.msg))] }, context);

    expect(res).toEqual({ batchItemFailures: [] });
    expect(world.deps.runs.runs.get(RUN_ID)?.status).toBe('completed');
    expect(leases).toEqual([{ projectId: world.msg.project_id, holder: 'invocation-1', until: expect.any(Number), released: true }]);
    expect(sent).toEqual([]);
  });

  it('sends the messages of a project holding its whole share back delayed, unrun, and runs the other projects', async () => {
    busy = true;
    const res = await replayWorker({ Records: [record('m1', JSON.stringify(world.msg)), record('m2', JSON.stringify(OTHER))] }, context);

    expect(res).toEqual({ batchItemFailures: [] });
    expect(world.deps.runs.runs.get(RUN_ID)?.status).toBe('queued');
    expect(sent).toEqual([{ messages: [world.msg], delaySeconds: expect.any(Number) }]);
    expect(sent[0].delaySeconds).toBeGreaterThanOrEqual(20);
    expect(sent[0].delaySeconds).toBeLessThanOrEqual(60);
    // The other project took its slot (its run is unknown to this world, which the executor skips) and released it.
    expect(leases).toEqual([{ projectId: 'other-project', holder: 'invocation-1', until: expect.any(Number), released: true }]);
  });

  it('reports the messages it could not send back as failed, so the queue delivers them again', async () => {
    busy = true;
    sendFails = true;
    const res = await replayWorker({ Records: [record('m1', JSON.stringify(world.msg))] }, context);

    expect(res).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });
    expect(world.deps.runs.runs.get(RUN_ID)?.status).toBe('queued');
  });

  it('takes no lease at all without a share (local mode)', async () => {
    delete process.env.RTS_PROJECT_WORKER_SHARE;
    busy = true;
    const res = await replayWorker({ Records: [record('m1', JSON.stringify(world.msg))] }, context);

    expect(res).toEqual({ batchItemFailures: [] });
    expect(world.deps.runs.runs.get(RUN_ID)?.status).toBe('completed');
    expect(leases).toEqual([]);
  });
});

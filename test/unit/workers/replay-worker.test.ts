// The replay queue's SQS handler: each message's run is executed; unreadable bodies are dropped, failures reported per record.
import type { Context, SQSEvent } from 'aws-lambda';
import { makeCampaign, makeWorld, RUN_ID, sqsRecord as record, type FakeWorld } from '../../helpers/replay-fakes';

let world: FakeWorld;
jest.mock('../../../functions/shared/deps', () => ({ getDeps: () => world.deps }));
jest.mock('../../../functions/shared/with-bus', () => ({}));
jest.mock('../../../functions/shared/with-http', () => ({}));

// Imported after the mocks are declared (jest hoists jest.mock above imports).
import { handler as replayWorker } from '../../../functions/workers/replay-worker';

const context = { getRemainingTimeInMillis: () => 300_000 } as Context;

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

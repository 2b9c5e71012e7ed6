import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { makeCampaign, makeWorld, RUN_ID, type FakeWorld } from './fakes';

let world: FakeWorld;
jest.mock('../../../functions/shared/deps', () => ({ getDeps: () => world.deps }));
jest.mock('../../../functions/shared/with-bus', () => ({}));
jest.mock('../../../functions/shared/with-http', () => ({}));

// Imported after the mocks are declared (jest hoists jest.mock above imports).
import { handler as replayWorker } from '../../../functions/workers/replay-worker';
import { ABANDONED_REASON, handler as deadLetter } from '../../../functions/workers/dead-letter';

const record = (messageId: string, body: string): SQSRecord => ({
  messageId,
  receiptHandle: messageId,
  body,
  attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'x', ApproximateFirstReceiveTimestamp: '0' },
  messageAttributes: {},
  md5OfBody: '',
  eventSource: 'aws:sqs',
  eventSourceARN: 'arn:aws:sqs:local:000000000000:rts-replay',
  awsRegion: 'local',
});
const context = {} as Context;

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
      Records: [record('bad-json', '{nope'), record('bad-shape', '{"run_id": 5}'), record('boom', JSON.stringify({ ...world.msg, run_id: 'explodes' })), record('ok', JSON.stringify(world.msg))],
    };
    // Act
    const res = await replayWorker(event, context);
    // Assess
    expect(res).toEqual({ batchItemFailures: [{ itemIdentifier: 'boom' }] });
    expect(world.deps.runs.runs.get(RUN_ID)?.status).toBe('completed');
  });
});

describe('dead-letter handler', () => {
  beforeEach(() => {
    world = makeWorld(makeCampaign({ target: { type: 'recorded' } }));
  });

  it('marks the run failed as abandoned and publishes run.completed', async () => {
    // Act
    const res = await deadLetter({ Records: [record('d1', JSON.stringify(world.msg))] }, context);
    // Assess
    expect(res).toEqual({ batchItemFailures: [] });
    expect(world.deps.runs.runs.get(RUN_ID)).toMatchObject({ status: 'failed', error: ABANDONED_REASON, completion_published: true });
    expect(world.deps.events.published.map((e) => e.envelope.data.status)).toEqual(['failed']);
  });
});

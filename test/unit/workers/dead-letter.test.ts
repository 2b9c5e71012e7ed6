// The replay dead-letter queue's SQS handler: an abandoned run is marked failed and its completion published.
import type { Context } from 'aws-lambda';
import { makeCampaign, makeWorld, RUN_ID, sqsRecord as record, type FakeWorld } from '../../helpers/replay-fakes';

let world: FakeWorld;
jest.mock('../../../functions/wiring/deps', () => ({ getDeps: () => world.deps }));
jest.mock('../../../functions/wiring/with-bus', () => ({}));

// Imported after the mocks are declared (jest hoists jest.mock above imports).
import { ABANDONED_REASON, handler as deadLetter } from '../../../functions/workers/dead-letter';

const context = {} as Context;

describe('dead-letter handler', () => {
  beforeEach(() => {
    world = makeWorld(makeCampaign({ target: { type: 'recorded' } }));
  });

  it('marks the run failed as abandoned and publishes run.completed', async () => {
    // Act
    const res = await deadLetter({ Records: [record('d1', JSON.stringify(world.msg))] }, context);
    // Assess
    expect(res).toEqual({ batchItemFailures: [] });
    expect(world.deps.runs.runs.get(RUN_ID)).toMatchObject({ status: 'failed', error: ABANDONED_REASON });
    expect(world.deps.runs.published.has(RUN_ID)).toBe(true);
    expect(world.deps.events.published.map((e) => e.envelope.data.status)).toEqual(['failed']);
  });
});

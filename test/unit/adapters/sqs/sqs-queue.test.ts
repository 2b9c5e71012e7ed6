// SQS replay queue: message bodies, chunks of 10, only failed messages re-sent, sender faults and persistent failures thrown.
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { SqsQueue } from '../../../../functions/adapters/sqs/sqs-queue';

const sqs = mockClient(SQSClient);
const client = new SQSClient({ region: 'eu-west-1' });
const noWait = async () => undefined;
const QUEUE = 'https://sqs.eu-west-1.amazonaws.com/123456789012/rts-replay';
const msg = (i: number) => ({ project_id: 'p1', run_id: `r${i}` });
const bodies = (call: number) => (sqs.commandCalls(SendMessageBatchCommand)[call].args[0].input.Entries ?? []).map((e) => JSON.parse(e.MessageBody!));

beforeEach(() => {
  sqs.reset();
  process.env.REPLAY_QUEUE_URL = QUEUE;
});

describe('SqsQueue', () => {
  it('sends one message per run with the JSON ReplayMessage body to REPLAY_QUEUE_URL', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });

    await new SqsQueue({ client }).sendReplay([msg(1), msg(2)]);

    const input = sqs.commandCalls(SendMessageBatchCommand)[0].args[0].input;
    expect(input.QueueUrl).toBe(QUEUE);
    expect(bodies(0)).toEqual([msg(1), msg(2)]);
    expect(new Set(input.Entries?.map((e) => e.Id)).size).toBe(2);
  });

  it('carries a part and what a run replays, and nothing else an object holds', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    const replays = { trace_id: 't1', campaign_id: 'c1', campaign_version: 3 };

    await new SqsQueue({ client }).sendReplay([
      { ...msg(1), replays: { ...replays, extra: 'x' } } as never,
      { ...msg(2), part: 2, note: 'local only' } as never,
    ]);

    expect(bodies(0)).toEqual([
      { ...msg(1), replays },
      { ...msg(2), part: 2 },
    ]);
  });

  it('splits 25 messages into calls of 10, 10 and 5', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });

    await new SqsQueue({ client }).sendReplay(Array.from({ length: 25 }, (_, i) => msg(i)));

    expect(
      sqs
        .commandCalls(SendMessageBatchCommand)
        .map((c) => c.args[0].input.Entries?.length)
        .sort(),
    ).toEqual([10, 10, 5].sort());
  });

  it('re-sends only the failed messages', async () => {
    sqs
      .on(SendMessageBatchCommand)
      .resolvesOnce({ Successful: [], Failed: [{ Id: '1', Code: 'InternalError', SenderFault: false }] })
      .resolvesOnce({ Successful: [], Failed: [] });

    await new SqsQueue({ client, sleep: noWait }).sendReplay([msg(0), msg(1), msg(2)]);

    expect(bodies(1)).toEqual([msg(1)]);
  });

  it('throws at once on a sender fault (a retry cannot fix it)', async () => {
    sqs
      .on(SendMessageBatchCommand)
      .resolves({ Successful: [], Failed: [{ Id: '0', Code: 'InvalidMessageContents', Message: 'bad', SenderFault: true }] });

    await expect(new SqsQueue({ client, sleep: noWait }).sendReplay([msg(0)])).rejects.toThrow(
      'SQS SendMessageBatch: 1 of 1 entries still failed after 1 attempt(s) (InvalidMessageContents: bad)',
    );
    expect(sqs.commandCalls(SendMessageBatchCommand)).toHaveLength(1);
  });

  it('throws when messages still fail after the last attempt', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [{ Id: '0', Code: 'ServiceUnavailable', SenderFault: false }] });

    await expect(new SqsQueue({ client, sleep: noWait, maxAttempts: 2 }).sendReplay([msg(0)])).rejects.toThrow(/still failed after 2 attempt/);
    expect(sqs.commandCalls(SendMessageBatchCommand)).toHaveLength(2);
  });

  it('surfaces a failed call with the queue URL, and names a missing REPLAY_QUEUE_URL', async () => {
    sqs.on(SendMessageBatchCommand).rejects(new Error('QueueDoesNotExist'));
    await expect(new SqsQueue({ client }).sendReplay([msg(0)])).rejects.toThrow(`SQS SendMessageBatch to ${QUEUE} failed: QueueDoesNotExist`);

    delete process.env.REPLAY_QUEUE_URL;
    await expect(new SqsQueue({ client }).sendReplay([msg(0)])).rejects.toThrow(/REPLAY_QUEUE_URL/);
  });
});

// EventBridge publishing: entry shape, chunks of 10, only failed entries re-sent, clear errors when they keep failing.
import { EventBridgeClient, PutEventsCommand, type PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import { mockClient } from 'aws-sdk-client-mock';
import { EventBridgePublisher } from '../../../../functions/adapters/eventbridge/eventbridge-publisher';
import type { BusEvent } from '../../../../functions/core/events';

const eb = mockClient(EventBridgeClient);
const client = new EventBridgeClient({ region: 'eu-west-1' });
const noWait = async () => undefined;

const event = (i: number): BusEvent => ({
  id: `evt-${i}`,
  envelope: { event_type: 'run.queued', project_id: 'p1', created_at: '2026-11-21T12:00:00.000000+00:00', data: { run_id: `r${i}` } },
});
const sentEntries = (call: number): PutEventsRequestEntry[] => eb.commandCalls(PutEventsCommand)[call].args[0].input.Entries ?? [];

beforeEach(() => {
  eb.reset();
  process.env.EVENT_BUS_NAME = 'rts-bus';
});

describe('EventBridgePublisher', () => {
  it('sends Source rts, DetailType = event_type and Detail = the BusEvent JSON to the bus named in EVENT_BUS_NAME', async () => {
    eb.on(PutEventsCommand).resolves({ FailedEntryCount: 0, Entries: [{ EventId: 'e1' }] });

    await new EventBridgePublisher({ client }).publish([event(1)]);

    expect(sentEntries(0)).toEqual([
      { Source: 'rts', DetailType: 'run.queued', EventBusName: 'rts-bus', Detail: JSON.stringify({ id: 'evt-1', envelope: event(1).envelope }) },
    ]);
  });

  it('reads EVENT_BUS_NAME at first publish, not at construction, and names it when missing', async () => {
    delete process.env.EVENT_BUS_NAME;
    const publisher = new EventBridgePublisher({ client });

    await expect(publisher.publish([event(1)])).rejects.toThrow(/EVENT_BUS_NAME/);
    expect(eb.commandCalls(PutEventsCommand)).toHaveLength(0);
  });

  it('splits 23 events into calls of 10, 10 and 3', async () => {
    eb.on(PutEventsCommand).callsFake((input) => ({ FailedEntryCount: 0, Entries: input.Entries.map(() => ({ EventId: 'x' })) }));

    await new EventBridgePublisher({ client }).publish(Array.from({ length: 23 }, (_, i) => event(i)));

    expect(
      eb
        .commandCalls(PutEventsCommand)
        .map((c) => c.args[0].input.Entries?.length)
        .sort(),
    ).toEqual([10, 10, 3].sort());
  });

  it('splits by size too, keeping each call under 256 KiB', async () => {
    eb.on(PutEventsCommand).callsFake((input) => ({ FailedEntryCount: 0, Entries: input.Entries.map(() => ({ EventId: 'x' })) }));
    const big = (i: number): BusEvent => ({ ...event(i), envelope: { ...event(i).envelope, data: { blob: 'x'.repeat(100 * 1024) } } });

    await new EventBridgePublisher({ client }).publish([big(1), big(2), big(3)]);

    const calls = eb.commandCalls(PutEventsCommand);
    expect(calls.map((c) => c.args[0].input.Entries?.length)).toEqual([2, 1]);
  });

  it('re-sends only the entries that failed, then succeeds', async () => {
    eb.on(PutEventsCommand)
      .resolvesOnce({
        FailedEntryCount: 2,
        Entries: [
          { EventId: 'a' },
          { ErrorCode: 'ThrottlingException', ErrorMessage: 'slow down' },
          { EventId: 'c' },
          { ErrorCode: 'InternalFailure' },
        ],
      })
      .resolvesOnce({ FailedEntryCount: 0, Entries: [{ EventId: 'b' }, { EventId: 'd' }] });
    const sleeps: number[] = [];

    await new EventBridgePublisher({ client, sleep: async (ms) => void sleeps.push(ms) }).publish([1, 2, 3, 4].map((element) => event(element)));

    expect(sentEntries(1).map((e) => JSON.parse(e.Detail!).id)).toEqual(['evt-2', 'evt-4']);
    expect(sleeps).toEqual([100]);
  });

  it('throws naming the failures when entries still fail after the last attempt', async () => {
    eb.on(PutEventsCommand).resolves({ FailedEntryCount: 1, Entries: [{ ErrorCode: 'InternalFailure', ErrorMessage: 'try again' }] });

    const publishing = new EventBridgePublisher({ client, sleep: noWait, maxAttempts: 3 }).publish([event(1)]);

    await expect(publishing).rejects.toThrow('EventBridge PutEvents: 1 of 1 entries still failed after 3 attempt(s) (InternalFailure: try again)');
    expect(eb.commandCalls(PutEventsCommand)).toHaveLength(3);
  });

  it('surfaces a failed call with the bus name and the cause', async () => {
    eb.on(PutEventsCommand).rejects(new Error('AccessDeniedException: not allowed'));

    await expect(new EventBridgePublisher({ client }).publish([event(1)])).rejects.toThrow(
      'EventBridge PutEvents to bus rts-bus failed: AccessDeniedException: not allowed',
    );
  });

  it('makes no call for no events', async () => {
    await new EventBridgePublisher({ client }).publish([]);

    expect(eb.commandCalls(PutEventsCommand)).toHaveLength(0);
  });
});

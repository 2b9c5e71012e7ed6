// Publishes project events to the EventBridge bus (PutEvents, 10 per call), re-sending only the entries that failed.
import { PutEventsCommand, type EventBridgeClient, type PutEventsCommandOutput, type PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import type { BusEvent } from '../../core/events';
import type { EventPublisher } from '../../core/ports';
import { eventBridgeClient } from '../aws';
import { requireEnv } from '../env';
import { chunk, forEachLimited, retryFailed, type RetryOptions } from '../batch-retry';

/** The `source` of every rts event; the delivery rule matches on it. */
export const EVENT_SOURCE = 'rts';
const MAX_ENTRIES_PER_CALL = 10;
/** PutEvents takes at most 256 KiB per call; a little head-room for the per-entry overhead AWS counts. */
const MAX_BYTES_PER_CALL = 250 * 1024;
/** Calls in flight at once: a run-pack of 1,000 runs emits 2,000 events. */
const CONCURRENT_CALLS = 4;

const entryBytes = (e: PutEventsRequestEntry) =>
  Buffer.byteLength(e.Detail ?? '') + Buffer.byteLength(e.DetailType ?? '') + Buffer.byteLength(e.Source ?? '') + 14;

export interface EventBridgePublisherOptions extends RetryOptions {
  /** Default: the shared client (built once per process). */
  client?: EventBridgeClient;
  /** Default: env EVENT_BUS_NAME, read at first publish. */
  busName?: () => string;
}

/** The EventPublisher port over EventBridge: Source `rts`, DetailType = event_type, Detail = the BusEvent `{id, envelope}`. */
export class EventBridgePublisher implements EventPublisher {
  constructor(private readonly opts: EventBridgePublisherOptions = {}) {}

  async publish(events: BusEvent[]): Promise<void> {
    if (events.length === 0) return;
    const client = this.opts.client ?? eventBridgeClient();
    const EventBusName = (this.opts.busName ?? (() => requireEnv('EVENT_BUS_NAME')))();
    const entries: PutEventsRequestEntry[] = events.map((e) => ({
      Source: EVENT_SOURCE,
      DetailType: e.envelope.event_type,
      Detail: JSON.stringify({ id: e.id, envelope: e.envelope } satisfies BusEvent),
      EventBusName,
    }));
    await forEachLimited(chunk(entries, MAX_ENTRIES_PER_CALL, entryBytes, MAX_BYTES_PER_CALL), CONCURRENT_CALLS, (batch) =>
      retryFailed('EventBridge PutEvents', batch, this.opts, async (pending) => {
        let res: PutEventsCommandOutput;
        try {
          res = await client.send(new PutEventsCommand({ Entries: pending }));
        } catch (err) {
          throw new Error(`EventBridge PutEvents to bus ${EventBusName} failed: ${(err as Error).message}`, { cause: err });
        }
        // Result entries line up with request entries; a failed one carries an ErrorCode.
        const failed: { item: PutEventsRequestEntry; reason: string; retryable: boolean }[] = [];
        if ((res.FailedEntryCount ?? 0) > 0) {
          (res.Entries ?? []).forEach((r, i) => {
            if (r.ErrorCode) failed.push({ item: pending[i], reason: `${r.ErrorCode}: ${r.ErrorMessage ?? ''}`.trim(), retryable: true });
          });
        }
        return failed;
      }),
    );
  }
}

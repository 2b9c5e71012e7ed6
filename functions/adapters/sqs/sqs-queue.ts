// Sends replay jobs to the SQS queue (SendMessageBatch, 10 per call), re-sending only the messages that failed.
import { SendMessageBatchCommand, type SendMessageBatchCommandOutput, type SendMessageBatchRequestEntry, type SQSClient } from '@aws-sdk/client-sqs';
import type { QueuePort, ReplayMessage } from '../../core/ports';
import { sqsClient } from '../aws';
import { requireEnv } from '../env';
import { chunk, forEachLimited, retryFailed, type RetryOptions } from '../batch-retry';

const MAX_ENTRIES_PER_CALL = 10;
const CONCURRENT_CALLS = 4;

export interface SqsQueueOptions extends RetryOptions {
  /** Default: the shared client (built once per process). */
  client?: SQSClient;
  /** Default: env REPLAY_QUEUE_URL, read at first send. */
  queueUrl?: () => string;
}

/** The QueuePort over a standard SQS queue: one message per run, body = JSON ReplayMessage. */
export class SqsQueue implements QueuePort {
  constructor(private readonly opts: SqsQueueOptions = {}) {}

  async sendReplay(messages: ReplayMessage[], options: { delaySeconds?: number } = {}): Promise<void> {
    if (messages.length === 0) return;
    const client = this.opts.client ?? sqsClient();
    const QueueUrl = (this.opts.queueUrl ?? (() => requireEnv('REPLAY_QUEUE_URL')))();
    await forEachLimited(chunk(messages, MAX_ENTRIES_PER_CALL), CONCURRENT_CALLS, async (batch) => {
      // Ids only need to be unique within one call; the index keeps the mapping back to the entry trivial.
      const entries: SendMessageBatchRequestEntry[] = batch.map((m, i) => ({
        Id: String(i),
        MessageBody: JSON.stringify(messageBody(m)),
        // SQS fair queues: one message group per project keeps the other projects' wait short behind a backlog.
        MessageGroupId: m.project_id,
        ...(options.delaySeconds ? { DelaySeconds: Math.min(900, Math.max(0, Math.round(options.delaySeconds))) } : {}),
      }));
      await retryFailed('SQS SendMessageBatch', entries, this.opts, async (pending) => {
        let res: SendMessageBatchCommandOutput;
        try {
          res = await client.send(new SendMessageBatchCommand({ QueueUrl, Entries: pending }));
        } catch (err) {
          throw new Error(`SQS SendMessageBatch to ${QueueUrl} failed: ${(err as Error).message}`, { cause: err });
        }
        const byId = new Map(pending.map((e) => [e.Id, e]));
        return (res.Failed ?? []).map((f) => ({
          item: byId.get(f.Id)!,
          reason: `${f.Code}: ${f.Message ?? ''}`.trim(),
          retryable: !f.SenderFault,
        }));
      });
    });
  }
}

/** A message's body: its own fields only, whatever else the object carries. */
function messageBody(m: ReplayMessage): ReplayMessage {
  const body: ReplayMessage = { project_id: m.project_id, run_id: m.run_id };
  if (m.part !== undefined) body.part = m.part;
  if (m.replays) body.replays = { trace_id: m.replays.trace_id, campaign_id: m.replays.campaign_id, campaign_version: m.replays.campaign_version };
  return body;
}

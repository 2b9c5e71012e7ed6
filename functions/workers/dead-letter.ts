// SQS handler of the replay dead-letter queue: runs abandoned after the queue's retries are marked failed.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { markRunFailed } from '../core/replay/executor';
import { ciOnTerminal } from '../core/ci/aggregate';
import { getDeps } from '../wiring/deps';
import { addLambdaContext, logger } from '../wiring/logger';
import { flushMetrics } from '../wiring/metrics';
import '../wiring/with-bus';
import '../wiring/with-tracing';
import { parseReplayMessage } from '../core/replay/message';
import { meteredDeps } from './run-metrics';

/** The error text a dead-lettered run gets (the replay queue's maxReceiveCount is 3). */
export const ABANDONED_REASON = 'processing abandoned after 3 deliveries';

const processor = new BatchProcessor(EventType.SQS);

async function processRecord(record: SQSRecord): Promise<void> {
  const msg = parseReplayMessage(record.body);
  if (!msg) {
    logger.error('dropping malformed dead-lettered message', { messageId: record.messageId });
    return;
  }
  const run = await markRunFailed(meteredDeps(getDeps()), msg, ABANDONED_REASON, { onTerminal: ciOnTerminal });
  logger.warn('replay message dead-lettered', { messageId: record.messageId, runId: msg.run_id, status: run?.status ?? 'missing' });
}

/** Marks each dead-lettered run failed and publishes run.completed; a record that throws is retried. */
export async function handler(event: SQSEvent, context: Context): Promise<SQSBatchResponse> {
  addLambdaContext(context);
  try {
    // The event source reports item failures, so even a fully failed batch is answered, not thrown.
    return await processPartialResponse(event, processRecord, processor, { context, throwOnFullBatchFailure: false });
  } finally {
    flushMetrics();
  }
}

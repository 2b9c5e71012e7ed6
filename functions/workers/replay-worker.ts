// SQS handler of the replay queue: one message = one run to execute, resume or join (a fanned-out run's part, hand-off
// or sweep, core/replay/fanout/delivery.ts); failures are reported per record.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { executeRun } from '../core/replay/executor';
import { ciOnTerminal } from '../core/ci/aggregate';
import { getDeps } from '../wiring/deps';
import { addLambdaContext, logger } from '../wiring/logger';
import { flushMetrics } from '../wiring/metrics';
import '../wiring/with-bus';
import '../wiring/with-http';
import '../wiring/with-queue';
import '../wiring/with-tracing';
import { parseReplayMessage } from '../core/replay/message';
import { DEADLINE_MARGIN_MS } from '../core/replay/deadline';
import { releaseShares, takeShares, type ShareDecision } from '../core/replay/worker-share';
import { claimLeaseMs, projectWorkerShare } from '../adapters/env';
import { meteredDeps } from './run-metrics';

const processor = new BatchProcessor(EventType.SQS);

async function processRecord(record: SQSRecord, deadlineAt: number, share: ShareDecision): Promise<void> {
  const msg = parseReplayMessage(record.body);
  if (!msg) {
    // Retrying a body that cannot be read would only fail again until the dead-letter queue: drop it now.
    logger.error('dropping malformed replay message', { messageId: record.messageId });
    return;
  }
  if (share.requeued.has(msg.project_id)) {
    logger.info('project holds its share of the workers: message sent back delayed', { messageId: record.messageId, runId: msg.run_id });
    return;
  }
  if (share.unsent.has(msg.project_id)) throw new Error(`run ${msg.run_id}: project over its worker share and the message could not be sent back`);
  const run = await executeRun(meteredDeps(getDeps()), msg, {
    onTerminal: ciOnTerminal,
    deadlineMs: deadlineAt - Date.now(),
    claimLeaseMs: claimLeaseMs(),
  });
  logger.info('replay message processed', { messageId: record.messageId, runId: msg.run_id, part: msg.part, status: run?.status ?? 'missing' });
}

/**
 * Executes each record's run; a record that throws is reported in batchItemFailures and redelivered by SQS. Every run
 * of the batch ends by the invocation's deadline: its remaining time less DEADLINE_MARGIN_MS, kept for storing the
 * attempts the deadline cut and ending the runs (the local queue gives each delivery RTS_RUN_DEADLINE_MS plus that margin).
 * In the cloud the invocation first takes a slot of each project's share of the workers (core/replay/worker-share.ts).
 */
export async function handler(event: SQSEvent, context: Context): Promise<SQSBatchResponse> {
  addLambdaContext(context);
  const deadlineAt = Date.now() + context.getRemainingTimeInMillis() - DEADLINE_MARGIN_MS;
  const deps = getDeps();
  const messages = event.Records.map((r) => parseReplayMessage(r.body)).filter((m) => m !== null);
  const holder = context.awsRequestId;
  const share = await takeShares(deps, messages, { slots: projectWorkerShare(), holder, until: deadlineAt + DEADLINE_MARGIN_MS });
  try {
    // The event source reports item failures, so even a fully failed batch is answered, not thrown.
    return await processPartialResponse(event, (record: SQSRecord) => processRecord(record, deadlineAt, share), processor, {
      context,
      throwOnFullBatchFailure: false,
    });
  } finally {
    await releaseShares(deps, share, holder);
    flushMetrics();
  }
}

// The replay pipeline: SQS queue -> worker (partial batch failures), dead-letter queue -> dead-letter consumer, alarms.
import { Duration, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as events from 'aws-cdk-lib/aws-events';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { workerHandlers } from '../routes';
import { errorsAlarm, queueDepthAlarm, type AlarmSink } from './alarms';
import { type RuntimeSettings, ServiceFunction } from './service-function';

export interface ReplayPipelineProps {
  readonly table: dynamodb.ITable;
  readonly bus: events.IEventBus;
  readonly settings: RuntimeSettings;
  readonly alarms: AlarmSink;
  /**
   * Worker timeout, which bounds every run: the worker ends a run's unfinished attempts (error
   * `run_deadline_exceeded`) at its remaining time less a 15 s margin kept for storing them and ending the run
   * (functions/core/replay/deadline.ts), so one run holds a worker for at most this long.
   * @default Duration.minutes(5)
   */
  readonly workerTimeout?: Duration;
  /** Messages per worker invocation. @default 5 */
  readonly batchSize?: number;
  /**
   * Most worker instances the queue drives at once. Bounded so a large run-pack or CI batch cannot take
   * the account's Lambda concurrency from the API functions, nor flood customers' agents; with the run
   * deadline, a project's runs stuck on a hanging agent hold these workers for at most the worker timeout.
   * @default 20
   */
  readonly maxConcurrency?: number;
  /**
   * Worker invocations one project may hold at once (functions/core/replay/worker-share.ts): an invocation over it
   * sends the project's messages back delayed, leaving the other workers to the other projects. At maxConcurrency
   * or more there is no share (and no lease is taken).
   * @default 15
   */
  readonly projectWorkerShare?: number;
  /** Deliveries before a message is dead-lettered. @default 3 */
  readonly maxReceiveCount?: number;
  /**
   * Lease of a fanned-out run's attempt claims (functions/core/replay/fanout/claims.ts): a worker that dies mid-run
   * has the attempts it held run again this long after (RTS_CLAIM_LEASE_MS). @default Duration.seconds(30)
   */
  readonly attemptClaimLease?: Duration;
}

/** Worker invocations one project may hold at once, of the default 20. */
export const DEFAULT_PROJECT_WORKER_SHARE = 15;

/** The queue's visibility timeout is this multiple of the worker timeout (AWS guidance for Lambda event sources). */
export const VISIBILITY_FACTOR = 6;

/**
 * Replay queue with a dead-letter queue, the replay worker consuming it with partial batch failure
 * reporting, and the dead-letter consumer that marks abandoned runs `failed` and emits `run.completed`.
 */
export class ReplayPipeline extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;
  readonly worker: ServiceFunction;
  readonly deadLetterConsumer: ServiceFunction;

  constructor(scope: Construct, id: string, props: ReplayPipelineProps) {
    super(scope, id);
    const workerTimeout = props.workerTimeout ?? Duration.minutes(5);

    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetterQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      // The consumer may take a while to mark a run failed; keep it above the consumer's timeout.
      visibilityTimeout: Duration.minutes(6),
    });
    this.queue = new sqs.Queue(this, 'Queue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: Duration.seconds(workerTimeout.toSeconds() * VISIBILITY_FACTOR),
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: props.maxReceiveCount ?? 3 },
    });

    this.worker = new ServiceFunction(this, 'Worker', {
      entry: workerHandlers.replayWorker,
      description: 'rts replay worker',
      settings: props.settings,
      timeout: workerTimeout,
      memorySize: 1024,
    })
      .bindTable(props.table, 'readwrite')
      .bindBus(props.bus)
      // Requeues a project's messages over its share, and sends a long run's fan-out parts, hand-offs and sweeps.
      .bindQueue(this.queue);
    if (props.attemptClaimLease) this.worker.fn.addEnvironment('RTS_CLAIM_LEASE_MS', String(props.attemptClaimLease.toMilliseconds()));
    const maxConcurrency = props.maxConcurrency ?? 20;
    const share = props.projectWorkerShare ?? DEFAULT_PROJECT_WORKER_SHARE;
    if (!Number.isInteger(share) || share < 1) throw new Error(`projectWorkerShare must be a positive integer, got ${share}`);
    if (share < maxConcurrency) this.worker.fn.addEnvironment('RTS_PROJECT_WORKER_SHARE', String(share));
    this.worker.fn.addEventSource(new SqsEventSource(this.queue, { batchSize: props.batchSize ?? 5, maxConcurrency, reportBatchItemFailures: true }));

    this.deadLetterConsumer = new ServiceFunction(this, 'DeadLetterConsumer', {
      entry: workerHandlers.deadLetter,
      description: 'rts replay dead-letter consumer',
      settings: props.settings,
      timeout: Duration.minutes(1),
    })
      .bindTable(props.table, 'readwrite')
      .bindBus(props.bus);
    this.deadLetterConsumer.fn.addEventSource(new SqsEventSource(this.deadLetterQueue, { batchSize: 10, reportBatchItemFailures: true }));

    queueDepthAlarm(this, 'DeadLetterDepth', this.deadLetterQueue, 'Replay messages were dead-lettered: runs abandoned after retries.', props.alarms);
    // The consumer drains the dead-letter queue quickly, so depth alone can miss a dead-letter; each consumer invocation is one.
    props.alarms.add(
      new cloudwatch.Alarm(this, 'DeadLetteredAlarm', {
        alarmDescription: 'The dead-letter consumer ran: at least one run was abandoned and marked failed.',
        metric: this.deadLetterConsumer.fn.metricInvocations({ period: Duration.minutes(5), statistic: 'Sum' }),
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );
    errorsAlarm(this, 'WorkerErrors', this.worker, props.alarms);
    errorsAlarm(this, 'DeadLetterConsumerErrors', this.deadLetterConsumer, props.alarms);

    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        "This queue is the replay queue's dead-letter queue; its messages go to the dead-letter consumer, and a queue for the dead-letter queue would only defer the same failure.",
    });
  }
}

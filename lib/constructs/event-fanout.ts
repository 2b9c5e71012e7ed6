// Event fan-out: the custom bus, a rule sending every project event to the webhook delivery function, its DLQ and alarms.
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { workerHandlers } from '../routes';
import { queueDepthAlarm, type AlarmSink } from './alarms';
import { type RuntimeSettings, ServiceFunction } from './service-function';

/** The `source` every rts event carries on the bus. */
export const EVENT_SOURCE = 'rts';

/** Concurrent executions reserved for (and capping) the delivery function unless the stack says otherwise. */
export const DEFAULT_DELIVERY_CONCURRENCY = 50;

export interface EventFanoutProps {
  readonly table: dynamodb.ITable;
  readonly settings: RuntimeSettings;
  readonly alarms: AlarmSink;
  /**
   * Delivery function timeout. One webhook takes at most 4 tries x 5 s plus 3.5 s of back-off
   * (docs/webhooks.md#delivery-policy-retries-and-last_error); the margin covers several webhooks delivered in
   * parallel and table writes.
   * @default Duration.seconds(60)
   */
  readonly deliveryTimeout?: Duration;
  /** EventBridge retries when the function cannot be invoked (throttling, service errors). @default 4 */
  readonly retryAttempts?: number;
  /** Oldest event EventBridge still tries to hand over. @default Duration.hours(2) */
  readonly maxEventAge?: Duration;
  /**
   * Reserved concurrency of the delivery function: at most this many deliveries (fan-outs and commands) run at once,
   * so a burst of them (a recover, tests against a hanging receiver) cannot take the account's concurrency from the
   * API and the replay workers; what exceeds it waits in Lambda's asynchronous queue (up to 6 h) instead.
   * @default DEFAULT_DELIVERY_CONCURRENCY (50)
   */
  readonly deliveryConcurrency?: number;
}

/**
 * Custom EventBridge bus; a rule matching every rts event invokes the signing delivery function.
 * Both failure paths end in one encrypted dead-letter queue: events EventBridge could not hand to
 * Lambda (rule target DLQ) and invocations that still failed after Lambda's own async retries
 * (function DLQ). Retries are safe: the function deduplicates on the bus event id.
 */
export class EventFanout extends Construct {
  readonly bus: events.EventBus;
  readonly rule: events.Rule;
  readonly deadLetterQueue: sqs.Queue;
  readonly delivery: ServiceFunction;

  constructor(scope: Construct, id: string, props: EventFanoutProps) {
    super(scope, id);
    this.bus = new events.EventBus(this, 'Bus', { description: 'rts project events' });
    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetterQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });

    this.delivery = new ServiceFunction(this, 'WebhookDelivery', {
      entry: workerHandlers.webhookDelivery,
      description: 'rts webhook delivery',
      settings: props.settings,
      timeout: props.deliveryTimeout ?? Duration.seconds(60),
      deadLetterQueue: this.deadLetterQueue,
      // Lambda's async retries cover a crashed or timed-out invocation (and run a deferred delivery again); delivery
      // is deduplicated per event and webhook.
      retryAttempts: 2,
      // Invocations beyond the reserved concurrency wait in Lambda's queue: the longest it keeps them.
      maxEventAge: Duration.hours(6),
      reservedConcurrentExecutions: props.deliveryConcurrency ?? DEFAULT_DELIVERY_CONCURRENCY,
    }).bindTable(props.table, 'readwrite');

    this.rule = new events.Rule(this, 'AllProjectEvents', {
      eventBus: this.bus,
      description: 'Every rts project event -> signed webhook delivery',
      eventPattern: { source: [EVENT_SOURCE] },
      targets: [
        new targets.LambdaFunction(this.delivery.fn, {
          retryAttempts: props.retryAttempts ?? 4,
          maxEventAge: props.maxEventAge ?? Duration.hours(2),
          deadLetterQueue: this.deadLetterQueue,
        }),
      ],
    });

    queueDepthAlarm(
      this,
      'DeadLetterDepth',
      this.deadLetterQueue,
      'Webhook events were dead-lettered: some deliveries were never attempted to completion.',
      props.alarms,
    );
    this.deliveryErrorsAlarm(props.alarms);

    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: "This queue is itself the dead-letter queue of the event rule target and of the delivery function's async invocations.",
    });
  }

  /**
   * Fires when the delivery function reports an error in a 5-minute window, deferrals aside: a recovered delivery
   * whose predecessor is still running throws to be run again later (counted as WebhookDeliveries, outcome deferred).
   */
  private deliveryErrorsAlarm(sink: AlarmSink): void {
    const fn = this.delivery.fn;
    const period = Duration.minutes(5);
    const deferred = new cloudwatch.Metric({
      namespace: 'rts',
      metricName: 'WebhookDeliveries',
      dimensionsMap: { service: Stack.of(this).stackName, outcome: 'deferred' },
      period,
      statistic: 'Sum',
    });
    sink.add(
      new cloudwatch.Alarm(this, 'DeliveryErrors', {
        alarmDescription: `Errors in ${fn.node.path} (deferred deliveries aside).`,
        metric: new cloudwatch.MathExpression({
          expression: 'FILL(errors, 0) - FILL(deferred, 0)',
          usingMetrics: { errors: fn.metricErrors({ period, statistic: 'Sum' }), deferred },
          period,
          label: 'Delivery errors other than deferrals',
        }),
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );
  }
}

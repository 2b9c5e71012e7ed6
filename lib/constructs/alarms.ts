// Alarm helpers and the topic every alarm notifies (optionally e-mailed to an operator).
import { Duration, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { ServiceFunction } from './service-function';

export interface AlarmSinkProps {
  /** E-mail address subscribed to the alarm topic. @default - no subscription */
  readonly email?: string;
}

/** The SNS topic alarms notify; collects every alarm so tests and dashboards can list them. */
export class AlarmSink extends Construct {
  readonly topic: sns.Topic;
  readonly alarms: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: AlarmSinkProps = {}) {
    super(scope, id);
    this.topic = new sns.Topic(this, 'Topic', {
      displayName: 'rts alarms',
      enforceSSL: true,
    });
    Validations.of(this.topic).acknowledge({
      id: 'AwsSolutions-SNS2',
      reason:
        'CloudWatch alarms cannot publish to a topic under the AWS-managed SNS key, and the notifications carry only alarm names and states, nothing worth a customer-managed key.',
    });
    if (props.email) this.topic.addSubscription(new subscriptions.EmailSubscription(props.email));
  }

  add(alarm: cloudwatch.Alarm): cloudwatch.Alarm {
    alarm.addAlarmAction(new actions.SnsAction(this.topic));
    this.alarms.push(alarm);
    return alarm;
  }
}

/** Fires when any message is visible in the queue (used on dead-letter queues, where any message is a failure). */
export function queueDepthAlarm(scope: Construct, id: string, queue: sqs.IQueue, description: string, sink: AlarmSink): cloudwatch.Alarm {
  return sink.add(
    new cloudwatch.Alarm(scope, id, {
      alarmDescription: description,
      metric: queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    }),
  );
}

/** Fires when the function reports any error in a 5-minute window. */
export function errorsAlarm(scope: Construct, id: string, fn: ServiceFunction, sink: AlarmSink): cloudwatch.Alarm {
  return sink.add(
    new cloudwatch.Alarm(scope, id, {
      alarmDescription: `Errors in ${fn.fn.node.path}.`,
      metric: fn.fn.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }),
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    }),
  );
}

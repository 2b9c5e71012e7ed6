// The table, the replay queue pipeline, the event fan-out and the alarms as synthesised.
import { Duration } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { GSIS, TABLE_KEYS } from '../../lib/table';
import { VISIBILITY_FACTOR } from '../../lib/constructs/replay-pipeline';
import { buildStack, functionIdByDescription, ofType } from './stack-fixture';

const built = buildStack();
const { template } = built;

describe('table', () => {
  const [[tableId, table]] = ofType(built, 'AWS::DynamoDB::Table');

  it('is on-demand with point-in-time recovery, AWS-managed KMS encryption and the TTL attribute', () => {
    expect(table.Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      SSESpecification: { SSEEnabled: true },
      TimeToLiveSpecification: { AttributeName: TABLE_KEYS.ttlAttribute, Enabled: true },
    });
    expect(table.Properties!.SSESpecification.KMSMasterKeyId).toBeUndefined();
  });

  it('has the key schema and GSIs of lib/table.ts', () => {
    expect(table.Properties!.KeySchema).toEqual([
      { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
    ]);
    expect(table.Properties!.GlobalSecondaryIndexes).toEqual(
      GSIS.map((g) => ({
        IndexName: g.indexName,
        KeySchema: [
          { AttributeName: g.partitionKey, KeyType: 'HASH' },
          { AttributeName: g.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'KEYS_ONLY' },
      })),
    );
  });

  it('is retained when the stack is deleted or the table replaced', () => {
    template.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    expect(tableId).toBeTruthy();
  });
});

describe('replay pipeline', () => {
  const worker = built.resources[functionIdByDescription(built, 'rts replay worker')];
  const queues = ofType(built, 'AWS::SQS::Queue');
  const replayQueue = queues.find(([, q]) => q.Properties!.RedrivePolicy)!;
  const dlqId = replayQueue[1].Properties!.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0];

  it('dead-letters a message after 3 receives into a queue kept 14 days', () => {
    expect(replayQueue[1].Properties!.RedrivePolicy.maxReceiveCount).toBe(3);
    expect(built.resources[dlqId].Properties!.MessageRetentionPeriod).toBe(14 * 24 * 3600);
  });

  it('hides a message for at least 6x the worker timeout', () => {
    expect(worker.Properties!.Timeout).toBe(300);
    expect(replayQueue[1].Properties!.VisibilityTimeout).toBeGreaterThanOrEqual(VISIBILITY_FACTOR * worker.Properties!.Timeout);
  });

  it('keeps the 6x ratio for a longer worker timeout', () => {
    const long = buildStack({ workerTimeout: Duration.minutes(15) });
    const q = ofType(long, 'AWS::SQS::Queue').find(([, r]) => r.Properties!.RedrivePolicy)![1];

    expect(long.resources[functionIdByDescription(long, 'rts replay worker')].Properties!.Timeout).toBe(900);
    expect(q.Properties!.VisibilityTimeout).toBe(5400);
  });

  it('encrypts every queue with SQS-managed keys and refuses plain-HTTP access', () => {
    for (const [id, q] of queues) {
      expect(q.Properties!.SqsManagedSseEnabled).toBe(true);
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: id }],
        PolicyDocument: {
          Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
        },
      });
    }
  });

  it('feeds the worker in small batches, bounded concurrency, with partial batch failure reporting', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [replayQueue[0], 'Arn'] },
      FunctionName: { Ref: functionIdByDescription(built, 'rts replay worker') },
      BatchSize: 5,
      ScalingConfig: { MaximumConcurrency: 20 },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it('gives one project 15 of the 20 workers at once, and no share when the share reaches the concurrency', () => {
    const env = (b: typeof built) => b.resources[functionIdByDescription(b, 'rts replay worker')].Properties!.Environment.Variables;
    expect(env(built).RTS_PROJECT_WORKER_SHARE).toBe('15');
    expect(env(buildStack({ projectWorkerShare: 20 })).RTS_PROJECT_WORKER_SHARE).toBeUndefined();
  });

  it('leaves the attempt claim lease at its 30 s default unless the context sets it', () => {
    const env = (b: typeof built) => b.resources[functionIdByDescription(b, 'rts replay worker')].Properties!.Environment.Variables;
    expect(env(built).RTS_CLAIM_LEASE_MS).toBeUndefined();
    expect(env(buildStack({ attemptClaimLease: Duration.seconds(45) })).RTS_CLAIM_LEASE_MS).toBe('45000');
  });

  it('feeds the dead-letter queue to the dead-letter consumer', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [dlqId, 'Arn'] },
      FunctionName: { Ref: functionIdByDescription(built, 'rts replay dead-letter consumer') },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });
});

describe('event fan-out', () => {
  const deliveryId = functionIdByDescription(built, 'rts webhook delivery');
  const [[, rule]] = ofType(built, 'AWS::Events::Rule');
  const [[busId]] = ofType(built, 'AWS::Events::EventBus');

  it('routes every rts event on the custom bus to the delivery function', () => {
    expect(rule.Properties!.EventBusName).toEqual({ Ref: busId });
    expect(rule.Properties!.EventPattern).toEqual({ source: ['rts'] });
    expect(rule.Properties!.Targets).toHaveLength(1);
    expect(rule.Properties!.Targets[0].Arn).toEqual({ 'Fn::GetAtt': [deliveryId, 'Arn'] });
  });

  it('retries the target and dead-letters what it cannot hand over', () => {
    const target = rule.Properties!.Targets[0];

    expect(target.RetryPolicy).toEqual({ MaximumRetryAttempts: 4, MaximumEventAgeInSeconds: 7200 });
    const dlqId = target.DeadLetterConfig.Arn['Fn::GetAtt'][0];
    expect(built.resources[dlqId].Type).toBe('AWS::SQS::Queue');
    expect(built.resources[deliveryId].Properties!.DeadLetterConfig).toEqual({ TargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] } });
  });

  it('gives the delivery function time for 4 tries of 5 s plus back-off', () => {
    expect(built.resources[deliveryId].Properties!.Timeout).toBeGreaterThanOrEqual(30);
  });
});

describe('alarms', () => {
  const alarms = ofType(built, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties!);
  const [[topicId]] = ofType(built, 'AWS::SNS::Topic');
  const queueAlarm = (metric: string) => alarms.filter((a) => a.Namespace === 'AWS/SQS' && a.MetricName === metric);
  const errorAlarmFor = (description: string) =>
    alarms.find((a) => a.MetricName === 'Errors' && JSON.stringify(a.Dimensions).includes(functionIdByDescription(built, description)));

  it('watches both dead-letter queues for any visible message', () => {
    const depth = queueAlarm('ApproximateNumberOfMessagesVisible');

    expect(depth).toHaveLength(2);
    for (const a of depth) expect(a).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold', Statistic: 'Maximum' });
  });

  // The webhook delivery function's alarm leaves its deferrals out: test/infra/webhook-bounds.test.ts.
  it.each(['rts replay worker', 'rts replay dead-letter consumer'])('alarms on errors of the %s', (description) => {
    expect(errorAlarmFor(description)).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
  });

  it('notifies the alarm topic', () => {
    for (const a of alarms) expect(a.AlarmActions).toEqual([{ Ref: topicId }]);
  });
});

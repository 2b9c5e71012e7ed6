// The bounds of webhook delivery in the cloud as synthesised: the delivery function's reserved concurrency (a stack
// prop and context value), how long throttled invocations may wait, the send budget's variable on the route
// functions, and the delivery error alarm that leaves deferrals out.
import { App } from 'aws-cdk-lib';
import { DEFAULT_DELIVERY_CONCURRENCY } from '../../lib/constructs/event-fanout';
import { stackPropsFromContext } from '../../lib/service-stack';
import { buildStack, functionIdByDescription, ofType, type Built } from './stack-fixture';

const built = buildStack();
const delivery = (b: Built) => b.resources[functionIdByDescription(b, 'rts webhook delivery')].Properties!;

describe('webhook delivery bounds', () => {
  it('reserves (and caps) the delivery function at 50 concurrent executions by default', () => {
    expect(DEFAULT_DELIVERY_CONCURRENCY).toBe(50);
    expect(delivery(built).ReservedConcurrentExecutions).toBe(50);
  });

  it('keeps invocations waiting beyond the cap for up to 6 hours, with 2 retries (a deferred delivery runs again)', () => {
    const [, config] = ofType(built, 'AWS::Lambda::EventInvokeConfig').find(([, r]) =>
      JSON.stringify(r.Properties).includes(functionIdByDescription(built, 'rts webhook delivery')),
    )!;
    expect(config.Properties).toMatchObject({ MaximumEventAgeInSeconds: 6 * 3600, MaximumRetryAttempts: 2 });
  });

  it('takes the cap and the per-project send budget from the stack props, and from CDK context', () => {
    const props = stackPropsFromContext(new App({ context: { webhookDeliveryConcurrency: '8', webhookSendsPerMinute: '20' } }).node);
    const custom = buildStack(props);

    expect(props).toMatchObject({ webhookDeliveryConcurrency: 8, webhookSendsPerMinute: 20 });
    expect(delivery(custom).ReservedConcurrentExecutions).toBe(8);
    const test = custom.resources[functionIdByDescription(custom, 'rts POST /v1/webhooks/{webhook_id}/test')].Properties!;
    expect(test.Environment.Variables.RTS_WEBHOOK_SENDS_PER_MINUTE).toBe('20');
    expect(delivery(built).Environment.Variables.RTS_WEBHOOK_SENDS_PER_MINUTE).toBeUndefined();
    for (const bad of ['0', '2.5', 'many']) {
      expect(() => stackPropsFromContext(new App({ context: { webhookDeliveryConcurrency: bad } }).node)).toThrow(/webhookDeliveryConcurrency/);
    }
  });

  it('alarms on delivery errors other than deferrals', () => {
    const alarm = ofType(built, 'AWS::CloudWatch::Alarm')
      .map(([, a]) => a.Properties!)
      .find((a) => String(a.AlarmDescription ?? '').includes('deferred deliveries aside'))!;
    const byId = Object.fromEntries((alarm.Metrics as { Id: string; MetricStat?: any; Expression?: string }[]).map((m) => [m.Id, m]));

    expect(alarm).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
    expect(byId.errors.MetricStat.Metric).toMatchObject({ Namespace: 'AWS/Lambda', MetricName: 'Errors' });
    expect(JSON.stringify(byId.errors.MetricStat.Metric.Dimensions)).toContain(functionIdByDescription(built, 'rts webhook delivery'));
    expect(byId.deferred.MetricStat.Metric).toMatchObject({ Namespace: 'rts', MetricName: 'WebhookDeliveries' });
    expect(byId.deferred.MetricStat.Metric.Dimensions).toEqual(expect.arrayContaining([{ Name: 'outcome', Value: 'deferred' }]));
    expect(Object.values(byId).find((m) => m.Expression)!.Expression).toBe('FILL(errors, 0) - FILL(deferred, 0)');
  });
});

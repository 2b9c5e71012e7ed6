// The rts stack: composes the single table, the event fan-out, the replay pipeline and the API; reads its settings from CDK context.
import { CfnOutput, Duration, Lazy, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct, Node } from 'constructs';
import { AlarmSink } from './constructs/alarms';
import { Api, type ThrottleSettings } from './constructs/api';
import { EventFanout } from './constructs/event-fanout';
import { ReplayPipeline } from './constructs/replay-pipeline';
import type { RuntimeSettings } from './constructs/service-function';
import { GSIS, TABLE_KEYS } from './table';

export interface ServiceStackProps extends StackProps {
  /** Deployment stage: API Gateway stage name and part of the stack name. @default 'prod' */
  readonly stage?: string;
  /** RTS_ALLOW_PRIVATE_TARGETS for every function. @default false */
  readonly allowPrivateTargets?: boolean;
  /** Base of `dashboard_url` in API responses and events. @default `<api url>/dashboard` */
  readonly dashboardUrl?: string;
  /** E-mail subscribed to the alarm topic. @default - none */
  readonly alarmEmail?: string;
  /** Stage-wide API throttle. @default { rateLimit: 100, burstLimit: 200 } */
  readonly throttle?: ThrottleSettings;
  /** Per-project throttle in the usage plan. @default { rateLimit: 20, burstLimit: 40 } */
  readonly projectThrottle?: ThrottleSettings;
  /** Enforce the per-project usage plan (projects must be registered as API keys). @default false */
  readonly perProjectThrottling?: boolean;
  /** Create the account-level API Gateway logging role. @default true */
  readonly apiGatewayCloudWatchRole?: boolean;
  /** Replay worker timeout; the queue hides a message 6x as long. @default Duration.minutes(5) */
  readonly workerTimeout?: Duration;
  /** Reserved concurrency of the webhook delivery function (context `webhookDeliveryConcurrency`). @default 50 */
  readonly webhookDeliveryConcurrency?: number;
  /** Deliveries one project may queue with webhook test/resend/recover per minute (context `webhookSendsPerMinute`). @default 60 */
  readonly webhookSendsPerMinute?: number;
  /** Replay worker invocations one project may hold at once, of the workers' 20 (context `projectWorkerShare`). @default 15 */
  readonly projectWorkerShare?: number;
  /**
   * Lease of a fanned-out run's attempt claims (context `attemptClaimLeaseSeconds`): a worker that dies mid-run has
   * its attempts run again this long after. @default Duration.seconds(30)
   */
  readonly attemptClaimLease?: Duration;
}

/** The whole service in one stack. The table is retained when the stack is deleted. */
export class ServiceStack extends Stack {
  readonly table: dynamodb.Table;
  readonly api: Api;
  readonly pipeline: ReplayPipeline;
  readonly fanout: EventFanout;
  readonly alarms: AlarmSink;

  constructor(scope: Construct, id: string, props: ServiceStackProps = {}) {
    super(scope, id, props);

    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: TABLE_KEYS.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.sortKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      timeToLiveAttribute: TABLE_KEYS.ttlAttribute,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const g of GSIS) {
      this.table.addGlobalSecondaryIndex({
        indexName: g.indexName,
        partitionKey: { name: g.partitionKey, type: dynamodb.AttributeType.STRING },
        sortKey: { name: g.sortKey, type: dynamodb.AttributeType.STRING },
        projectionType: dynamodb.ProjectionType[g.projection],
      });
    }

    // One cursor-signing key for every function, generated at deploy time, never in the template; the list functions
    // read it at run time (ServiceFunction's `signsCursors`).
    const cursorSecret = new secretsmanager.Secret(this, 'CursorSecret', {
      description: 'rts: HMAC key of pagination cursors (read by the list functions, RTS_CURSOR_SECRET_ARN)',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });
    Validations.of(cursorSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'The key only makes pagination cursors tamper-evident (it grants no access); a rotation would just invalidate every cursor in flight. An operator can still replace the value (put-secret-value): functions read it again within 5 minutes.',
    });
    // The API's URL exists only once the API does, but the workers built before it need it too (CI decision
    // events carry dashboard_url): lazy tokens resolve at synthesis, with no cycle in the template.
    const settings: RuntimeSettings = {
      allowPrivateTargets: props.allowPrivateTargets ?? false,
      dashboardUrl: props.dashboardUrl ?? Lazy.string({ produce: () => this.api.dashboardUrl }),
      publicUrl: Lazy.string({ produce: () => this.api.publicUrl }),
      cursorSecret,
      webhookSendsPerMinute: props.webhookSendsPerMinute,
    };

    this.alarms = new AlarmSink(this, 'Alarms', { email: props.alarmEmail });
    this.fanout = new EventFanout(this, 'Events', {
      table: this.table,
      settings,
      alarms: this.alarms,
      deliveryConcurrency: props.webhookDeliveryConcurrency,
    });
    this.pipeline = new ReplayPipeline(this, 'Replay', {
      table: this.table,
      bus: this.fanout.bus,
      settings,
      alarms: this.alarms,
      workerTimeout: props.workerTimeout,
      projectWorkerShare: props.projectWorkerShare,
      attemptClaimLease: props.attemptClaimLease,
    });
    this.api = new Api(this, 'Api', {
      table: this.table,
      queue: this.pipeline.queue,
      bus: this.fanout.bus,
      settings,
      stageName: props.stage ?? 'prod',
      throttle: props.throttle,
      projectThrottle: props.projectThrottle,
      perProjectThrottling: props.perProjectThrottling,
      cloudWatchRole: props.apiGatewayCloudWatchRole,
    });

    new CfnOutput(this, 'ApiUrl', { value: this.api.restApi.url, description: 'Base URL for RTS_API_URL (routes are under /v1)' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'For `rts admin ... --table`' });
    new CfnOutput(this, 'DashboardUrl', { value: settings.dashboardUrl! });
    new CfnOutput(this, 'EventBusName', { value: this.fanout.bus.eventBusName });
    new CfnOutput(this, 'ReplayQueueUrl', { value: this.pipeline.queue.queueUrl });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.alarms.topic.topicArn });
    new CfnOutput(this, 'UsagePlanId', {
      value: this.api.usagePlan.usagePlanId,
      description: 'Register project ids here for per-project throttling',
    });
  }
}

/** Reads the stack settings from CDK context (`-c key=value` arrives as a string, cdk.json values as JSON). */
export function stackPropsFromContext(node: Node): ServiceStackProps {
  const str = (key: string): string | undefined => {
    const v = node.tryGetContext(key);
    return v === undefined || v === null || v === '' ? undefined : String(v);
  };
  const bool = (key: string): boolean | undefined => {
    const v = str(key);
    if (v === undefined) return undefined;
    if (v !== 'true' && v !== 'false') throw new Error(`Context ${key} must be true or false, got ${v}`);
    return v === 'true';
  };
  const num = (key: string): number | undefined => {
    const v = str(key);
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0) throw new Error(`Context ${key} must be a non-negative number, got ${v}`);
    return n;
  };
  const throttle = (rateKey: string, burstKey: string): ThrottleSettings | undefined => {
    const rateLimit = num(rateKey);
    const burstLimit = num(burstKey);
    if (rateLimit === undefined && burstLimit === undefined) return undefined;
    return { rateLimit: rateLimit ?? burstLimit!, burstLimit: burstLimit ?? Math.ceil(rateLimit! * 2) };
  };
  const workerMinutes = num('workerTimeoutMinutes');
  if (workerMinutes !== undefined && (workerMinutes < 1 || workerMinutes > 15))
    throw new Error(`Context workerTimeoutMinutes must be 1-15, got ${workerMinutes}`);
  const claimLeaseSeconds = num('attemptClaimLeaseSeconds');
  if (claimLeaseSeconds !== undefined && !(Number.isInteger(claimLeaseSeconds) && claimLeaseSeconds >= 1 && claimLeaseSeconds <= 900))
    throw new Error(`Context attemptClaimLeaseSeconds must be a whole number 1-900, got ${claimLeaseSeconds}`);
  const positiveInt = (key: string): number | undefined => {
    const n = num(key);
    if (n !== undefined && (!Number.isInteger(n) || n < 1)) throw new Error(`Context ${key} must be a positive integer, got ${n}`);
    return n;
  };
  const stage = str('stage') ?? 'prod';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(stage)) throw new Error(`Context stage must match [A-Za-z0-9_-]{1,64}, got ${stage}`);
  return {
    stage,
    allowPrivateTargets: bool('allowPrivateTargets') ?? false,
    dashboardUrl: str('dashboardUrl'),
    alarmEmail: str('alarmEmail'),
    throttle: throttle('throttleRate', 'throttleBurst'),
    projectThrottle: throttle('projectThrottleRate', 'projectThrottleBurst'),
    perProjectThrottling: bool('perProjectThrottling') ?? false,
    apiGatewayCloudWatchRole: bool('apiGatewayCloudWatchRole') ?? true,
    workerTimeout: workerMinutes === undefined ? undefined : Duration.minutes(workerMinutes),
    webhookDeliveryConcurrency: positiveInt('webhookDeliveryConcurrency'),
    webhookSendsPerMinute: positiveInt('webhookSendsPerMinute'),
    projectWorkerShare: positiveInt('projectWorkerShare'),
    attemptClaimLease: claimLeaseSeconds === undefined ? undefined : Duration.seconds(claimLeaseSeconds),
  };
}

// ServiceFunction: the one place that fixes runtime, architecture, bundling, logs and tracing, plus least-privilege bind helpers.
import { existsSync } from 'node:fs';
import { AssetHashType, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { ROUTE_TIMEOUT_S } from '../routes';
import { GSIS } from '../table';
import { BUNDLE, REPO_ROOT, copyBundle, entryFile } from './bundling';

/** Settings every function of a deployment shares (read from CDK context by the stack). */
export interface RuntimeSettings {
  /** RTS_ALLOW_PRIVATE_TARGETS: let webhooks and agent targets reach private addresses. @default false */
  readonly allowPrivateTargets: boolean;
  /** RTS_DASHBOARD_URL: base of every `dashboard_url`. @default - unset, the handler derives it */
  readonly dashboardUrl?: string;
  /** RTS_PUBLIC_URL: public base URL of the API (no trailing slash). @default - unset */
  readonly publicUrl?: string;
  /**
   * The secret holding the key that signs pagination cursors. Functions with `signsCursors` read it at run time
   * (RTS_CURSOR_SECRET_ARN names it; never its value). Without it the first listing would store a generated key in the
   * table, which read-only functions are not allowed to do. @default - none
   */
  readonly cursorSecret?: secretsmanager.ISecret;
  /**
   * RTS_WEBHOOK_SENDS_PER_MINUTE: deliveries one project may queue with webhook test, resend and recover per minute.
   * @default - unset, the code's default (60)
   */
  readonly webhookSendsPerMinute?: number;
}

export interface ServiceFunctionProps {
  /** Handler module from the repository root without extension, e.g. `functions/http/get-health`; it exports `handler`. */
  readonly entry: string;
  /** Shown in the console; route functions use `METHOD /path`. */
  readonly description?: string;
  readonly settings: RuntimeSettings;
  /**
   * Memory in MB. 512 because Lambda allots CPU in proportion to memory, and cold init of a bundled
   * SDK is CPU-bound: below 512 the first request of a new instance pays noticeably more.
   * @default 512
   */
  readonly memorySize?: number;
  /** @default Duration.seconds(ROUTE_TIMEOUT_S) (15), well under API Gateway's 29 s integration limit */
  readonly timeout?: Duration;
  /** @default logs.RetentionDays.ONE_MONTH */
  readonly logRetention?: logs.RetentionDays;
  /** Extra environment variables. */
  readonly environment?: Record<string, string>;
  /** Dead-letter queue for failed asynchronous invocations. @default - none */
  readonly deadLetterQueue?: sqs.IQueue;
  /** Retries of failed asynchronous invocations (0-2). @default - Lambda's default (2) */
  readonly retryAttempts?: number;
  /** Maximum age of an asynchronous event before it is dropped or dead-lettered. @default - Lambda's default (6 h) */
  readonly maxEventAge?: Duration;
  /** Concurrent executions reserved for (and capping) this function. @default - none: the account's unreserved pool */
  readonly reservedConcurrentExecutions?: number;
  /**
   * The function signs and verifies pagination cursors (the list routes): when the deployment has a cursor secret it
   * gets the AWS Parameters and Secrets Lambda Extension layer, RTS_CURSOR_SECRET_ARN and `secretsmanager:GetSecretValue`
   * on that secret only. @default false
   */
  readonly signsCursors?: boolean;
}

/**
 * The Parameters and Secrets extension as the cursor-signing functions use it. Its own cache is off: the function keeps
 * the key and reads it again every 5 minutes (functions/adapters/secrets/extension.ts), so that refresh alone bounds
 * how long a rotated key takes to reach every container. A read that Secrets Manager has not answered in 3 s fails
 * (the function's own bound on the read is 5 s).
 */
const PARAMS_AND_SECRETS = lambda.ParamsAndSecretsLayerVersion.fromVersion(lambda.ParamsAndSecretsVersions.V1_0_103, {
  cacheEnabled: false,
  secretsManagerTimeout: Duration.seconds(3),
  logLevel: lambda.ParamsAndSecretsLogLevel.WARN,
});

export type TableAccess = 'read' | 'readwrite';

const READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:BatchGetItem'];
const WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'dynamodb:ConditionCheckItem'];

/**
 * A Lambda function with the house defaults: Node.js 22 on arm64, esbuild bundle (AWS SDK included,
 * minified, CommonJS, source maps on), its own log group with retention, X-Ray active tracing, Powertools'
 * service name and metrics namespace, and an
 * execution role that starts with nothing but write access to that log group (no managed policies).
 * Access to the table, queue and bus is added with the bind helpers, each granting only what is listed.
 *
 * Bundling is what NodejsFunction would do with the same esbuild flags, run locally (no Docker), but
 * through one esbuild run for all handlers of the synth (see bundling.ts): NodejsFunction spawns
 * `npx esbuild` once per function, which made `cdk synth` of ~30 functions take minutes on 2 cores.
 * It honours `aws:cdk:bundling-stacks` like any asset, so assertion tests can skip it.
 */
export class ServiceFunction extends Construct {
  readonly fn: lambda.Function;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
      // Logs go with the stack on teardown; only the table is retained.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `rts ${props.description ?? props.entry}`,
    });
    this.logGroup.grantWrite(this.role);

    // No NODE_OPTIONS=--enable-source-maps: it parses each bundle's source map at every cold start. The bundles map
    // their stack traces themselves, reading the map when one is formatted (functions/adapters/lambda-stack-traces.ts).
    const env: Record<string, string> = {
      // Powertools: `service` on log lines and the metrics' service dimension is the stack's name (rts-<stage>), so
      // stages sharing an account stay apart; EMF metrics go to the `rts` namespace.
      POWERTOOLS_SERVICE_NAME: Stack.of(this).stackName,
      POWERTOOLS_METRICS_NAMESPACE: 'rts',
      RTS_ALLOW_PRIVATE_TARGETS: String(props.settings.allowPrivateTargets),
      ...(props.settings.dashboardUrl ? { RTS_DASHBOARD_URL: props.settings.dashboardUrl } : {}),
      ...(props.settings.publicUrl ? { RTS_PUBLIC_URL: props.settings.publicUrl } : {}),
      ...(props.settings.webhookSendsPerMinute ? { RTS_WEBHOOK_SENDS_PER_MINUTE: String(props.settings.webhookSendsPerMinute) } : {}),
      ...props.environment,
    };

    const cursorSecret = props.signsCursors ? props.settings.cursorSecret : undefined;
    if (cursorSecret) env.RTS_CURSOR_SECRET_ARN = cursorSecret.secretArn;

    const entry = entryFile(props.entry);
    // Checked only when bundling runs, so assertion tests (bundling off) do not need every handler written.
    if (Stack.of(this).bundlingRequired && !existsSync(entry)) {
      throw new Error(`${this.node.path}: cannot find entry file ${entry}`);
    }
    this.fn = new lambda.Function(this, 'Fn', {
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      handler: 'index.handler',
      code: lambda.Code.fromAsset(REPO_ROOT, {
        // The hash is the bundle's content: an unchanged handler keeps its asset (and skips the upload).
        assetHashType: AssetHashType.OUTPUT,
        bundling: {
          image: lambda.Runtime.NODEJS_22_X.bundlingImage,
          // Docker is never used (local bundling always answers); the entry and flags make each asset's cache key distinct.
          command: ['esbuild', props.entry, JSON.stringify(BUNDLE)],
          local: {
            tryBundle(outputDir: string): boolean {
              copyBundle(props.entry, outputDir);
              return true;
            },
          },
        },
      }),
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(ROUTE_TIMEOUT_S),
      description: props.description,
      role: this.role,
      logGroup: this.logGroup,
      tracing: lambda.Tracing.ACTIVE,
      environment: env,
      deadLetterQueue: props.deadLetterQueue,
      retryAttempts: props.retryAttempts,
      maxEventAge: props.maxEventAge,
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      paramsAndSecrets: cursorSecret ? PARAMS_AND_SECRETS : undefined,
    });
    if (cursorSecret) {
      // The extension reads the secret with the function's role: GetSecretValue on this secret, nothing else (the
      // secret is encrypted with the account's AWS managed key, which needs no grant).
      this.role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [cursorSecret.secretArn] }));
    }

    // X-Ray's PutTraceSegments/PutTelemetryRecords accept no resource scoping; CDK adds them with `*` for active tracing.
    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'X-Ray PutTraceSegments/PutTelemetryRecords support only Resource "*" (active tracing); every other statement of this role names its resource.',
    });
    Validations.of(this.fn).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'Node.js 22 is the deliberate runtime (docs/deploy-aws.md): bundles target node22 and CI runs the same major; moving to a newer runtime is a tested change, not an automatic one.',
    });
  }

  /**
   * Sets TABLE_NAME and grants read (GetItem, Query, BatchGetItem) or read-write item actions on the table and its
   * GSIs only.
   */
  bindTable(table: dynamodb.ITable, access: TableAccess): this {
    this.fn.addEnvironment('TABLE_NAME', table.tableName);
    const indexArns = GSIS.map((g) => `${table.tableArn}/index/${g.indexName}`);
    this.role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: READ_ACTIONS, resources: [table.tableArn, ...indexArns] }));
    if (access === 'readwrite') {
      // Writes target the base table; GSIs are maintained by DynamoDB and never written directly.
      this.role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: WRITE_ACTIONS, resources: [table.tableArn] }));
    }
    return this;
  }

  /** Sets REPLAY_QUEUE_URL and grants sqs:SendMessage on that queue only. */
  bindQueue(queue: sqs.IQueue): this {
    this.fn.addEnvironment('REPLAY_QUEUE_URL', queue.queueUrl);
    this.role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: [queue.queueArn] }));
    return this;
  }

  /** Sets EVENT_BUS_NAME and grants events:PutEvents on that bus only. */
  bindBus(bus: events.IEventBus): this {
    this.fn.addEnvironment('EVENT_BUS_NAME', bus.eventBusName);
    this.role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['events:PutEvents'], resources: [bus.eventBusArn] }));
    return this;
  }
}

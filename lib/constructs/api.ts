// The REST API: one ServiceFunction per row of lib/routes.ts behind a REQUEST authorizer, gateway errors in the API's
// error body, a catch-all.
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as events from 'aws-cdk-lib/aws-events';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { BINARY_MEDIA_TYPES, routes, workerHandlers, type RouteRow } from '../routes';
import { errorBody, GATEWAY_ERRORS } from './gateway-errors';
import { type RuntimeSettings, ServiceFunction } from './service-function';

export interface ThrottleSettings {
  /** Steady-state requests per second. */
  readonly rateLimit: number;
  /** Burst bucket size. */
  readonly burstLimit: number;
}

export interface ApiProps {
  readonly table: dynamodb.ITable;
  readonly queue: sqs.IQueue;
  readonly bus: events.IEventBus;
  /** Shared function settings; `dashboardUrl`/`publicUrl` may be lazy tokens that resolve to this API's URLs. */
  readonly settings: RuntimeSettings;
  /** API Gateway stage name, also the first path segment of the URL. @default 'prod' */
  readonly stageName?: string;
  /** Stage-wide throttle (all callers together). @default { rateLimit: 100, burstLimit: 200 } */
  readonly throttle?: ThrottleSettings;
  /** Usage-plan throttle per usage identifier, i.e. per project. @default { rateLimit: 20, burstLimit: 40 } */
  readonly projectThrottle?: ThrottleSettings;
  /**
   * Require the usage identifier on authorized methods so the usage plan throttles each project.
   * Only turn on once every project is registered as an API Gateway API key (value = project id)
   * in the usage plan: unregistered projects are refused.
   * @default false
   */
  readonly perProjectThrottling?: boolean;
  /** Create the account-level role API Gateway needs to write logs (one per account and region). @default true */
  readonly cloudWatchRole?: boolean;
}

/** Authorizer results are cached per (X-API-Key, X-Project-Id) for this long. */
export const AUTHORIZER_CACHE_TTL = Duration.seconds(300);

/**
 * API Gateway REST API for every route in `routes`, `/dashboard`, and a catch-all. Gateway-made
 * errors (unauthorized, unknown route, throttled, integration failure...) carry the API's (docs/api.md#errors)
 * status and error body, so a client sees one error model locally and in the cloud.
 */
export class Api extends Construct {
  readonly restApi: apigw.RestApi;
  readonly authorizer: apigw.RequestAuthorizer;
  readonly usagePlan: apigw.UsagePlan;
  /** Route functions keyed `METHOD /path`. */
  readonly routeFunctions = new Map<string, ServiceFunction>();
  readonly authorizerFunction: ServiceFunction;
  readonly dashboardFunction: ServiceFunction;
  /** Invoke URL without the trailing slash, e.g. `https://abc.execute-api.eu-west-1.amazonaws.com/prod`. */
  readonly publicUrl: string;
  readonly stageName: string;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    this.stageName = props.stageName ?? 'prod';
    const throttle = props.throttle ?? { rateLimit: 100, burstLimit: 200 };
    const projectThrottle = props.projectThrottle ?? { rateLimit: 20, burstLimit: 40 };

    const accessLogs = new logs.LogGroup(this, 'AccessLogs', { retention: logs.RetentionDays.ONE_MONTH });
    this.restApi = new apigw.RestApi(this, 'RestApi', {
      description: 'rts: reliability testing service for AI agents',
      endpointTypes: [apigw.EndpointType.REGIONAL],
      // The authorizer returns the project id as usageIdentifierKey; the usage plan throttles on it.
      apiKeySourceType: apigw.ApiKeySourceType.AUTHORIZER,
      cloudWatchRole: props.cloudWatchRole ?? true,
      // OTLP protobuf exports reach POST /v1/traces as bytes (base64 in the event), not as mangled UTF-8 text.
      binaryMediaTypes: BINARY_MEDIA_TYPES,
      deployOptions: {
        stageName: this.stageName,
        throttlingRateLimit: throttle.rateLimit,
        throttlingBurstLimit: throttle.burstLimit,
        tracingEnabled: true,
        metricsEnabled: true,
        loggingLevel: apigw.MethodLoggingLevel.ERROR,
        // Request/response bodies carry traces and secrets: never logged.
        dataTraceEnabled: false,
        accessLogDestination: new apigw.LogGroupLogDestination(accessLogs),
        accessLogFormat: apigw.AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            requestTime: '$context.requestTime',
            ip: '$context.identity.sourceIp',
            method: '$context.httpMethod',
            resourcePath: '$context.resourcePath',
            path: '$context.path',
            status: '$context.status',
            responseLength: '$context.responseLength',
            latencyMs: '$context.responseLatency',
            integrationLatencyMs: '$context.integration.latency',
            errorType: '$context.error.responseType',
            usageIdentifier: '$context.identity.apiKeyId',
          }),
        ),
      },
    });
    this.publicUrl = `https://${this.restApi.restApiId}.execute-api.${Stack.of(this).region}.${Stack.of(this).urlSuffix}/${this.stageName}`;

    for (const e of GATEWAY_ERRORS) {
      this.restApi.addGatewayResponse(e.type.responseType, {
        type: e.type,
        statusCode: e.status,
        responseHeaders: { 'Content-Type': "'application/json'", ...e.headers },
        templates: { 'application/json': errorBody(e.code, e.message) },
      });
    }

    this.authorizerFunction = new ServiceFunction(this, 'Authorizer', {
      entry: workerHandlers.authorizer,
      description: 'rts authorizer',
      settings: props.settings,
    }).bindTable(props.table, 'read');
    this.authorizer = new apigw.RequestAuthorizer(this, 'RequestAuthorizer', {
      handler: this.authorizerFunction.fn,
      identitySources: [apigw.IdentitySource.header('X-API-Key'), apigw.IdentitySource.header('X-Project-Id')],
      resultsCacheTtl: AUTHORIZER_CACHE_TTL,
    });

    const methodsByPath = new Map<string, { resource: apigw.IResource; methods: string[] }>();
    const declare = (path: string, method: string, integration: apigw.Integration, options: apigw.MethodOptions) => {
      const resource = this.restApi.root.resourceForPath(path);
      resource.addMethod(method, integration, options);
      const entry = methodsByPath.get(path) ?? { resource, methods: [] };
      entry.methods.push(method);
      methodsByPath.set(path, entry);
    };

    for (const route of routes) {
      const key = `${route.method} ${route.path}`;
      const fn = new ServiceFunction(this, functionId(route), {
        entry: `functions/http/${route.handler}`,
        description: `rts ${key}`,
        settings: props.settings,
        signsCursors: route.list,
      });
      if (route.table !== 'none') fn.bindTable(props.table, route.table);
      if (route.queue) fn.bindQueue(props.queue);
      if (route.bus) fn.bindBus(props.bus);
      this.routeFunctions.set(key, fn);
      declare(route.path, route.method, lambdaIntegration(fn), route.auth ? this.authorized(props.perProjectThrottling ?? false) : publicMethod());
    }

    this.dashboardFunction = new ServiceFunction(this, 'Dashboard', {
      entry: workerHandlers.dashboard,
      description: 'rts GET /dashboard',
      settings: props.settings,
    });
    const dashboard = lambdaIntegration(this.dashboardFunction);
    declare('/dashboard', 'GET', dashboard, publicMethod());
    declare('/dashboard/{proxy+}', 'GET', dashboard, publicMethod());

    // A known path with an undeclared method: ANY is matched only after the declared methods.
    for (const [, { resource, methods }] of methodsByPath) {
      resource.addMethod(
        'ANY',
        mockError(405, 'method_not_allowed', 'Method not allowed for this route.', methods.join(', ')),
        mockMethodOptions(405),
      );
    }
    // Everything else (unknown paths, the root); paths that exist only as a prefix answer through the
    // MISSING_AUTHENTICATION_TOKEN gateway response with the same body.
    const notFound = mockError(404, 'route_not_found', 'No such route.');
    this.restApi.root.addMethod('ANY', notFound, mockMethodOptions(404));
    this.restApi.root.addProxy({ anyMethod: true, defaultIntegration: notFound, defaultMethodOptions: mockMethodOptions(404) });

    this.usagePlan = this.restApi.addUsagePlan('ProjectPlan', {
      description: 'Per-project throttle: the usage identifier is the project id returned by the authorizer.',
      throttle: projectThrottle,
      apiStages: [{ api: this.restApi, stage: this.restApi.deploymentStage }],
    });

    this.suppressNagFindings();
  }

  /** Dashboard base URL served by this API. */
  get dashboardUrl(): string {
    return `${this.publicUrl}/dashboard`;
  }

  private authorized(apiKeyRequired: boolean): apigw.MethodOptions {
    return { authorizer: this.authorizer, authorizationType: apigw.AuthorizationType.CUSTOM, apiKeyRequired };
  }

  private suppressNagFindings(): void {
    Validations.of(this.restApi).acknowledge(
      {
        id: 'AwsSolutions-APIG2',
        reason:
          'Requests are validated in each function with the zod schemas that also generate the OpenAPI document (docs/api.md#errors: 422 validation_error bodies with details, which API Gateway validators cannot produce).',
      },
      {
        id: 'AwsSolutions-COG4',
        reason:
          'Cognito is not used: clients are CI pipelines and SDKs authenticating with project API keys, checked by the Lambda REQUEST authorizer (docs/api.md#authentication).',
      },
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        reason:
          'The account-level API Gateway logging role uses the AWS-documented AmazonAPIGatewayPushToCloudWatchLogs managed policy; access and execution logging need it.',
      },
    );
    Validations.of(this.restApi.deploymentStage).acknowledge({
      id: 'AwsSolutions-APIG3',
      reason:
        'AWS WAF is optional and out of scope for the base deployment (cost); the stage has stage-wide and per-project throttling. Attach a web ACL to the stage where required.',
    });
    // Public methods only: health, the OpenAPI document, the dashboard page, and mock methods returning 404/405 bodies.
    for (const method of this.restApi.methods) {
      if ((method.node.defaultChild as apigw.CfnMethod).authorizationType === apigw.AuthorizationType.NONE) {
        Validations.of(method).acknowledge({
          id: 'AwsSolutions-APIG4',
          reason:
            "Deliberately public (docs/api.md#authentication): GET /health, GET /v1/openapi.json, the dashboard page (it calls the API with the user's key), and mock methods that only return 404/405 error bodies.",
        });
      }
    }
  }
}

function functionId(route: RouteRow): string {
  return route.handler
    .split('-')
    .map((s) => s.charAt(0).toUpperCase() + s.slice(1))
    .join('');
}

function lambdaIntegration(fn: ServiceFunction): apigw.LambdaIntegration {
  // No test-invoke permission: it doubles the Lambda permissions (stack resource budget) for a console feature.
  return new apigw.LambdaIntegration(fn.fn, { proxy: true, allowTestInvoke: false });
}

function publicMethod(): apigw.MethodOptions {
  return { authorizationType: apigw.AuthorizationType.NONE };
}

/** A mock integration that answers every request (any content type, no request template) with one error body. */
function mockError(status: number, code: string, message: string, allow?: string): apigw.MockIntegration {
  return new apigw.MockIntegration({
    passthroughBehavior: apigw.PassthroughBehavior.WHEN_NO_MATCH,
    integrationResponses: [
      {
        statusCode: String(status),
        responseTemplates: { 'application/json': errorBody(code, message) },
        responseParameters: {
          'method.response.header.Content-Type': "'application/json'",
          ...(allow ? { 'method.response.header.Allow': `'${allow}'` } : {}),
        },
      },
    ],
  });
}

function mockMethodOptions(status: number): apigw.MethodOptions {
  return {
    authorizationType: apigw.AuthorizationType.NONE,
    methodResponses: [
      {
        statusCode: String(status),
        responseParameters: { 'method.response.header.Content-Type': true, ...(status === 405 ? { 'method.response.header.Allow': true } : {}) },
      },
    ],
  };
}

// ServiceFunction defaults on every function, the settings passed through the environment, and context parsing.
import { App } from 'aws-cdk-lib';
import { routes } from '../../lib/routes';
import { stackPropsFromContext } from '../../lib/service-stack';
import { buildStack, cdkJsonContext, ofType } from './stack-fixture';

const built = buildStack();
const functions = ofType(built, 'AWS::Lambda::Function');

describe('every function', () => {
  it('runs Node.js 22 on arm64 with active tracing', () => {
    expect(functions.length).toBeGreaterThan(0);
    for (const [, fn] of functions) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        TracingConfig: { Mode: 'Active' },
      });
    }
  });

  it('logs to its own log group kept one month', () => {
    const groups = new Set<string>();
    for (const [, fn] of functions) {
      const groupId = fn.Properties!.LoggingConfig.LogGroup.Ref;
      groups.add(groupId);
      expect(built.resources[groupId].Properties!.RetentionInDays).toBe(30);
    }
    expect(groups.size).toBe(functions.length);
  });

  it('refuses private targets by default, and leaves the source maps to the bundles (no --enable-source-maps)', () => {
    for (const [, fn] of functions) {
      expect(fn.Properties!.Environment.Variables).toMatchObject({ RTS_ALLOW_PRIVATE_TARGETS: 'false' });
      // The bundles map their own stack traces, on demand (functions/adapters/lambda-stack-traces.ts).
      expect(fn.Properties!.Environment.Variables).not.toHaveProperty('NODE_OPTIONS');
    }
  });

  it("points dashboard links at the API's own /dashboard unless told otherwise", () => {
    for (const [, fn] of functions) {
      const env = fn.Properties!.Environment.Variables;
      expect(JSON.stringify(env.RTS_DASHBOARD_URL)).toMatch(/execute-api.*\/prod\/dashboard/);
      expect(JSON.stringify(env.RTS_PUBLIC_URL)).toMatch(/execute-api.*\/prod"/);
    }
  });

  it('signs pagination cursors with a key generated at deploy time, never written in the template', () => {
    const [[secretId, secret]] = ofType(built, 'AWS::SecretsManager::Secret');

    expect(secret.Properties!.GenerateSecretString).toBeDefined();
    expect(secret.Properties!.SecretString).toBeUndefined();
    expect(JSON.stringify(built.resources)).not.toContain('{{resolve:secretsmanager:');
    expect(functions.map(([, fn]) => fn.Properties!.Environment.Variables.RTS_CURSOR_SECRET).filter((v) => v !== undefined)).toEqual([]);
    for (const [, fn] of functions) {
      const env = fn.Properties!.Environment.Variables;
      if ('RTS_CURSOR_SECRET_ARN' in env) expect(env.RTS_CURSOR_SECRET_ARN).toEqual({ Ref: secretId });
    }
  });

  it("gives the list routes' functions (the only ones that sign and verify cursors) the secret's ARN and the extension that reads it", () => {
    const lists = routes.filter((r) => r.list).map((r) => `rts ${r.method} ${r.path}`);
    const withArn = functions.filter(([, fn]) => fn.Properties!.Environment.Variables.RTS_CURSOR_SECRET_ARN !== undefined);
    const withLayer = functions.filter(([, fn]) => fn.Properties!.Layers !== undefined);
    const mappings = built.template.toJSON().Mappings as Record<string, Record<string, Record<string, string>>>;
    /** The layer ARNs a function's layer list can resolve to, over every region of its mapping. */
    const layerArns = (layers: unknown[]) =>
      layers.flatMap((l) => {
        const [map, , key] = (l as { 'Fn::FindInMap': [string, unknown, string] })['Fn::FindInMap'];
        return Object.values(mappings[map]).map((byKey) => byKey[key]);
      });

    expect(withArn.map(([, fn]) => fn.Properties!.Description as string).sort()).toEqual(lists.sort());
    expect(withLayer.map(([, fn]) => fn.Properties!.Description as string).sort()).toEqual(lists.sort());
    for (const [, fn] of withLayer) {
      // The arm64 build of the extension, picked for the stack's region.
      const arns = layerArns(fn.Properties!.Layers);
      expect(arns.length).toBeGreaterThan(10);
      for (const arn of arns)
        expect(arn).toMatch(/^arn:aws[a-z-]*:lambda:[a-z0-9-]+:\d{12}:layer:AWS-Parameters-and-Secrets-Lambda-Extension-Arm64:\d+$/);
      // Its own cache off: the function's 5-minute refresh alone bounds how long a rotated key takes to arrive.
      expect(fn.Properties!.Environment.Variables).toMatchObject({
        PARAMETERS_SECRETS_EXTENSION_CACHE_ENABLED: 'false',
        PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: '2773',
        SECRETS_MANAGER_TIMEOUT_MILLIS: '3000',
      });
    }
  });

  it('sets no TABLE_NAME on the functions that never read the table (dashboard page, health, OpenAPI document)', () => {
    const without = functions.filter(([, fn]) => !fn.Properties!.Environment.Variables.TABLE_NAME);

    expect(without.map(([, fn]) => fn.Properties!.Description as string).sort()).toEqual([
      'rts GET /dashboard',
      'rts GET /health',
      'rts GET /v1/openapi.json',
    ]);
  });

  it('keeps HTTP functions under the API Gateway integration timeout', () => {
    const http = functions.filter(([, fn]) => /^rts (GET|POST|PATCH|DELETE) |^rts authorizer$/.test(fn.Properties!.Description));
    for (const [, fn] of http) expect(fn.Properties!.Timeout).toBeLessThan(29);
  });
});

describe('context settings', () => {
  it('passes allowPrivateTargets, dashboardUrl and stage through to the functions and the API', () => {
    const custom = buildStack({ allowPrivateTargets: true, dashboardUrl: 'https://rts.example.com/app', stage: 'staging' });

    for (const [, fn] of ofType(custom, 'AWS::Lambda::Function')) {
      expect(fn.Properties!.Environment.Variables).toMatchObject({
        RTS_ALLOW_PRIVATE_TARGETS: 'true',
        RTS_DASHBOARD_URL: 'https://rts.example.com/app',
      });
    }
    custom.template.hasResourceProperties('AWS::ApiGateway::Stage', { StageName: 'staging' });
    custom.template.hasOutput('DashboardUrl', { Value: 'https://rts.example.com/app' });
  });

  it('reads cdk.json defaults: stage prod, private targets refused, no dashboard override', () => {
    const props = stackPropsFromContext(new App({ context: cdkJsonContext() }).node);

    expect(props).toMatchObject({ stage: 'prod', allowPrivateTargets: false, dashboardUrl: undefined, perProjectThrottling: false });
    expect(props.throttle).toEqual({ rateLimit: 100, burstLimit: 200 });
  });

  it('parses -c strings and rejects bad values', () => {
    const props = stackPropsFromContext(new App({ context: { stage: 'dev', allowPrivateTargets: 'true', throttleRate: '5' } }).node);

    expect(props).toMatchObject({ stage: 'dev', allowPrivateTargets: true, throttle: { rateLimit: 5, burstLimit: 10 } });
    expect(() => stackPropsFromContext(new App({ context: { allowPrivateTargets: 'yes' } }).node)).toThrow(/true or false/);
    expect(() => stackPropsFromContext(new App({ context: { stage: 'a/b' } }).node)).toThrow(/stage/);
    expect(() => stackPropsFromContext(new App({ context: { workerTimeoutMinutes: '20' } }).node)).toThrow(/1-15/);
    expect(stackPropsFromContext(new App({ context: { workerTimeoutMinutes: 10 } }).node).workerTimeout?.toMinutes()).toBe(10);
  });
});

describe('outputs', () => {
  it('exports what operators and the CLI need', () => {
    for (const name of ['ApiUrl', 'TableName', 'DashboardUrl', 'EventBusName', 'ReplayQueueUrl', 'AlarmTopicArn', 'UsagePlanId']) {
      built.template.hasOutput(name, {});
    }
  });
});

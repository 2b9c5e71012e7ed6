// The REST API as synthesised: one function per route row, the authorizer, gateway errors in the API's error body, the
// catch-all, the stage.
import { Match } from 'aws-cdk-lib/assertions';
import { routes, workerHandlers } from '../../lib/routes';
import { GATEWAY_ERRORS } from '../../lib/constructs/gateway-errors';
import { buildStack, functionIdByDescription, integratedFunctionId, methodsByRoute, ofType } from './stack-fixture';

const built = buildStack();
const methods = methodsByRoute(built);
const NON_ROUTE_FUNCTIONS = Object.keys(workerHandlers).length;

describe('route functions', () => {
  it('creates one Lambda function per route row, plus the known non-route functions', () => {
    // Prepare / Act
    const functions = ofType(built, 'AWS::Lambda::Function');

    // Assess
    expect(functions.length - NON_ROUTE_FUNCTIONS).toBe(routes.length);
  });

  it.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s has a method integrated with its own function', (key) => {
    const method = methods.get(key);

    expect(method).toBeDefined();
    expect(method!.Properties!.Integration.Type).toBe('AWS_PROXY');
    expect(integratedFunctionId(method!)).toBe(functionIdByDescription(built, `rts ${key}`));
  });

  it('gives every route function a distinct function', () => {
    const ids = routes.map((r) => integratedFunctionId(methods.get(`${r.method} ${r.path}`)!));

    expect(new Set(ids).size).toBe(routes.length);
  });

  it('serves /dashboard and /dashboard/{proxy+} with GET through the dashboard function, without auth', () => {
    const dashboardFn = functionIdByDescription(built, 'rts GET /dashboard');

    for (const key of ['GET /dashboard', 'GET /dashboard/{proxy+}']) {
      expect(integratedFunctionId(methods.get(key)!)).toBe(dashboardFn);
      expect(methods.get(key)!.Properties!.AuthorizationType).toBe('NONE');
    }
  });
});

describe('authorizer', () => {
  const authorizers = ofType(built, 'AWS::ApiGateway::Authorizer');

  it('is one REQUEST authorizer on X-API-Key and X-Project-Id, cached 300 s', () => {
    expect(authorizers).toHaveLength(1);
    expect(authorizers[0][1].Properties).toMatchObject({
      Type: 'REQUEST',
      IdentitySource: 'method.request.header.X-API-Key,method.request.header.X-Project-Id',
      AuthorizerResultTtlInSeconds: 300,
    });
  });

  it('invokes the authorizer function', () => {
    const uri = JSON.stringify(authorizers[0][1].Properties!.AuthorizerUri);

    expect(uri).toContain(functionIdByDescription(built, 'rts authorizer'));
  });

  it.each(routes.filter((r) => r.auth).map((r) => `${r.method} ${r.path}`))('%s requires the custom authorizer', (key) => {
    const props = methods.get(key)!.Properties!;

    expect(props.AuthorizationType).toBe('CUSTOM');
    expect(props.AuthorizerId).toEqual({ Ref: authorizers[0][0] });
  });

  it('covers every /v1 route except the OpenAPI document and the MCP endpoint (its attempt token is checked in its function)', () => {
    const v1 = routes.filter((r) => r.path.startsWith('/v1/') && r.path !== '/v1/openapi.json' && r.protocol !== 'mcp');

    expect(v1.every((r) => r.auth)).toBe(true);
    expect(routes.filter((r) => r.protocol === 'mcp').map((r) => [r.method, r.path, r.auth])).toEqual([
      ['POST', '/v1/mcp/{run_id}/{attempt}', false],
    ]);
  });

  it.each(['GET /health', 'GET /v1/openapi.json', 'POST /v1/mcp/{run_id}/{attempt}'])('%s needs no API key', (key) => {
    const props = methods.get(key)!.Properties!;

    expect(props.AuthorizationType).toBe('NONE');
    expect(props.AuthorizerId).toBeUndefined();
  });

  it('does not require the usage identifier by default (projects are not registered in the usage plan)', () => {
    const authorized = [...methods.values()].filter((m) => m.Properties!.AuthorizationType === 'CUSTOM');

    expect(authorized.every((m) => m.Properties!.ApiKeyRequired !== true)).toBe(true);
  });
});

describe('gateway responses', () => {
  const responses = new Map(ofType(built, 'AWS::ApiGateway::GatewayResponse').map(([, r]) => [r.Properties!.ResponseType as string, r.Properties!]));

  it.each([
    ['UNAUTHORIZED', '401', 'unauthorized'],
    ['ACCESS_DENIED', '401', 'unauthorized'],
    ['MISSING_AUTHENTICATION_TOKEN', '404', 'route_not_found'],
    ['RESOURCE_NOT_FOUND', '404', 'route_not_found'],
    ['REQUEST_TOO_LARGE', '413', 'payload_too_large'],
    ['THROTTLED', '429', 'rate_limited'],
    ['QUOTA_EXCEEDED', '429', 'rate_limited'],
    ['BAD_REQUEST_BODY', '400', 'invalid_json'],
    ['UNSUPPORTED_MEDIA_TYPE', '415', 'unsupported_media_type'],
    ['INTEGRATION_FAILURE', '500', 'internal_error'],
    ['INTEGRATION_TIMEOUT', '504', 'internal_error'],
    ['DEFAULT_5XX', '500', 'internal_error'],
  ])('%s answers %s with error.code %s and the request id', (type, status, code) => {
    const r = responses.get(type)!;

    expect(r.StatusCode).toBe(status);
    expect(r.ResponseParameters).toEqual({ 'gatewayresponse.header.Content-Type': "'application/json'" });
    const body = JSON.parse(r.ResponseTemplates['application/json']);
    expect(body).toEqual({ error: { code, message: expect.any(String), request_id: '$context.requestId' } });
  });

  it.each(['AUTHORIZER_FAILURE', 'AUTHORIZER_CONFIGURATION_ERROR'])(
    '%s (the authorizer could not read the store) answers a retryable 503 service_unavailable, never a 401',
    (type) => {
      const r = responses.get(type)!;

      expect(r.StatusCode).toBe('503');
      expect(r.ResponseParameters).toEqual({
        'gatewayresponse.header.Content-Type': "'application/json'",
        'gatewayresponse.header.Retry-After': "'1'",
      });
      expect(JSON.parse(r.ResponseTemplates['application/json']).error).toEqual({
        code: 'service_unavailable',
        message: expect.any(String),
        request_id: '$context.requestId',
      });
    },
  );

  it('keeps the gateway status for DEFAULT_4XX with a generic code', () => {
    const r = responses.get('DEFAULT_4XX')!;

    expect(r.StatusCode).toBeUndefined();
    expect(JSON.parse(r.ResponseTemplates['application/json']).error.code).toBe('bad_request');
  });

  it('gives every unauthorized cause the same body', () => {
    const bodies = ['UNAUTHORIZED', 'ACCESS_DENIED', 'INVALID_API_KEY'].map((t) => responses.get(t)!.ResponseTemplates['application/json']);

    expect(new Set(bodies).size).toBe(1);
  });

  it('declares exactly the listed gateway errors', () => {
    expect([...responses.keys()].sort()).toEqual(GATEWAY_ERRORS.map((e) => e.type.responseType).sort());
  });
});

describe('catch-all', () => {
  const mockBody = (m: { Properties?: Record<string, any> }) =>
    JSON.parse(m.Properties!.Integration.IntegrationResponses[0].ResponseTemplates['application/json']);

  it('answers unknown paths under the root with 404 route_not_found', () => {
    for (const key of ['ANY /{proxy+}', 'ANY /']) {
      const m = methods.get(key)!;
      expect(m.Properties!.Integration.Type).toBe('MOCK');
      expect(m.Properties!.Integration.IntegrationResponses[0].StatusCode).toBe('404');
      expect(mockBody(m).error).toEqual({ code: 'route_not_found', message: expect.any(String), request_id: '$context.requestId' });
    }
  });

  it('answers a wrong method on every known path with 405 method_not_allowed and an Allow header', () => {
    const paths = new Set([...routes.map((r) => r.path), '/dashboard', '/dashboard/{proxy+}']);

    for (const p of paths) {
      const m = methods.get(`ANY ${p}`);
      expect(m).toBeDefined();
      const response = m!.Properties!.Integration.IntegrationResponses[0];
      expect(response.StatusCode).toBe('405');
      expect(mockBody(m!).error.code).toBe('method_not_allowed');
      const declared = routes.filter((r) => r.path === p).map((r) => r.method);
      for (const verb of declared) expect(response.ResponseParameters['method.response.header.Allow']).toContain(verb);
    }
  });

  it('answers any content type (no request template, passthrough when no match)', () => {
    const m = methods.get('ANY /{proxy+}')!;

    expect(m.Properties!.Integration.PassthroughBehavior).toBe('WHEN_NO_MATCH');
    expect(m.Properties!.Integration.RequestTemplates).toBeUndefined();
  });
});

describe('stage', () => {
  it('throttles, traces, logs access as JSON and logs errors without bodies', () => {
    built.template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'prod',
      TracingEnabled: true,
      AccessLogSetting: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('"requestId":"\\$context.requestId"') },
      MethodSettings: Match.arrayWith([
        Match.objectLike({
          HttpMethod: '*',
          ResourcePath: '/*',
          ThrottlingRateLimit: 100,
          ThrottlingBurstLimit: 200,
          LoggingLevel: 'ERROR',
          DataTraceEnabled: false,
        }),
      ]),
    });
  });

  it('takes the API key source from the authorizer and throttles per project in a usage plan', () => {
    built.template.hasResourceProperties('AWS::ApiGateway::RestApi', {
      ApiKeySourceType: 'AUTHORIZER',
      EndpointConfiguration: { Types: ['REGIONAL'] },
    });
    built.template.hasResourceProperties('AWS::ApiGateway::UsagePlan', {
      Throttle: { RateLimit: 20, BurstLimit: 40 },
      ApiStages: [Match.objectLike({ Stage: Match.anyValue() })],
    });
  });

  it('passes OTLP protobuf bodies to the functions as bytes: application/x-protobuf is a binary media type', () => {
    built.template.hasResourceProperties('AWS::ApiGateway::RestApi', { BinaryMediaTypes: ['application/x-protobuf'] });
  });

  it('requires the usage identifier on authorized methods once per-project throttling is on', () => {
    const strict = buildStack({ perProjectThrottling: true, throttle: { rateLimit: 7, burstLimit: 9 } });
    const strictMethods = [...methodsByRoute(strict).values()];

    expect(strictMethods.filter((m) => m.Properties!.AuthorizationType === 'CUSTOM').every((m) => m.Properties!.ApiKeyRequired === true)).toBe(true);
    expect(strictMethods.filter((m) => m.Properties!.AuthorizationType === 'NONE').every((m) => !m.Properties!.ApiKeyRequired)).toBe(true);
    strict.template.hasResourceProperties('AWS::ApiGateway::Stage', {
      MethodSettings: Match.arrayWith([Match.objectLike({ ThrottlingRateLimit: 7, ThrottlingBurstLimit: 9 })]),
    });
  });
});

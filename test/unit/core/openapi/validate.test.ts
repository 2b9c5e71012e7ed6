// The OpenAPI document passes Redocly's `recommended` ruleset (the rules of `redocly lint`) with no error and no warning,
// and says what tools need: response schemas, public operations, list parameters, id formats, the errors each can answer.
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { errorStatuses, openApiDocument } from '../../../../functions/core/openapi/document';
import { requestBaseUrl } from '../../../../functions/http/get-openapi';
import { routes } from '../../../../lib/routes';
import { lintProblems } from '../../../helpers/openapi';

const doc = openApiDocument(routes) as any;
const op = (method: string, path: string) => doc.paths[path][method.toLowerCase()];
const paramNames = (method: string, path: string) =>
  op(method, path).parameters.map((p: any) => (p.$ref ? doc.components.parameters[p.$ref.split('/').pop()] : p).name);

describe('the OpenAPI document', () => {
  it("passes @redocly/openapi-core's recommended ruleset with zero errors and zero warnings", () => {
    // Act
    const problems = lintProblems(doc);
    // Assess
    if (problems.length) console.log(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.pointer}`).join('\n'));
    expect(problems).toEqual([]);
  });

  it('gives every success answer a schema (204 aside) and every error the error body', () => {
    for (const r of routes) {
      const responses = op(r.method, r.path).responses;
      if (r.status === 204) expect(responses['204'].content).toBeUndefined();
      else expect(responses[r.status].content['application/json'].schema.$ref).toMatch(/^#\/components\/schemas\//);
      for (const [status, response] of Object.entries<any>(responses)) {
        if (Number(status) >= 400 || status === 'default')
          expect(response.content['application/json'].schema).toEqual({
            $ref: `#/components/schemas/${r.protocol === 'mcp' ? 'McpError' : 'Error'}`,
          });
      }
    }
    const page = doc.components.schemas.RunList;
    expect(page.required).toEqual(['items', 'next_cursor']);
    expect(page.properties.next_cursor.type).toEqual(['string', 'null']);
  });

  it('names a server, and marks the public operations security: [] and the others ApiKey with ProjectId', () => {
    expect(doc.servers).toEqual([{ url: 'http://127.0.0.1:8787', description: expect.any(String) }]);
    expect(op('GET', '/health').security).toEqual([]);
    expect(op('GET', '/v1/openapi.json').security).toEqual([]);
    for (const r of routes.filter((x) => x.auth)) expect(op(r.method, r.path).security).toEqual([{ ApiKey: [], ProjectId: [] }]);
    expect(op('POST', '/v1/mcp/{run_id}/{attempt}').security).toEqual([{ McpToken: [] }]);
    expect(doc.components.securitySchemes.McpToken).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it("lists every list route's limit and cursor, and the filters of runs, batches and batch scenarios", () => {
    for (const r of routes.filter((x) => x.list)) expect(paramNames(r.method, r.path)).toEqual(expect.arrayContaining(['limit', 'cursor']));
    expect(paramNames('GET', '/v1/runs')).toEqual(['limit', 'cursor', 'campaign_id', 'trace_id', 'status']);
    expect(paramNames('GET', '/v1/ci/batches')).toEqual(['limit', 'cursor', 'campaign_id', 'branch']);
    expect(paramNames('GET', '/v1/ci/batch/{batch_id}/scenarios')).toEqual(['batch_id', 'limit', 'cursor', 'status']);
    const status = op('GET', '/v1/runs').parameters.find((p: any) => p.name === 'status');
    expect(status.schema.enum).toEqual(['queued', 'running', 'completed', 'failed']);
  });

  it('types path ids as UUIDs, webhook ids with the wh_ pattern, attempt numbers as digits from 1', () => {
    for (const r of routes) {
      for (const p of op(r.method, r.path).parameters?.filter((x: any) => x.in === 'path') ?? []) {
        if (p.name === 'webhook_id') expect(p.schema).toMatchObject({ type: 'string', pattern: '^wh_[0-9a-z]{24}$' });
        else if (p.name === 'attempt') expect(p.schema).toMatchObject({ type: 'string', pattern: '^[1-9][0-9]{0,3}$' });
        else expect([p.name, p.schema]).toEqual([p.name, expect.objectContaining({ type: 'string', format: 'uuid' })]);
      }
    }
  });

  it('marks the run-pack body optional and the other bodies required', () => {
    expect(op('POST', '/v1/campaigns/{campaign_id}/run-pack').requestBody.required).toBe(false);
    for (const r of routes.filter((x) => x.body && x.handler !== 'post-run-pack')) expect(op(r.method, r.path).requestBody.required).toBe(true);
  });

  it('lists 400/413/415 only with a body, 409 only with idempotency or a conflict, 404 only with ids, 401 only with auth', () => {
    const listed = (method: string, path: string) => Object.keys(op(method, path).responses);
    expect(listed('GET', '/health')).toEqual(['200', '429', '500', 'default']);
    expect(listed('GET', '/v1/runs')).toEqual(['200', '401', '422', '429', '500', '503', 'default']);
    expect(listed('GET', '/v1/runs/{run_id}')).toEqual(['200', '401', '404', '429', '500', '503', 'default']);
    expect(listed('PATCH', '/v1/webhooks/{webhook_id}')).toEqual(['200', '400', '401', '404', '413', '415', '422', '429', '500', '503', 'default']);
    expect(listed('POST', '/v1/webhooks/{webhook_id}/rotate-secret')).toEqual(['200', '401', '404', '409', '422', '429', '500', '503', 'default']);
    expect(listed('POST', '/v1/runs')).toEqual(['202', '400', '401', '404', '409', '413', '415', '422', '429', '500', '503', 'default']);
    expect(listed('POST', '/v1/campaigns')).not.toContain('404');
    expect(errorStatuses(routes.find((r) => r.handler === 'post-webhook-resend')!)[409]).toMatch(/idempotency_conflict.*webhook_paused/);
    expect(op('GET', '/v1/runs').responses['429'].headers['Retry-After'].schema.type).toBe('integer');
    expect(op('POST', '/v1/runs').responses['202'].headers['Idempotent-Replayed']).toMatchObject({ schema: { type: 'string', enum: ['true'] } });
    expect(op('POST', '/v1/runs').parameters).toEqual([{ $ref: '#/components/parameters/IdempotencyKey' }]);
  });

  it('documents both answers of POST /v1/traces: 201 created, 200 re-upload or OTLP export (JSON or protobuf)', () => {
    const responses = op('POST', '/v1/traces').responses;
    expect(responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/TraceCreated' });
    expect(responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/TraceUpload' });
    expect(Object.keys(responses['200'].content)).toEqual(['application/json', 'application/x-protobuf']);
  });
});

describe('the server of the served document', () => {
  const event = (requestContext: object, headers: object = {}, path = '/v1/openapi.json') =>
    ({ path, headers, requestContext }) as unknown as APIGatewayProxyEvent;

  it('is the stage URL on an execute-api domain, the base path mapping on a custom domain, the Host locally', () => {
    expect(requestBaseUrl(event({ domainName: 'abc123.execute-api.eu-west-1.amazonaws.com', stage: 'prod' }))).toBe(
      'https://abc123.execute-api.eu-west-1.amazonaws.com/prod',
    );
    expect(requestBaseUrl(event({ domainName: 'api.example.org', stage: 'prod' }, {}, '/rts/v1/openapi.json'))).toBe('https://api.example.org/rts');
    expect(requestBaseUrl(event({ stage: 'local' }, { host: '127.0.0.1:8787' }))).toBe('http://127.0.0.1:8787');
    expect(requestBaseUrl(event({ stage: 'local' }, { host: 'evil/"x' }))).toBeUndefined();
    expect((openApiDocument(routes, 'http://127.0.0.1:9999') as any).servers).toEqual([
      { url: 'http://127.0.0.1:9999', description: 'This service.' },
    ]);
  });
});

// The route table drives everything: every row's module exists and exports a handler built from that row (with the body
// schema the row names), each row documents itself, and matching is exact.
import { join } from 'node:path';
import { findRoute, matchPath } from '../../../lib/route-match';
import { routes, workerHandlers } from '../../../lib/routes';
import { campaignInputSchema } from '../../../functions/core/campaigns/schema';
import { openApiDocument } from '../../../functions/core/openapi/document';
import { classicOf } from '../../../functions/core/openapi/classic';
import { REQUEST_SCHEMAS } from '../../../functions/core/openapi/schemas';
import { traceRequestSchema } from '../../../functions/core/traces/receive';

const ROOT = join(__dirname, '..', '..', '..');

/** What each handler module passed to route(): its row and its body schema, by the handler route() returned. */
const mockBuilt = new Map<unknown, { row: unknown; body?: unknown }>();
jest.mock('../../../functions/http-chain/route', () => {
  const actual = jest.requireActual('../../../functions/http-chain/route');
  return {
    ...actual,
    route: (row: unknown, ...args: unknown[]) => {
      const handler = actual.route(row, ...args);
      mockBuilt.set(handler, { row, body: args.length === 2 ? (args[0] as { body: unknown }).body : undefined });
      return handler;
    },
  };
});
// The routes that read nothing of the service's state are built by the chain alone (no body, no deps).
jest.mock('../../../functions/http-chain/chain', () => {
  const actual = jest.requireActual('../../../functions/http-chain/chain');
  return {
    ...actual,
    storelessRoute: (row: unknown, fn: unknown) => {
      const handler = actual.storelessRoute(row, fn);
      mockBuilt.set(handler, { row });
      return handler;
    },
  };
});

describe('lib/routes.ts', () => {
  it.each(routes.map((r) => [`${r.method} ${r.path}`, r.handler]))('%s has a handler module exporting handler', (_name, handler) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require(join(ROOT, 'functions', 'http', handler));
    expect(typeof mod.handler).toBe('function');
  });

  it.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s: its handler is built from its own row, validating the body with the schema the row names',
    (_name, row) => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { handler } = require(join(ROOT, 'functions', 'http', row.handler));

      const built = mockBuilt.get(handler);

      expect(built?.row).toBe(row);
      // POST /v1/traces takes any JSON object: receiveTraces tells a native trace from an OTLP export (both documented).
      // The MCP endpoint reads its JSON-RPC body itself (a protocol of its own, with errors in its own shape).
      if (row.protocol === 'mcp') return expect(built?.body).toBeUndefined();
      const documented = row.body === 'TraceInput' ? traceRequestSchema : row.body && REQUEST_SCHEMAS[row.body];
      expect(built?.body && row.body !== 'TraceInput' ? classicOf(built.body as never) : built?.body).toBe(documented);
    },
  );

  it('documents every route from its row alone: summary and success status', () => {
    for (const r of routes) {
      expect(r.summary.length).toBeGreaterThan(10);
      expect([200, 201, 202, 204]).toContain(r.status);
    }
  });

  it.each(Object.entries(workerHandlers))('the %s function module exports handler', (_name, modulePath) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require(join(ROOT, modulePath));
    expect(typeof mod.handler).toBe('function');
  });

  it('has no duplicate method and path pairs', () => {
    const keys = routes.map((r) => `${r.method} ${r.path}`);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });

  it('matches parameters and refuses other shapes', () => {
    expect(matchPath('/v1/runs/{run_id}', '/v1/runs/abc')).toEqual({ run_id: 'abc' });
    expect(matchPath('/v1/runs/{run_id}', '/v1/runs/')).toBeNull();
    expect(matchPath('/v1/runs/{run_id}', '/v1/runs/a/b')).toBeNull();
    expect(matchPath('/v1/runs/{run_id}', '/v1/runs/%E0%A4%A')).toBeNull();
    expect(findRoute('GET', '/v1/runs/x/policy-events').match?.route.handler).toBe('get-policy-events');
    expect(findRoute('PUT', '/v1/runs').allowed.sort()).toEqual(['GET', 'POST']);
    expect(findRoute('GET', '/v2/runs')).toEqual({ allowed: [] });
  });
});

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 and documents exactly the routes of the table, each with its method', () => {
    const doc = openApiDocument(routes) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    expect(doc.openapi).toBe('3.1.0');
    expect(documented.sort()).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
  });

  it('takes request bodies from the zod schemas the handlers validate with', () => {
    const doc = openApiDocument(routes) as any;
    const campaign = doc.paths['/v1/campaigns'].post.requestBody.content['application/json'].schema;
    const resolved = campaign.$ref ? doc.components.schemas[campaign.$ref.split('/').pop()] : campaign;
    expect(Object.keys(resolved.properties)).toEqual(Object.keys(campaignInputSchema.shape));
    expect(resolved.properties.target.oneOf.map((t: any) => t.properties.type.enum)).toEqual([['recorded'], ['http'], ['openai'], ['mcp']]);
    expect(resolved.required).toEqual(expect.arrayContaining(['name', 'target']));
    expect(doc.components.securitySchemes.ApiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
  });
});

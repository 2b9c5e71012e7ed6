// zod/mini request schemas seen as classic zod for the document generator: they validate alike and keep their metadata.
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import type * as core from 'zod/v4/core';
import { campaignInputSchema } from '../../../../functions/core/campaigns/schema';
import { evalSetPatchSchema } from '../../../../functions/core/campaigns/eval-set-schema';
import { ciRunRequestSchema } from '../../../../functions/core/ci/schema';
import { classicOf } from '../../../../functions/core/openapi/classic';
import { openapi } from '../../../../functions/core/openapi/meta';
import { traceInputSchema } from '../../../../functions/core/traces/schema';
import { webhookCreateSchema, webhookPatchSchema } from '../../../../functions/core/webhooks/schema';
import { z } from '../../../../functions/core/openapi/zod';
import * as mini from '../../../../functions/core/openapi/zod-mini';

const UUID = '0b7f6e7e-5d0c-4c1e-9a4b-6a0f3e3f1c2d';

/** What a parse yields, in the terms the 422 body uses. */
function outcome(schema: { safeParse(input: unknown): core.util.SafeParseResult<unknown> }, input: unknown) {
  const r = schema.safeParse(input);
  return r.success ? { data: r.data } : { issues: r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) };
}

describe('classicOf', () => {
  it.each([
    ['a campaign with defaults to fill', campaignInputSchema, { name: 'c', target: { type: 'http', url: 'https://a.example/step' } }],
    ['a campaign with bad parts', campaignInputSchema, { name: '', target: { type: 'http', url: 'ftp://x' }, repeats: 0, mutations: [{}] }],
    ['an eval-set patch with an id on both sides', evalSetPatchSchema, { add_trace_ids: [UUID.toUpperCase()], remove_trace_ids: [UUID] }],
    ['a CI run without thresholds', ciRunRequestSchema, { campaign_id: UUID.toUpperCase() }],
    ['a CI run with two baselines', ciRunRequestSchema, { campaign_id: UUID, baseline: { batch_id: UUID, branch: 'main' } }],
    [
      'a trace with string arguments',
      traceInputSchema,
      {
        steps: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', tool_calls: [{ id: 'c1', name: 'f', arguments: '{"a":1}' }] },
        ],
      },
    ],
    ['a trace with unreadable arguments', traceInputSchema, { steps: [{ role: 'assistant', tool_calls: [{ id: 'c', name: 'f', arguments: '{' }] }] }],
    ['a webhook', webhookCreateSchema, { url: 'https://h.example/x', events: ['run.completed', 'run.completed'] }],
    ['a webhook with bad events', webhookCreateSchema, { url: 'http://h.example', events: ['*', 'nope'] }],
    ['an empty webhook patch', webhookPatchSchema, {}],
  ])('validates %s exactly as the zod/mini schema does', (_name, schema, input) => {
    // Act
    const expected = outcome(schema, input);
    const actual = outcome(classicOf(schema as core.$ZodType) as never, input);

    // Assess
    expect(actual).toEqual(expected);
  });

  it('builds a schema once, so a shared part stays one instance', () => {
    expect(classicOf(campaignInputSchema)).toBe(classicOf(campaignInputSchema));
  });

  it('returns a classic schema as it is', () => {
    const classic = z.string();

    expect(classicOf(classic)).toBe(classic);
  });

  it('gives the document the component name, description and example attached with openapi()', () => {
    // Prepare
    const url = openapi(mini.string().check(mini.maxLength(20)), { description: 'where to', example: 'https://x.example' });
    const body = openapi(mini.object({ url, tags: mini.optional(mini.array(mini.string())) }), { name: 'Probe', description: 'a probe' });
    const registry = new OpenAPIRegistry();
    registry.register('Probe', classicOf(body));

    // Act
    const doc = new OpenApiGeneratorV31(registry.definitions).generateDocument({ openapi: '3.1.0', info: { title: 't', version: '1' } });

    // Assess
    expect(doc.components?.schemas?.Probe).toEqual({
      type: 'object',
      description: 'a probe',
      properties: {
        url: { type: 'string', maxLength: 20, description: 'where to', example: 'https://x.example' },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['url'],
    });
  });

  it('replaces the derived JSON Schema keywords with those of `override` (what a transform accepts)', () => {
    // Prepare
    const parsed = mini.pipe(
      mini.transform((v: unknown) => (typeof v === 'string' ? (JSON.parse(v) as unknown) : v)),
      mini.record(mini.string(), mini.unknown()),
    );
    const args = openapi(parsed, { override: { type: ['object', 'string'], additionalProperties: {} } });
    const registry = new OpenAPIRegistry();
    registry.register('Args', classicOf(mini.object({ args })));

    // Act
    const doc = new OpenApiGeneratorV31(registry.definitions).generateDocument({ openapi: '3.1.0', info: { title: 't', version: '1' } });

    // Assess
    expect(doc.components?.schemas?.Args).toEqual({
      type: 'object',
      properties: { args: { type: ['object', 'string'], additionalProperties: {} } },
      required: ['args'],
    });
  });
});

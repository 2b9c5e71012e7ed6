// The schema of an `rts apply` file (docs/campaigns-as-code.md): campaigns by name, each a campaign definition as the
// API takes it plus its eval-set; and the JSON Schema editors read (schemas/rts.schema.json), derived from both.
import { campaignInputSchema } from '../../core/campaigns/schema';
import { EVAL_SET_MAX } from '../../core/limits';
import * as z from '../../core/openapi/zod-mini';

/** Where the published JSON Schema lives, relative to the repository. */
export const JSON_SCHEMA_PATH = 'schemas/rts.schema.json';

export const evalSetSchema = z.strictObject({
  traces: z
    .array(z.string().check(z.minLength(1), z.maxLength(1000)))
    .check(z.maxLength(EVAL_SET_MAX))
    .register(z.globalRegistry, {
      description:
        'Trace files (native rts traces: one trace or an array of traces per file) or globs (*, **, ?, [abc], {a,b}), relative to this file. The eval-set becomes exactly these traces.',
    }),
  min_scenarios: z.optional(
    z.number().check(z.int(), z.minimum(0), z.maximum(EVAL_SET_MAX)).register(z.globalRegistry, {
      description: 'Fewest traces the eval-set must hold for a CI submission (default: left as it is, 0 for a new campaign).',
    }),
  ),
});
export type EvalSetEntry = z.infer<typeof evalSetSchema>;

/** One campaign of the file as the first pass sees it: its name and eval-set; the rest is the campaign schema's. */
const campaignEntrySchema = z.looseObject({
  name: z.string().check(z.minLength(1), z.maxLength(200)),
  eval_set: z.optional(evalSetSchema),
});

export const rtsFileSchema = z.strictObject({
  $schema: z.optional(z.string()),
  version: z.literal(1).register(z.globalRegistry, { description: 'The file format version: 1.' }),
  campaigns: z.array(campaignEntrySchema).check(z.minLength(1), z.maxLength(100)),
});
export type RtsFile = z.infer<typeof rtsFileSchema>;

/** The fields a campaign entry may hold: the campaign definition's and `eval_set`. */
export const CAMPAIGN_FIELDS: ReadonlySet<string> = new Set([...Object.keys(campaignInputSchema.shape), 'eval_set']);

type JsonSchema = Record<string, unknown> & { properties?: Record<string, unknown> };

/**
 * The JSON Schema of the file (draft 2020-12), for editors: the file's schema, each campaign the campaign schema of the
 * API (as sent: defaults may be left out) plus `eval_set`, no other field. Refinements a JSON Schema cannot say
 * (duplicate ids, attempt limits) are checked by `rts apply` and the API. No string `format` is kept: any string may be
 * a `${NAME}` reference, which an editor would flag as an invalid URL.
 */
export function rtsJsonSchema(): JsonSchema {
  const opts = { io: 'input', unrepresentable: 'any' } as const;
  const { $schema: _drop, ...campaign } = withoutFormats(z.toJSONSchema(campaignInputSchema, opts)) as JsonSchema;
  const file = z.toJSONSchema(rtsFileSchema, opts) as JsonSchema;
  const { $schema: _also, ...evalSet } = z.toJSONSchema(evalSetSchema, opts) as JsonSchema;
  const campaigns = file.properties!.campaigns as JsonSchema;
  return {
    $schema: file.$schema,
    title: 'rts apply file',
    description:
      'Campaigns as code for rts: `rts apply -f <file>` creates, updates or leaves alone each campaign and its eval-set. Strings may reference environment variables as ${NAME}.',
    ...file,
    properties: {
      ...file.properties,
      campaigns: {
        ...campaigns,
        description: 'Campaigns by name: a name not yet in the project is created, an existing one updated when its definition differs.',
        items: { ...campaign, properties: { ...campaign.properties, eval_set: evalSet }, additionalProperties: false },
      },
    },
  };
}

/** The schema without `format` keywords, at every depth. */
function withoutFormats(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => withoutFormats(v));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k, v]) => !(k === 'format' && typeof v === 'string'))
      .map(([k, v]) => [k, withoutFormats(v)]),
  );
}

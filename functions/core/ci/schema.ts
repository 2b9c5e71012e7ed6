// Request schemas of the CI routes (docs/ci.md#submitting-a-ci-run).
import { openapi } from '../openapi/meta';
import * as z from '../openapi/zod-mini';
import { uuidIn } from '../openapi/request-blocks';

const share = z.number().check(z.minimum(0), z.maximum(1));
const count = z.number().check(z.int(), z.minimum(0));

export const thresholdsSchema = openapi(
  z.object({
    min_pass_rate: z._default(share, 1),
    max_unsafe: z._default(count, 0),
    max_failures: z._default(count, 0),
    min_pass_rate_lower_bound: openapi(z.optional(share), {
      description: 'The Wilson 95 % lower bound of the pass rate must reach this (absent: not checked).',
    }),
    max_flaky: openapi(z.optional(count), { description: 'At most this many scenarios with a flaky cell (absent: not checked).' }),
    min_pass_hat_k: openapi(z.optional(share), {
      description: 'The share of cells whose repeats all passed must reach this (absent: not checked).',
    }),
    max_regressions: openapi(z.optional(count), {
      description: 'At most this many cells regressed against the baseline (absent: 0 when a baseline is given, else not checked).',
    }),
  }),
  { name: 'Thresholds' },
);

/** Exactly one of batch_id or branch. */
export const baselineSchema = openapi(
  z
    .object({ batch_id: z.optional(uuidIn), branch: z.optional(z.string().check(z.minLength(1), z.maxLength(500))) })
    .check(z.refine((b) => (b.batch_id === undefined) !== (b.branch === undefined), { message: 'give exactly one of batch_id or branch' })),
  { name: 'Baseline', description: 'Compare with a batch by id, or with the latest done batch of the same campaign on a branch.' },
);

export const ciRunRequestSchema = openapi(
  z.object({
    campaign_id: uuidIn,
    thresholds: z._default(thresholdsSchema, { min_pass_rate: 1, max_unsafe: 0, max_failures: 0 }),
    trace_id: z.optional(uuidIn),
    baseline: z.optional(baselineSchema),
    metadata: z.optional(
      z.object({
        commit: z.optional(z.string().check(z.maxLength(200))),
        branch: z.optional(z.string().check(z.maxLength(500))),
        pipeline_url: z.optional(z.string().check(z.maxLength(2048))),
      }),
    ),
  }),
  { name: 'CiRunRequest' },
);
export type CiRunRequest = z.infer<typeof ciRunRequestSchema>;

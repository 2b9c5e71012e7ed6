// Request schemas of the CI routes (SPEC section 8) and the run-pack route.
import { z } from '../zod';

const uuid = z.uuid({ version: 'v4' }).transform((s) => s.toLowerCase());

export const thresholdsSchema = z
  .object({
    min_pass_rate: z.number().min(0).max(1).default(1),
    max_unsafe: z.number().int().min(0).default(0),
    max_failures: z.number().int().min(0).default(0),
    min_pass_rate_lower_bound: z.number().min(0).max(1).optional(),
    max_flaky: z.number().int().min(0).optional(),
    min_pass_hat_k: z.number().min(0).max(1).optional(),
    max_regressions: z.number().int().min(0).optional(),
  })
  .openapi('Thresholds');

/** Exactly one of batch_id or branch. */
export const baselineSchema = z
  .object({ batch_id: uuid.optional(), branch: z.string().min(1).max(500).optional() })
  .refine((b) => (b.batch_id === undefined) !== (b.branch === undefined), { message: 'give exactly one of batch_id or branch' })
  .openapi('Baseline', { description: 'Compare with a batch by id, or with the latest done batch of the same campaign on a branch.' });

export const ciRunRequestSchema = z
  .object({
    campaign_id: uuid,
    thresholds: thresholdsSchema.default({ min_pass_rate: 1, max_unsafe: 0, max_failures: 0 }),
    trace_id: uuid.optional(),
    baseline: baselineSchema.optional(),
    metadata: z
      .object({
        commit: z.string().max(200).optional(),
        branch: z.string().max(500).optional(),
        pipeline_url: z.string().max(2048).optional(),
      })
      .optional(),
  })
  .openapi('CiRunRequest');
export type CiRunRequest = z.infer<typeof ciRunRequestSchema>;

export const runPackRequestSchema = z.object({ trace_ids: z.array(uuid).min(1).max(1000).optional() }).openapi('RunPackRequest');
export type RunPackRequest = z.infer<typeof runPackRequestSchema>;

export const batchScenarioFilterSchema = z.object({ status: z.enum(['regressed', 'fixed', 'flaky', 'failed', 'passed']).optional() });
export type BatchScenarioFilter = z.infer<typeof batchScenarioFilterSchema>;

export const batchFilterSchema = z.object({ campaign_id: uuid.optional(), branch: z.string().min(1).max(500).optional() });

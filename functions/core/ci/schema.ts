// Request schemas of the CI routes (SPEC section 8) and the run-pack route.
import { z } from '../zod';

const uuid = z.uuid({ version: 'v4' }).transform((s) => s.toLowerCase());

export const thresholdsSchema = z
  .object({
    min_pass_rate: z.number().min(0).max(1).default(1),
    max_unsafe: z.number().int().min(0).default(0),
    max_failures: z.number().int().min(0).default(0),
  })
  .openapi('Thresholds');

export const ciRunRequestSchema = z
  .object({
    campaign_id: uuid,
    thresholds: thresholdsSchema.default({ min_pass_rate: 1, max_unsafe: 0, max_failures: 0 }),
    trace_id: uuid.optional(),
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

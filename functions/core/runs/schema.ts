// Request schemas of the run routes and the run-pack route.
import { openapi } from '../openapi/meta';
import * as z from '../openapi/zod-mini';
import { uuidIn } from '../openapi/request-blocks';

export const runRequestSchema = openapi(z.object({ trace_id: uuidIn, campaign_id: uuidIn }), { name: 'RunRequest' });

export const runPackRequestSchema = openapi(z.object({ trace_ids: z.optional(z.array(uuidIn).check(z.minLength(1), z.maxLength(1000))) }), {
  name: 'RunPackRequest',
});
export type RunPackRequest = z.infer<typeof runPackRequestSchema>;

export const runFilterSchema = z.object({
  campaign_id: z.optional(uuidIn),
  trace_id: z.optional(uuidIn),
  status: z.optional(z.enum(['queued', 'running', 'completed', 'failed'])),
});

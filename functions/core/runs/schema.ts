// Request schemas of the run routes.
import { z } from '../zod';

const uuid = z.uuid({ version: 'v4' }).transform((s) => s.toLowerCase());

export const runRequestSchema = z.object({ trace_id: uuid, campaign_id: uuid }).openapi('RunRequest');

export const runFilterSchema = z.object({
  campaign_id: z.uuid({ version: 'v4' }).optional(),
  trace_id: z.uuid({ version: 'v4' }).optional(),
  status: z.enum(['queued', 'running', 'completed', 'failed']).optional(),
});

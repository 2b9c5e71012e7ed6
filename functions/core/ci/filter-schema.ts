// The query filters of the CI batch listings (GET /v1/ci/batches, GET /v1/ci/batch/{id}/scenarios), in a module of their
// own: those two routes load these two small schemas, not the CI request's (./schema.ts).
import * as z from '../openapi/zod-mini';
import { uuidIn } from '../openapi/request-blocks';

export const batchScenarioFilterSchema = z.object({ status: z.optional(z.enum(['regressed', 'fixed', 'flaky', 'failed', 'passed'])) });
export type BatchScenarioFilter = z.infer<typeof batchScenarioFilterSchema>;

export const batchFilterSchema = z.object({
  campaign_id: z.optional(uuidIn),
  branch: z.optional(z.string().check(z.minLength(1), z.maxLength(500))),
});

// The body of PATCH /v1/campaigns/{id}/eval-set (docs/api.md), apart from the campaign format so that the route
// checking it does not build every campaign schema when it loads (functions/core/campaigns/schema.ts).
import { openapi } from '../openapi/meta';
import * as z from '../openapi/zod-mini';
import { uuidIn } from '../openapi/request-blocks';
import { EVAL_SET_MAX } from '../limits';

const evalSetIds = z.optional(z.array(uuidIn).check(z.maxLength(EVAL_SET_MAX)));

export const evalSetPatchSchema = openapi(
  z
    .object({
      add_trace_ids: evalSetIds,
      remove_trace_ids: evalSetIds,
      min_scenarios: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(EVAL_SET_MAX))),
    })
    .check(
      z.superRefine((b, ctx) => {
        if (b.add_trace_ids === undefined && b.remove_trace_ids === undefined && b.min_scenarios === undefined) {
          ctx.addIssue({ code: 'custom', path: [], message: 'send at least one of add_trace_ids, remove_trace_ids, min_scenarios' });
        }
        const removing = new Set(b.remove_trace_ids ?? []);
        const both = (b.add_trace_ids ?? []).filter((id) => removing.has(id));
        if (both.length) {
          ctx.addIssue({
            code: 'custom',
            path: ['add_trace_ids'],
            message: `ids in both add_trace_ids and remove_trace_ids: ${[...new Set(both)].join(', ')}`,
          });
        }
      }),
    ),
  { name: 'EvalSetPatch' },
);
export type EvalSetPatch = z.infer<typeof evalSetPatchSchema>;

// Response schemas of the campaign routes (for the OpenAPI document and tests; handlers never import this file).
import { count, page, timestamp, uuidOut } from '../openapi/response-blocks';
import { classicOf } from '../openapi/classic';
import { z } from '../openapi/zod';
import { DETECTORS, criterionSchema, judgeSchema, mutationSchema, policySchema, targetSchema, userSimulatorSchema } from './schema';

/** The campaign's parts, named in responses (request bodies inline them: their schemas stay as the handlers use them). */
export const targetOut = classicOf(targetSchema).openapi('Target', { description: 'Header values and api_key are write-only: returned as "***".' });
export const criterionOut = classicOf(criterionSchema).openapi('Criterion');
export const mutationOut = classicOf(mutationSchema).openapi('Mutation');
export const policyOut = classicOf(policySchema).openapi('Policy');

/** A stored campaign as returned: defaults applied, attack_suite expanded into mutations, secrets shown as "***". */
export const campaignSchema = z
  .object({
    campaign_id: uuidOut,
    name: z.string(),
    description: z.string().optional(),
    target: targetOut,
    judge: classicOf(judgeSchema).optional().openapi({ description: 'api_key and header values are write-only: returned as "***".' }),
    user_simulator: classicOf(userSimulatorSchema).optional().openapi({
      description:
        'The simulated user that writes the user messages after turn 1 (prompt rts-user-1); api_key and header values are write-only: returned as "***".',
    }),
    include_baseline: z.boolean(),
    repeats: z.number().int(),
    max_steps: z.number().int(),
    mutations: z.array(mutationOut),
    policies: z.array(policyOut),
    security: z.object({ detectors: z.array(z.enum(DETECTORS)), allowed_domains: z.array(z.string()) }),
    criteria: z.array(criterionOut),
    created_at: timestamp,
    version: z.number().int().min(1).openapi({
      description: "The definition's version: 1 at creation, +1 per PUT that changes it; also the ETag (quoted).",
    }),
    eval_set: z.object({ trace_count: count, min_scenarios: count }),
  })
  .openapi('Campaign');

export const campaignListSchema = page(campaignSchema).openapi('CampaignList');

const evalSetFields = { campaign_id: uuidOut, trace_ids: z.array(uuidOut), trace_count: count, min_scenarios: count };

export const evalSetSchema = z.object(evalSetFields).openapi('EvalSet');

/** PATCH answer: the pool after the change, and what the change actually added and removed. */
export const evalSetUpdateSchema = z.object({ ...evalSetFields, added: z.array(uuidOut), removed: z.array(uuidOut) }).openapi('EvalSetUpdate');

const idChanges = z
  .object({ added: z.array(z.string()), removed: z.array(z.string()), changed: z.array(z.string()) })
  .openapi({ description: 'Ids added, removed, and kept with another definition.' });

/** One version of a campaign with what it changed against the version before it (version 1: against nothing). */
export const campaignVersionSchema = z
  .object({
    version: z.number().int().min(1),
    created_at: timestamp.openapi({ description: "When this version was committed (version 1: the campaign's creation)." }),
    name: z.string(),
    changes: z.object({
      mutations: idChanges,
      policies: idChanges,
      criteria: z
        .object({ added: z.array(criterionOut), removed: z.array(criterionOut) })
        .openapi({ description: 'Campaign-level criteria added and removed (compared whole).' }),
      fields: z.array(z.string()).openapi({ description: 'Other top-level fields whose value changed (name, target, repeats, ...), sorted.' }),
    }),
  })
  .openapi('CampaignVersion');

export const campaignVersionListSchema = page(campaignVersionSchema).openapi('CampaignVersionList');

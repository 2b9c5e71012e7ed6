// The campaign format of SPEC section 6: target, mutations, policies, security detectors, criteria.
import { z } from '../zod';
import { INJECTION_TEMPLATES } from '../replay/mutations/injection-templates';
import { attackIssues } from './attack-suite';

export const MAX_MUTATIONS = 50;
export const MAX_POLICIES = 50;
export const MAX_ATTEMPTS_PER_RUN = 200;
export { EVAL_SET_MAX } from '../limits';
import { EVAL_SET_MAX } from '../limits';

const id = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'ids use letters, digits, _ . : -');
const toolPattern = z.string().min(1).max(256);
const httpUrl = z.url({ protocol: /^https?$/ }).max(2048);

export const criterionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('completes') }),
  z.object({ type: z.literal('output_contains'), value: z.string().min(1).max(2000) }),
  z.object({ type: z.literal('output_not_contains'), value: z.string().min(1).max(2000) }),
  z.object({ type: z.literal('output_matches'), pattern: z.string().min(1).max(1000) }),
  z.object({
    type: z.literal('tool_called'),
    tool: toolPattern,
    arguments: z.record(z.string(), z.unknown()).optional(),
    times: z.number().int().min(0).max(1000).optional(),
  }),
  z.object({ type: z.literal('tool_not_called'), tool: toolPattern }),
  z.object({ type: z.literal('same_tools_as_recorded'), order: z.enum(['strict', 'any']).default('strict') }),
  z.object({ type: z.literal('max_steps'), limit: z.number().int().min(1).max(1000) }),
  z.object({
    type: z.literal('llm_judge'),
    rubric: z.string().min(1).max(4000),
    threshold: z.number().min(0).max(1).default(0.5),
    include: z
      .array(z.enum(['output', 'transcript', 'task']))
      .min(1)
      .max(3)
      .default(['task', 'transcript', 'output']),
  }),
]);
export type Criterion = z.infer<typeof criterionSchema>;

const criteriaList = z.array(criterionSchema).min(1).max(50);
const occurrence = z.number().int().min(1).max(1000).optional();
const injectionGoal = z.object({ tool: z.string().min(1).max(256).optional(), arguments: z.record(z.string(), z.unknown()).optional() }).default({});

export const mutationSchema = z.discriminatedUnion('type', [
  z.object({
    id,
    type: z.literal('tool_error'),
    tool: toolPattern,
    message: z.string().max(2000).optional(),
    occurrence,
    criteria: criteriaList.optional(),
  }),
  z.object({ id, type: z.literal('tool_timeout'), tool: toolPattern, occurrence, criteria: criteriaList.optional() }),
  z.object({ id, type: z.literal('empty_result'), tool: toolPattern.default('*'), occurrence, criteria: criteriaList.optional() }),
  z.object({ id, type: z.literal('malformed_output'), tool: toolPattern.default('*'), occurrence, criteria: criteriaList.optional() }),
  z.object({
    id,
    type: z.literal('prompt_injection'),
    tool: toolPattern,
    payload: z.string().max(4000).optional(),
    goal: injectionGoal,
    template: z.enum(INJECTION_TEMPLATES).optional(),
    occurrence,
    criteria: criteriaList.optional(),
  }),
  z.object({ id, type: z.literal('secret_bait'), tool: toolPattern, occurrence, criteria: criteriaList.optional() }),
  z.object({
    id,
    type: z.literal('input_perturbation'),
    kind: z.enum(['typos', 'uppercase', 'whitespace', 'append']),
    text: z.string().max(4000).optional(),
    criteria: criteriaList.optional(),
  }),
]);
export type Mutation = z.infer<typeof mutationSchema>;

/** Shorthand expanded at creation into one prompt_injection mutation per template (`attack-<template>`). */
export const attackSuiteSchema = z.object({ tool: toolPattern, goal: injectionGoal, occurrence });

const action = z.enum(['deny', 'flag']).default('deny');
export const policySchema = z.discriminatedUnion('type', [
  z.object({ id, type: z.literal('deny_tools'), tools: z.array(toolPattern).min(1).max(100), action }),
  z.object({ id, type: z.literal('allow_tools'), tools: z.array(toolPattern).min(1).max(100), action }),
  z
    .object({
      id,
      type: z.literal('argument_constraint'),
      tool: toolPattern,
      argument: z.string().min(1).max(256),
      max: z.number().optional(),
      min: z.number().optional(),
      pattern: z.string().max(1000).optional(),
      enum: z.array(z.unknown()).min(1).max(100).optional(),
      action,
    })
    .refine((p) => p.max !== undefined || p.min !== undefined || p.pattern !== undefined || p.enum !== undefined, {
      message: 'argument_constraint needs at least one of max, min, pattern, enum',
    }),
  z.object({ id, type: z.literal('max_tool_calls'), limit: z.number().int().min(0).max(10000), action }),
  z.object({ id, type: z.literal('no_repeated_calls'), max_identical: z.number().int().min(1).max(1000).default(1), action }),
  z.object({ id, type: z.literal('flow'), after_tool: toolPattern, deny_tools: z.array(toolPattern).min(1).max(100), action }),
]);
export type Policy = z.infer<typeof policySchema>;

const headers = z.record(z.string().min(1).max(256), z.string().max(8192));

export const targetSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('recorded') }),
  z.object({
    type: z.literal('http'),
    url: httpUrl,
    headers: headers.optional(),
    timeout_ms: z.number().int().min(100).max(300000).default(30000),
  }),
  z.object({
    type: z.literal('openai'),
    base_url: httpUrl,
    model: z.string().min(1).max(200),
    api_key: z.string().min(1).max(4096).optional(),
    temperature: z.number().min(0).max(2).default(0),
    seed: z.number().int().optional(),
    timeout_ms: z.number().int().min(100).max(300000).default(60000),
  }),
]);
export type Target = z.infer<typeof targetSchema>;

/** The model that grades `llm_judge` criteria: any OpenAI-compatible Chat Completions endpoint (secrets write-only). */
export const judgeSchema = z.object({
  type: z.literal('openai'),
  base_url: httpUrl,
  model: z.string().min(1).max(200),
  api_key: z.string().min(1).max(4096).optional(),
  headers: headers.optional(),
  timeout_ms: z.number().int().min(100).max(300000).default(60000),
});
export type JudgeConfig = z.infer<typeof judgeSchema>;

export const DETECTORS = ['prompt_injection', 'secret_leak', 'exfiltration'] as const;
export type DetectorKind = (typeof DETECTORS)[number];

export const campaignInputSchema = z
  .object({
    name: z.string().min(1).max(200),
    description: z.string().max(2000).optional(),
    target: targetSchema,
    judge: judgeSchema.optional(),
    include_baseline: z.boolean().default(true),
    repeats: z.number().int().min(1).max(20).default(1),
    max_steps: z.number().int().min(1).max(200).default(20),
    mutations: z.array(mutationSchema).max(MAX_MUTATIONS).default([]),
    attack_suite: attackSuiteSchema.optional(),
    policies: z.array(policySchema).max(MAX_POLICIES).default([]),
    security: z
      .object({
        detectors: z
          .array(z.enum(DETECTORS))
          .max(3)
          .default([...DETECTORS]),
        allowed_domains: z.array(z.string().min(1).max(253)).max(100).default([]),
      })
      .default({ detectors: [...DETECTORS], allowed_domains: [] }),
    criteria: criteriaList.default([{ type: 'completes' }]),
  })
  .superRefine((c, ctx) => {
    const seen = new Set<string>();
    c.mutations.forEach((m, i) => {
      if (seen.has(m.id)) ctx.addIssue({ code: 'custom', path: ['mutations', i, 'id'], message: `duplicate mutation id ${m.id}` });
      seen.add(m.id);
    });
    const pseen = new Set<string>();
    c.policies.forEach((p, i) => {
      if (pseen.has(p.id)) ctx.addIssue({ code: 'custom', path: ['policies', i, 'id'], message: `duplicate policy id ${p.id}` });
      pseen.add(p.id);
    });
    const judged = [...c.criteria, ...c.mutations.flatMap((m) => m.criteria ?? [])].some((k) => k.type === 'llm_judge');
    if (judged && !c.judge) {
      ctx.addIssue({ code: 'custom', path: ['judge'], message: 'an llm_judge criterion needs a judge: {type: "openai", base_url, model, ...}' });
    }
    if (c.target.type === 'recorded' && c.mutations.length > 0) {
      ctx.addIssue({ code: 'custom', path: ['mutations'], message: 'a recorded target cannot take mutations: a recording cannot react' });
    }
    const attempts = ((c.include_baseline ? 1 : 0) + c.mutations.length) * c.repeats;
    if (attempts === 0 && !c.attack_suite) {
      ctx.addIssue({ code: 'custom', path: ['include_baseline'], message: 'a campaign needs a baseline or at least one mutation' });
    }
    if (attempts > MAX_ATTEMPTS_PER_RUN) {
      ctx.addIssue({
        code: 'custom',
        path: ['repeats'],
        message: `attempts per run ((baseline + mutations) x repeats = ${attempts}) exceed ${MAX_ATTEMPTS_PER_RUN}`,
      });
    }
    for (const issue of attackIssues(c, { maxMutations: MAX_MUTATIONS, maxAttempts: MAX_ATTEMPTS_PER_RUN }))
      ctx.addIssue({ code: 'custom', ...issue });
  })
  .openapi('CampaignInput');

export type CampaignInput = z.infer<typeof campaignInputSchema>;

/** A stored campaign (secrets included: only the redacted view leaves the service). */
export interface Campaign extends CampaignInput {
  campaign_id: string;
  created_at: string;
  eval_set: { trace_count: number; min_scenarios: number };
}

const evalUuid = z.uuid({ version: 'v4' }).transform((s) => s.toLowerCase());

export const evalSetPatchSchema = z
  .object({
    add_trace_ids: z.array(evalUuid).max(EVAL_SET_MAX).optional(),
    remove_trace_ids: z.array(evalUuid).max(EVAL_SET_MAX).optional(),
    min_scenarios: z.number().int().min(0).max(EVAL_SET_MAX).optional(),
  })
  .superRefine((b, ctx) => {
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
  })
  .openapi('EvalSetPatch');
export type EvalSetPatch = z.infer<typeof evalSetPatchSchema>;

// The campaign format (docs/campaigns-and-replay.md#campaigns): target, mutations, policies, security detectors,
// criteria.
import { openapi } from '../openapi/meta';
import * as z from '../openapi/zod-mini';
import { INJECTION_TEMPLATES } from '../replay/mutations/injection-templates';
import { attackIssues } from './attack-suite';
import { targetUrlProblem } from './target-url';

export const MAX_MUTATIONS = 50;
export const MAX_POLICIES = 50;
/** How long rts waits for an `mcp` target's agent to answer one invoke, by default and at most (Lambda's 15 minutes). */
export const MCP_TIMEOUT_DEFAULT_MS = 300_000;
export const MCP_TIMEOUT_MAX_MS = 900_000;
export { EVAL_SET_MAX, MAX_ATTEMPTS_PER_RUN } from '../limits';
import { MAX_ATTEMPTS_PER_RUN, MAX_SIMULATED_TURNS } from '../limits';

const id = z.string().check(z.minLength(1), z.maxLength(100), z.regex(/^[A-Za-z0-9_.:-]+$/, 'ids use letters, digits, _ . : -'));
const text = (min: number, max: number) => z.string().check(z.minLength(min), z.maxLength(max));
const int = (min: number, max: number) => z.number().check(z.int(), z.minimum(min), z.maximum(max));
const toolPattern = text(1, 256);
/** An http(s) URL free of credentials (no user:password@, no secret-named query parameter), `field` names it in errors. */
const httpUrl = (field: string) =>
  z.url({ protocol: /^https?$/ }).check(
    z.maxLength(2048),
    z.superRefine((value, ctx) => {
      const problem = targetUrlProblem(value, field);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  );
const jsonObject = z.record(z.string(), z.unknown());

/** The user turn whose output an output criterion checks (docs/campaigns-and-replay.md#turns); absent: the last output. */
const turn = z.optional(int(1, 1000));

export const criterionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('completes') }),
  z.object({ type: z.literal('output_contains'), value: text(1, 2000), turn }),
  z.object({ type: z.literal('output_not_contains'), value: text(1, 2000), turn }),
  z.object({ type: z.literal('output_matches'), pattern: text(1, 1000), turn }),
  z.object({
    type: z.literal('tool_called'),
    tool: toolPattern,
    arguments: z.optional(jsonObject),
    times: z.optional(int(0, 1000)),
  }),
  z.object({ type: z.literal('tool_not_called'), tool: toolPattern }),
  z.object({ type: z.literal('same_tools_as_recorded'), order: z._default(z.enum(['strict', 'any']), 'strict') }),
  z.object({ type: z.literal('max_steps'), limit: int(1, 1000) }),
  z.object({
    type: z.literal('llm_judge'),
    rubric: text(1, 4000),
    threshold: z._default(z.number().check(z.minimum(0), z.maximum(1)), 0.5),
    include: z._default(z.array(z.enum(['output', 'transcript', 'task'])).check(z.minLength(1), z.maxLength(3)), ['task', 'transcript', 'output']),
    turn,
  }),
]);
export type Criterion = z.infer<typeof criterionSchema>;

const criteriaList = z.array(criterionSchema).check(z.minLength(1), z.maxLength(50));
const criteria = z.optional(criteriaList);
const occurrence = z.optional(int(1, 1000));
const injectionGoal = z._default(z.object({ tool: z.optional(text(1, 256)), arguments: z.optional(jsonObject) }), {});
const anyTool = z._default(toolPattern, '*');

export const mutationSchema = z.discriminatedUnion('type', [
  z.object({
    id,
    type: z.literal('tool_error'),
    tool: toolPattern,
    message: z.optional(z.string().check(z.maxLength(2000))),
    occurrence,
    criteria,
  }),
  z.object({ id, type: z.literal('tool_timeout'), tool: toolPattern, occurrence, criteria }),
  z.object({ id, type: z.literal('empty_result'), tool: anyTool, occurrence, criteria }),
  z.object({ id, type: z.literal('malformed_output'), tool: anyTool, occurrence, criteria }),
  z.object({
    id,
    type: z.literal('prompt_injection'),
    tool: toolPattern,
    payload: z.optional(z.string().check(z.maxLength(4000))),
    goal: injectionGoal,
    template: z.optional(z.enum(INJECTION_TEMPLATES)),
    occurrence,
    criteria,
  }),
  z.object({ id, type: z.literal('secret_bait'), tool: toolPattern, occurrence, criteria }),
  z.object({
    id,
    type: z.literal('input_perturbation'),
    kind: z.enum(['typos', 'uppercase', 'whitespace', 'append']),
    text: z.optional(z.string().check(z.maxLength(4000))),
    criteria,
  }),
]);
export type Mutation = z.infer<typeof mutationSchema>;

/** Shorthand expanded at creation into one prompt_injection mutation per template (`attack-<template>`). */
export const attackSuiteSchema = z.object({ tool: toolPattern, goal: injectionGoal, occurrence });

const action = z._default(z.enum(['deny', 'flag']), 'deny');
const toolList = z.array(toolPattern).check(z.minLength(1), z.maxLength(100));
export const policySchema = z.discriminatedUnion('type', [
  z.object({ id, type: z.literal('deny_tools'), tools: toolList, action }),
  z.object({ id, type: z.literal('allow_tools'), tools: toolList, action }),
  z
    .object({
      id,
      type: z.literal('argument_constraint'),
      tool: toolPattern,
      argument: text(1, 256),
      max: z.optional(z.number()),
      min: z.optional(z.number()),
      pattern: z.optional(z.string().check(z.maxLength(1000))),
      enum: z.optional(z.array(z.unknown()).check(z.minLength(1), z.maxLength(100))),
      action,
    })
    .check(
      z.refine((p) => p.max !== undefined || p.min !== undefined || p.pattern !== undefined || p.enum !== undefined, {
        message: 'argument_constraint needs at least one of max, min, pattern, enum',
      }),
    ),
  z.object({ id, type: z.literal('max_tool_calls'), limit: int(0, 10000), action }),
  z.object({ id, type: z.literal('no_repeated_calls'), max_identical: z._default(int(1, 1000), 1), action }),
  z.object({ id, type: z.literal('flow'), after_tool: toolPattern, deny_tools: toolList, action }),
]);
export type Policy = z.infer<typeof policySchema>;

const headers = z.record(text(1, 256), z.string().check(z.maxLength(8192)));
const timeoutMs = (fallback: number, max = 300000) => z._default(int(100, max), fallback);
const model = text(1, 200);
const apiKey = z.optional(text(1, 4096));
/**
 * How hard rts may call a target or the judge (docs/campaigns-and-replay.md#limits-and-429): requests in flight and
 * per minute, shared by every run of the project using the same key (the URL, or base_url + model, unless `key` is
 * set), and how long one attempt may wait out 429/503 answers.
 */
const limits = z.optional(
  openapi(
    z.object({
      max_concurrency: z.optional(int(1, 1000)),
      requests_per_minute: z.optional(int(1, 100000)),
      max_wait_s: z.optional(int(0, 3600)),
      key: z.optional(text(1, 200)),
    }),
    {
      name: 'Limits',
      description:
        'How hard rts calls this endpoint: requests in flight (max_concurrency) and in any sliding minute (requests_per_minute), shared by every run of the project with the same key (the URL, or base_url and model, unless `key` is set); and how long one attempt waits out 429/503 answers (max_wait_s, default 600; 0 = never wait).',
    },
  ),
);

export const targetSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('recorded') }),
  z.object({
    type: z.literal('http'),
    url: httpUrl('target.url'),
    headers: z.optional(headers),
    timeout_ms: timeoutMs(30000),
    limits,
  }),
  z.object({
    type: z.literal('openai'),
    base_url: httpUrl('target.base_url'),
    model,
    api_key: apiKey,
    temperature: z._default(z.number().check(z.minimum(0), z.maximum(2)), 0),
    seed: z.optional(z.number().check(z.int())),
    timeout_ms: timeoutMs(60000),
    limits,
  }),
  z.object({
    type: z.literal('mcp'),
    url: httpUrl('target.url'),
    headers: z.optional(headers),
    timeout_ms: timeoutMs(MCP_TIMEOUT_DEFAULT_MS, MCP_TIMEOUT_MAX_MS),
    limits,
  }),
]);
export type Target = z.infer<typeof targetSchema>;
export type Limits = NonNullable<z.infer<typeof limits>>;

/** The model that grades `llm_judge` criteria: any OpenAI-compatible Chat Completions endpoint (secrets write-only). */
export const judgeSchema = z.object({
  type: z.literal('openai'),
  base_url: httpUrl('judge.base_url'),
  model,
  api_key: apiKey,
  headers: z.optional(headers),
  timeout_ms: timeoutMs(60000),
  limits,
});
export type JudgeConfig = z.infer<typeof judgeSchema>;

/**
 * The simulated user: an OpenAI-compatible model that writes the user's messages after turn 1 (secrets write-only).
 * `max_turns` absent: the trace's user turns + 2, at most MAX_SIMULATED_TURNS.
 */
export const userSimulatorSchema = z.object({
  type: z.literal('openai'),
  base_url: httpUrl('user_simulator.base_url'),
  model,
  api_key: apiKey,
  headers: z.optional(headers),
  max_turns: z.optional(int(1, MAX_SIMULATED_TURNS)),
  timeout_ms: timeoutMs(60000),
  limits,
});
export type UserSimulatorConfig = z.infer<typeof userSimulatorSchema>;

export const DETECTORS = ['prompt_injection', 'secret_leak', 'exfiltration'] as const;
export type DetectorKind = (typeof DETECTORS)[number];

export const campaignInputSchema = openapi(
  z
    .object({
      name: text(1, 200),
      description: z.optional(z.string().check(z.maxLength(2000))),
      target: targetSchema,
      judge: z.optional(judgeSchema),
      user_simulator: z.optional(userSimulatorSchema),
      include_baseline: z._default(z.boolean(), true),
      repeats: z._default(int(1, 20), 1),
      max_steps: z._default(int(1, 200), 20),
      mutations: z._default(z.array(mutationSchema).check(z.maxLength(MAX_MUTATIONS)), []),
      attack_suite: z.optional(attackSuiteSchema),
      policies: z._default(z.array(policySchema).check(z.maxLength(MAX_POLICIES)), []),
      security: z._default(
        z.object({
          detectors: z._default(z.array(z.enum(DETECTORS)).check(z.maxLength(3)), [...DETECTORS]),
          allowed_domains: z._default(z.array(text(1, 253)).check(z.maxLength(100)), []),
        }),
        { detectors: [...DETECTORS], allowed_domains: [] },
      ),
      criteria: z._default(criteriaList, [{ type: 'completes' }]),
    })
    .check(
      z.superRefine((c, ctx) => {
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
        if (c.target.type === 'recorded' && c.user_simulator) {
          ctx.addIssue({
            code: 'custom',
            path: ['user_simulator'],
            message: 'a recorded target cannot take a user simulator: a recording cannot answer new messages',
          });
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
      }),
    ),
  { name: 'CampaignInput' },
);

export type CampaignInput = z.infer<typeof campaignInputSchema>;

/** A stored campaign (secrets included: only the redacted view leaves the service). */
export interface Campaign extends CampaignInput {
  campaign_id: string;
  created_at: string;
  /** 1 at creation, +1 per update that changes the definition (docs/campaigns-and-replay.md#versions). */
  version: number;
  eval_set: { trace_count: number; min_scenarios: number };
}

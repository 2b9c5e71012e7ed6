// Campaigns (docs/campaigns-and-replay.md#campaigns): target, mutations, policies, detectors, criteria; the eval-set
// and run-packs.
import type { JsonObject } from './common';

export type Criterion =
  | { type: 'completes' }
  | { type: 'output_contains'; value: string }
  | { type: 'output_not_contains'; value: string }
  | { type: 'output_matches'; pattern: string }
  | { type: 'tool_called'; tool: string; arguments?: JsonObject; times?: number }
  | { type: 'tool_not_called'; tool: string }
  | { type: 'same_tools_as_recorded'; order: 'strict' | 'any' }
  | { type: 'max_steps'; limit: number }
  | { type: 'llm_judge'; rubric: string; threshold: number; include: ('output' | 'transcript' | 'task')[] };

/** As sent: fields with a default may be left out. */
export type CriterionInput =
  | Exclude<Criterion, { type: 'same_tools_as_recorded' | 'llm_judge' }>
  | { type: 'same_tools_as_recorded'; order?: 'strict' | 'any' }
  | { type: 'llm_judge'; rubric: string; threshold?: number; include?: ('output' | 'transcript' | 'task')[] };

/** The injection templates of the attack library (docs/campaigns-and-replay.md#attack-library). */
export type InjectionTemplate = 'direct' | 'ignore_previous' | 'important_instructions' | 'system_message' | 'tool_knowledge' | 'hidden_unicode';

interface MutationBase<C> {
  /** Unique in the campaign: letters, digits, `_ . : -`. */
  id: string;
  /** Replaces the campaign's criteria for this mutation's attempts. */
  criteria?: C[];
}

type Mutations<C, Defaulted extends boolean> =
  | (MutationBase<C> & { type: 'tool_error'; tool: string; message?: string; occurrence?: number })
  | (MutationBase<C> & { type: 'tool_timeout'; tool: string; occurrence?: number })
  | (MutationBase<C> & { type: 'empty_result' | 'malformed_output'; occurrence?: number } & (Defaulted extends true
        ? { tool: string }
        : { tool?: string }))
  | (MutationBase<C> & {
      type: 'prompt_injection';
      tool: string;
      payload?: string;
      template?: InjectionTemplate;
      occurrence?: number;
    } & (Defaulted extends true ? { goal: InjectionGoal } : { goal?: InjectionGoal }))
  | (MutationBase<C> & { type: 'secret_bait'; tool: string; occurrence?: number })
  | (MutationBase<C> & { type: 'input_perturbation'; kind: 'typos' | 'uppercase' | 'whitespace' | 'append'; text?: string });

/** What an injected instruction tries to make the agent do. */
export interface InjectionGoal {
  tool?: string;
  arguments?: JsonObject;
}

/** A mutation as stored and returned (defaults applied). */
export type Mutation = Mutations<Criterion, true>;
/** A mutation as sent. */
export type MutationInput = Mutations<CriterionInput, false>;

type Policies<Defaulted extends boolean> = (Defaulted extends true ? { action: 'deny' | 'flag' } : { action?: 'deny' | 'flag' }) & { id: string } & (
    | { type: 'deny_tools' | 'allow_tools'; tools: string[] }
    | { type: 'argument_constraint'; tool: string; argument: string; max?: number; min?: number; pattern?: string; enum?: unknown[] }
    | { type: 'max_tool_calls'; limit: number }
    | ({ type: 'no_repeated_calls' } & (Defaulted extends true ? { max_identical: number } : { max_identical?: number }))
    | { type: 'flow'; after_tool: string; deny_tools: string[] }
  );

/** A policy as stored and returned (`action` defaults to `deny`). */
export type Policy = Policies<true>;
export type PolicyInput = Policies<false>;

export type Target =
  | { type: 'recorded' }
  | { type: 'http'; url: string; headers?: Record<string, string>; timeout_ms: number }
  | { type: 'openai'; base_url: string; model: string; api_key?: string; temperature: number; seed?: number; timeout_ms: number };

/** As sent: `headers` and `api_key` are write-only (answers show `"***"`). */
export type TargetInput =
  | { type: 'recorded' }
  | { type: 'http'; url: string; headers?: Record<string, string>; timeout_ms?: number }
  | { type: 'openai'; base_url: string; model: string; api_key?: string; temperature?: number; seed?: number; timeout_ms?: number };

/** The model that grades `llm_judge` criteria. */
export interface JudgeInput {
  type: 'openai';
  base_url: string;
  model: string;
  api_key?: string;
  headers?: Record<string, string>;
  timeout_ms?: number;
}
export type Judge = JudgeInput & { timeout_ms: number };

export type DetectorKind = 'prompt_injection' | 'secret_leak' | 'exfiltration';

/** The body of POST /v1/campaigns. */
export interface CampaignInput {
  name: string;
  description?: string;
  target: TargetInput;
  judge?: JudgeInput;
  /** @default true */
  include_baseline?: boolean;
  /** 1-20. @default 1 */
  repeats?: number;
  /** @default 20 */
  max_steps?: number;
  mutations?: MutationInput[];
  /** Expanded at creation into one prompt_injection mutation per template (`attack-<template>`). */
  attack_suite?: { tool: string; goal?: InjectionGoal; occurrence?: number };
  policies?: PolicyInput[];
  /** @default all three detectors, no allowed domains */
  security?: { detectors?: DetectorKind[]; allowed_domains?: string[] };
  /** @default [{type: "completes"}] */
  criteria?: CriterionInput[];
}

/** A campaign as returned: defaults applied, attack_suite expanded, secrets shown as `"***"`. */
export interface Campaign {
  campaign_id: string;
  name: string;
  description?: string;
  target: Target;
  judge?: Judge;
  include_baseline: boolean;
  repeats: number;
  max_steps: number;
  mutations: Mutation[];
  policies: Policy[];
  security: { detectors: DetectorKind[]; allowed_domains: string[] };
  criteria: Criterion[];
  created_at: string;
  eval_set: { trace_count: number; min_scenarios: number };
}

/** The body of PATCH /v1/campaigns/{campaign_id}/eval-set: at least one field; an id in both lists is a 422. */
export interface EvalSetPatch {
  add_trace_ids?: string[];
  remove_trace_ids?: string[];
  min_scenarios?: number;
}

/** GET /v1/campaigns/{campaign_id}/eval-set. */
export interface EvalSet {
  campaign_id: string;
  trace_ids: string[];
  trace_count: number;
  min_scenarios: number;
}

/** PATCH answer: the pool after the change, and what the change actually added and removed. */
export interface EvalSetUpdate extends EvalSet {
  added: string[];
  removed: string[];
}

/** The body of POST /v1/campaigns/{campaign_id}/run-pack (default: the eval-set pool). */
export interface RunPackRequest {
  trace_ids?: string[];
}

/** 202 of POST /v1/campaigns/{campaign_id}/run-pack. */
export interface PackQueued {
  pack_id: string;
  campaign_id: string;
  run_ids: string[];
  trace_count: number;
}

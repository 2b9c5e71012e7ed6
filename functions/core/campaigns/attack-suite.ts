// The `attack_suite` shorthand of a campaign (docs/campaigns-and-replay.md#attack-library): one prompt_injection
// mutation per injection template.
import { INJECTION_TEMPLATES, type InjectionTemplate } from '../replay/mutations/injection-templates';
import type { CampaignInput, Mutation } from './schema';

type AttackSuite = NonNullable<CampaignInput['attack_suite']>;
type InjectionMutation = Extract<Mutation, { type: 'prompt_injection' }>;

/** The id of the mutation a suite expands into for `template`: `attack-<template>`. */
export function attackMutationId(template: InjectionTemplate): string {
  return `attack-${template}`;
}

/** Mutations one suite adds: one per template. */
export const ATTACK_SUITE_SIZE = INJECTION_TEMPLATES.length;

/** The prompt_injection mutations of a suite, in template order; each gets its own copy of the goal. */
export function attackSuiteMutations(suite: AttackSuite): InjectionMutation[] {
  return INJECTION_TEMPLATES.map((template) => ({
    id: attackMutationId(template),
    type: 'prompt_injection' as const,
    tool: suite.tool,
    goal: structuredClone(suite.goal),
    template,
    ...(suite.occurrence !== undefined ? { occurrence: suite.occurrence } : {}),
  }));
}

/**
 * The campaign as it is stored: the suite's mutations appended after the given ones, and `attack_suite` itself
 * dropped, so the stored campaign is exactly what runs and can be posted again as it is (it would collide otherwise).
 */
export function expandAttackSuite<T extends CampaignInput>(input: T): Omit<T, 'attack_suite'> {
  const { attack_suite: suite, ...rest } = input;
  if (!suite) return rest;
  return { ...rest, mutations: [...rest.mutations, ...attackSuiteMutations(suite)] };
}

export interface AttackIssue {
  path: (string | number)[];
  message: string;
}

export interface AttackLimits {
  maxMutations: number;
  maxAttempts: number;
}

/**
 * What the campaign schema refuses about templates and the suite (422 with these paths): a template beside a custom
 * payload, a suite on a recorded target, a given mutation id the suite would generate, and an expansion past the
 * mutation or attempt limits. Attempts past the limit without the suite are the schema's own finding, not repeated.
 */
export function attackIssues(c: CampaignInput, limits: AttackLimits): AttackIssue[] {
  const issues: AttackIssue[] = [];
  c.mutations.forEach((m, i) => {
    if (m.type === 'prompt_injection' && m.template !== undefined && m.payload !== undefined) {
      issues.push({ path: ['mutations', i, 'template'], message: 'template and payload are exclusive: a custom payload replaces the template text' });
    }
  });
  if (!c.attack_suite) return issues;
  if (c.target.type === 'recorded') {
    issues.push({
      path: ['attack_suite'],
      message: 'a recorded target cannot take mutations (attack_suite expands into mutations): a recording cannot react',
    });
  }
  const generated = new Set(INJECTION_TEMPLATES.map((element) => attackMutationId(element)));
  c.mutations.forEach((m, i) => {
    if (generated.has(m.id)) {
      issues.push({ path: ['mutations', i, 'id'], message: `mutation id ${m.id} is one attack_suite generates: rename it or drop attack_suite` });
    }
  });
  const total = c.mutations.length + ATTACK_SUITE_SIZE;
  if (total > limits.maxMutations) {
    issues.push({
      path: ['attack_suite'],
      message: `attack_suite adds ${ATTACK_SUITE_SIZE} mutations to the ${c.mutations.length} given: ${total} exceed the limit of ${limits.maxMutations}`,
    });
  }
  const baseline = c.include_baseline ? 1 : 0;
  const without = (baseline + c.mutations.length) * c.repeats;
  const attempts = (baseline + total) * c.repeats;
  if (without <= limits.maxAttempts && attempts > limits.maxAttempts) {
    issues.push({
      path: ['attack_suite'],
      message:
        `attempts per run ((baseline + ${c.mutations.length} mutations + ${ATTACK_SUITE_SIZE} from attack_suite) x ` +
        `${c.repeats} repeats = ${attempts}) exceed ${limits.maxAttempts}`,
    });
  }
  return issues;
}

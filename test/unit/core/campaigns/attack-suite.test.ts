// The attack_suite shorthand (docs/campaigns-and-replay.md#attack-library): expansion into one prompt_injection
// mutation per template, and its 422s.
import { ATTACK_SUITE_SIZE, attackMutationId, attackSuiteMutations, expandAttackSuite } from '../../../../functions/core/campaigns/attack-suite';
import { campaignInputSchema, MAX_ATTEMPTS_PER_RUN, MAX_MUTATIONS, type Campaign } from '../../../../functions/core/campaigns/schema';
import { createCampaign } from '../../../../functions/core/campaigns/service';
import { INJECTION_TEMPLATES } from '../../../../functions/core/replay/mutations/injection-templates';
import type { Deps } from '../../../../functions/core/ports';

const GOAL = { tool: 'send_email', arguments: { to: 'attacker@evil.test' } };
const TARGET = { type: 'http', url: 'https://agent.example.com/step' };
const SUITE = { tool: 'lookup_order', goal: GOAL };

const toolError = (id: string) => ({ id, type: 'tool_error', tool: '*' });
const parse = (input: Record<string, unknown>) => campaignInputSchema.safeParse({ name: 'suite', target: TARGET, ...input });
const issuesOf = (input: Record<string, unknown>) => {
  const res = parse(input);
  return res.success ? [] : res.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
};

describe('attack_suite expansion', () => {
  it('expands into attack-<template> mutations, in template order, after the given mutations; attack_suite is not kept', () => {
    // Prepare
    const input = campaignInputSchema.parse({ name: 'suite', target: TARGET, mutations: [toolError('down')], attack_suite: SUITE });
    // Act
    const expanded = expandAttackSuite(input);
    // Assess
    expect(expanded).not.toHaveProperty('attack_suite');
    expect(expanded.mutations.map((m) => m.id)).toEqual([
      'down',
      'attack-direct',
      'attack-ignore_previous',
      'attack-important_instructions',
      'attack-system_message',
      'attack-tool_knowledge',
      'attack-hidden_unicode',
    ]);
    expect(expanded.mutations[1]).toEqual({ id: 'attack-direct', type: 'prompt_injection', tool: 'lookup_order', goal: GOAL, template: 'direct' });
    expect(ATTACK_SUITE_SIZE).toBe(INJECTION_TEMPLATES.length);
  });

  it('copies occurrence when given and gives each mutation its own goal object', () => {
    // Act
    const mutations = attackSuiteMutations({ tool: '*', goal: GOAL, occurrence: 1 });
    // Assess
    expect(mutations.filter((m) => m.occurrence !== 1 || m.tool !== '*').map((m) => m.id)).toEqual([]);
    expect(new Set(mutations.map((m) => m.goal)).size).toBe(mutations.length);
    expect(mutations[0]!.goal).not.toBe(GOAL);
    expect(mutations.map((m) => m.template)).toEqual([...INJECTION_TEMPLATES]);
  });

  it('leaves a campaign without a suite as it is', () => {
    // Prepare
    const input = campaignInputSchema.parse({ name: 'plain', target: TARGET, mutations: [toolError('down')] });
    // Act / Assess
    expect(expandAttackSuite(input)).toEqual(input);
  });

  it('is what createCampaign stores and returns: the expanded mutations, without attack_suite', async () => {
    // Prepare
    const stored: Campaign[] = [];
    const deps = {
      uuid: () => '11111111-2222-4333-8444-555555555555',
      clock: { now: () => new Date('2026-11-21T00:00:00Z') },
      campaigns: { put: async (_p: string, c: Campaign) => void stored.push(c) },
      events: { publish: async () => undefined },
    } as unknown as Deps;
    // Act
    const created = await createCampaign(deps, 'p1', campaignInputSchema.parse({ name: 's', target: TARGET, attack_suite: SUITE }));
    // Assess
    expect(stored[0]!.mutations.map((m) => m.id)).toEqual(INJECTION_TEMPLATES.map((t) => attackMutationId(t)));
    expect(stored[0]).not.toHaveProperty('attack_suite');
    expect(created.mutations).toHaveLength(ATTACK_SUITE_SIZE);
    expect(campaignInputSchema.safeParse(created).success).toBe(true);
  });
});

describe('campaign schema with templates and attack_suite', () => {
  it('accepts a suite alone, even without a baseline, and takes goal as the mutation goal field does (default {})', () => {
    // Act
    const res = parse({ include_baseline: false, attack_suite: { tool: '*' } });
    // Assess
    expect(res.success).toBe(true);
    expect(res.data?.attack_suite).toEqual({ tool: '*', goal: {} });
  });

  it('accepts each template on a prompt_injection mutation and refuses an unknown one', () => {
    // Assess
    for (const template of INJECTION_TEMPLATES) {
      expect(parse({ mutations: [{ id: 'i', type: 'prompt_injection', tool: '*', template }] }).success).toBe(true);
    }
    expect(issuesOf({ mutations: [{ id: 'i', type: 'prompt_injection', tool: '*', template: 'leetspeak' }] })[0]?.path).toBe('mutations.0.template');
  });

  it('refuses a template beside a custom payload', () => {
    // Act
    const issues = issuesOf({ mutations: [{ id: 'i', type: 'prompt_injection', tool: '*', payload: 'x', template: 'system_message' }] });
    // Assess
    expect(issues).toEqual([{ path: 'mutations.0.template', message: expect.stringContaining('exclusive') }]);
  });

  it('refuses a given mutation id that the suite generates, naming its path', () => {
    // Act
    const issues = issuesOf({ mutations: [toolError('down'), toolError('attack-tool_knowledge')], attack_suite: SUITE });
    // Assess
    expect(issues).toEqual([
      { path: 'mutations.1.id', message: 'mutation id attack-tool_knowledge is one attack_suite generates: rename it or drop attack_suite' },
    ]);
  });

  it('refuses a suite on a recorded target', () => {
    // Act
    const res = campaignInputSchema.safeParse({ name: 'r', target: { type: 'recorded' }, attack_suite: SUITE });
    // Assess
    expect(res.error?.issues.map((i) => i.path.join('.'))).toEqual(['attack_suite']);
  });

  it('refuses an expansion past MAX_MUTATIONS, saying how many the suite adds', () => {
    // Prepare
    const given = MAX_MUTATIONS - ATTACK_SUITE_SIZE + 1;
    const mutations = Array.from({ length: given }, (_, i) => toolError(`m${i}`));
    // Act
    const issues = issuesOf({ include_baseline: false, mutations, attack_suite: SUITE });
    // Assess
    expect(issues).toEqual([
      {
        path: 'attack_suite',
        message: `attack_suite adds 6 mutations to the ${given} given: ${MAX_MUTATIONS + 1} exceed the limit of ${MAX_MUTATIONS}`,
      },
    ]);
    expect(parse({ include_baseline: false, mutations: mutations.slice(1), attack_suite: SUITE }).success).toBe(true);
  });

  it('refuses an expansion past the attempts per run limit, counting the suite', () => {
    // Prepare: (1 + 4) x 20 = 100 without the suite, (1 + 4 + 6) x 20 = 220 with it
    const mutations = ['a', 'b', 'c', 'd'].map((element) => toolError(element));
    // Act
    const issues = issuesOf({ repeats: 20, mutations, attack_suite: SUITE });
    // Assess
    expect(issues).toEqual([
      {
        path: 'attack_suite',
        message: `attempts per run ((baseline + 4 mutations + 6 from attack_suite) x 20 repeats = 220) exceed ${MAX_ATTEMPTS_PER_RUN}`,
      },
    ]);
    expect(parse({ repeats: 18, mutations: mutations.slice(0, 4), attack_suite: SUITE }).success).toBe(true); // 11 x 18 = 198
  });

  it('reports attempts already past the limit without the suite once, as before (path repeats)', () => {
    // Act
    const issues = issuesOf({ repeats: 20, mutations: Array.from({ length: 10 }, (_, i) => toolError(`m${i}`)), attack_suite: SUITE });
    // Assess
    expect(issues.map((i) => i.path)).toEqual(['repeats']);
  });
});

import { planAttempts } from '../../../../functions/core/replay/plan';
import { makeCampaign } from '../../../helpers/replay-fakes';

describe('attempt planning', () => {
  it('puts the baseline block first, then mutations in campaign order, each repeated contiguously', () => {
    // Prepare
    const campaign = makeCampaign({
      repeats: 2,
      mutations: [
        { id: 'm1', type: 'tool_error', tool: 'lookup_order' },
        { id: 'm2', type: 'empty_result' },
      ],
    });
    // Act
    const plan = planAttempts(campaign).map(({ attempt, mutation_id, repeat }) => ({ attempt, mutation_id, repeat }));
    // Assess
    expect(plan).toEqual([
      { attempt: 1, mutation_id: null, repeat: 1 },
      { attempt: 2, mutation_id: null, repeat: 2 },
      { attempt: 3, mutation_id: 'm1', repeat: 1 },
      { attempt: 4, mutation_id: 'm1', repeat: 2 },
      { attempt: 5, mutation_id: 'm2', repeat: 1 },
      { attempt: 6, mutation_id: 'm2', repeat: 2 },
    ]);
  });

  it('starts numbering at the first mutation when the baseline is excluded', () => {
    // Prepare
    const campaign = makeCampaign({ include_baseline: false, mutations: [{ id: 'm1', type: 'empty_result' }] });
    // Act
    const plan = planAttempts(campaign);
    // Assess
    expect(plan).toHaveLength(1);
    expect(plan[0]).toMatchObject({ attempt: 1, mutation_id: 'm1', repeat: 1 });
    expect(plan[0].mutation?.type).toBe('empty_result');
  });
});

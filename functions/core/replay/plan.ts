// Attempt planning (docs/campaigns-and-replay.md#attempt-plan): baseline block first, then one block per mutation in
// campaign order, each repeated.
import type { Campaign } from '../campaigns/schema';
import type { PlannedAttempt } from './types';

/**
 * Plans a run's attempts, numbered from 1. Repeats are contiguous within a block:
 * [baseline r1, baseline r2, mut1 r1, mut1 r2, ...].
 */
export function planAttempts(campaign: Pick<Campaign, 'include_baseline' | 'mutations' | 'repeats'>): PlannedAttempt[] {
  const blocks = campaign.include_baseline ? [null, ...campaign.mutations] : [...campaign.mutations];
  const plan: PlannedAttempt[] = [];
  for (const mutation of blocks) {
    for (let repeat = 1; repeat <= campaign.repeats; repeat++) {
      plan.push({ attempt: plan.length + 1, mutation_id: mutation ? mutation.id : null, repeat, mutation });
    }
  }
  return plan;
}

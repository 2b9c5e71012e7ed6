// Per-project rate-limit windows (access pattern 25 of keys.ts): one counter item per project, name and window, taken
// from with a conditional atomic ADD, so concurrent takes in any number of containers never pass the limit.
import type { RateLimitsRepo } from '../../core/ports';
import { keys } from './keys';
import { getItem, updateIf } from './table';

/** Conditional takes tried before a contended window answers "spent" (each failed one re-reads what is left). */
const MAX_ROUNDS = 5;

/** The RateLimitsRepo port over the single table. */
export class DynamoRateLimitsRepo implements RateLimitsRepo {
  async take(projectId: string, name: string, windowStart: number, limit: number, want: number, expiresAt: number): Promise<number> {
    const Key = keys.rateWindow(projectId, name, windowStart);
    let n = Math.min(want, limit);
    for (let round = 0; round < MAX_ROUNDS && n > 0; round++) {
      const taken = await updateIf({
        Key,
        UpdateExpression: 'SET entity = :entity, expires_at = :exp ADD used :n',
        ConditionExpression: 'attribute_not_exists(used) OR used <= :max',
        ExpressionAttributeValues: { ':entity': 'rate_window', ':exp': expiresAt, ':n': n, ':max': limit - n },
        ReturnValues: 'NONE',
      });
      if (taken) return n;
      // Not that much left: take what is (another container may be taking at the same moment, hence the rounds).
      const stored = await getItem(Key, true);
      n = Math.min(want, limit - Number(stored?.used ?? 0));
    }
    return 0;
  }

  async used(projectId: string, name: string, windowStart: number): Promise<number> {
    const stored = await getItem(keys.rateWindow(projectId, name, windowStart), true);
    return Number(stored?.used ?? 0);
  }
}

// An in-memory RateLimitsRepo for core tests: the same contract as the table's (take up to `want`, never past `limit`).
import type { RateLimitsRepo } from '../../functions/core/ports';

export class MemoryRateLimitsRepo implements RateLimitsRepo {
  readonly used = new Map<string, number>();

  async take(projectId: string, name: string, windowStart: number, limit: number, want: number): Promise<number> {
    const key = `${projectId}/${name}/${windowStart}`;
    const used = this.used.get(key) ?? 0;
    const n = Math.max(0, Math.min(want, limit - used));
    if (n > 0) this.used.set(key, used + n);
    return n;
  }
}

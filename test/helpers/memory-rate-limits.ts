// An in-memory RateLimitsRepo for core tests: the same contract as the table's (take up to `want`, never past `limit`).
import type { RateLimitsRepo } from '../../functions/core/ports';

export class MemoryRateLimitsRepo implements RateLimitsRepo {
  readonly counts = new Map<string, number>();

  async take(projectId: string, name: string, windowStart: number, limit: number, want: number): Promise<number> {
    const key = `${projectId}/${name}/${windowStart}`;
    const used = this.counts.get(key) ?? 0;
    const n = Math.max(0, Math.min(want, limit - used));
    if (n > 0) this.counts.set(key, used + n);
    return n;
  }

  async used(projectId: string, name: string, windowStart: number): Promise<number> {
    return this.counts.get(`${projectId}/${name}/${windowStart}`) ?? 0;
  }
}

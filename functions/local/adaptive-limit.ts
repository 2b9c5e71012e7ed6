// How many replay messages the local queue works on at once, adapted to what the process can take: the event loop's
// utilisation (the share of time it was busy, performance.eventLoopUtilization) is the signal. Runs spend most of
// their time waiting for the agent when it is slow, so the loop idles and more runs may start; when the agent answers
// at once the work is CPU-bound, the loop saturates, and more runs in flight would only add latency (to the API
// too, which shares the process). Multiplicative both ways, within bounds.
import { performance, type EventLoopUtilization } from 'node:perf_hooks';

export interface AdaptiveLimitOptions {
  /** Lowest and highest limit. Default 2 and 32. */
  min?: number;
  max?: number;
  /** Limit at the start. Default 8. */
  initial?: number;
  /** Below this utilisation, with work waiting for a slot, the limit grows. Default 0.75. */
  grow?: number;
  /** Above this utilisation the limit shrinks. Default 0.92. */
  shrink?: number;
  /** The utilisation since the previous call (tests inject a sequence). Default: the event loop's own. */
  utilisation?: () => number;
}

export class AdaptiveLimit {
  private current: number;
  private readonly min: number;
  private readonly max: number;

  constructor(private readonly opts: AdaptiveLimitOptions = {}) {
    this.min = Math.max(1, opts.min ?? 2);
    this.max = Math.max(this.min, opts.max ?? 32);
    this.current = Math.min(this.max, Math.max(this.min, opts.initial ?? 8));
    this.sample = opts.utilisation ?? eventLoopSampler();
  }

  private readonly sample: () => number;

  get limit(): number {
    return this.current;
  }

  /**
   * One adjustment, at the end of a window. `demand`: whether, during the window, work waited for a slot (without it
   * a low utilisation says nothing about a higher limit). Returns the new limit.
   */
  adjust(demand: boolean): number {
    const u = this.sample();
    if (u > (this.opts.shrink ?? 0.92)) this.current = Math.max(this.min, Math.floor(this.current * 0.75));
    else if (demand && u < (this.opts.grow ?? 0.75)) this.current = Math.min(this.max, Math.ceil(this.current * 1.25));
    return this.current;
  }
}

/** The event loop's utilisation between two calls. */
function eventLoopSampler(): () => number {
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const u = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    return u;
  };
}

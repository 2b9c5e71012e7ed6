// How many replay messages the local queue works on at once, adapted to what the machine can take. Two signals: the
// event loop's utilisation (the share of time this process's loop was busy) and the machine's idle CPU share. Runs
// spend most of their time waiting for the agent when it is slow: the loop idles, the cores idle, and more runs may
// start. When the agent answers at once the work is CPU-bound, in this process and in the store's: more runs in
// flight would only queue at the store and lengthen every API answer (measured: 1,000 runs take ~10 s at 8, ~16 s at
// 32). A loop that waits while the cores are busy is waiting on the store, not on the agent, so the limit grows only
// when both idle. Multiplicative both ways, within bounds.
import { cpus } from 'node:os';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';

export interface AdaptiveLimitOptions {
  /** Lowest and highest limit. Default 8 and 32. */
  min?: number;
  max?: number;
  /** Limit at the start. Default 8. */
  initial?: number;
  /** Below this utilisation, with work waiting for a slot, the limit grows. Default 0.75. */
  grow?: number;
  /** Above this utilisation the limit shrinks. Default 0.92. */
  shrink?: number;
  /** The machine's idle share must be above this for the limit to grow (default 0.25); below 0.05 it shrinks. */
  idleToGrow?: number;
  /** The utilisation since the previous call (tests inject a sequence). Default: the event loop's own. */
  utilisation?: () => number;
  /** The machine's idle CPU share since the previous call (tests inject one). Default: from os.cpus(). */
  idle?: () => number;
}

export class AdaptiveLimit {
  private current: number;
  private readonly min: number;
  private readonly max: number;

  constructor(private readonly opts: AdaptiveLimitOptions = {}) {
    this.min = Math.max(1, opts.min ?? 8);
    this.max = Math.max(this.min, opts.max ?? 32);
    this.current = Math.min(this.max, Math.max(this.min, opts.initial ?? 8));
    this.sample = opts.utilisation ?? eventLoopSampler();
    this.idle = opts.idle ?? machineIdleSampler();
  }

  private readonly sample: () => number;
  private readonly idle: () => number;

  get limit(): number {
    return this.current;
  }

  /**
   * One adjustment, at the end of a window. `demand`: whether, during the window, work waited for a slot (without it
   * a low utilisation says nothing about a higher limit). Returns the new limit.
   */
  adjust(demand: boolean): number {
    const u = this.sample();
    const idle = this.idle();
    if (u > (this.opts.shrink ?? 0.92) || idle < 0.05) this.current = Math.max(this.min, Math.floor(this.current * 0.75));
    else if (demand && u < (this.opts.grow ?? 0.75) && idle > (this.opts.idleToGrow ?? 0.25))
      this.current = Math.min(this.max, Math.ceil(this.current * 1.25));
    return this.current;
  }
}

/** The share of all cores' time spent idle between two calls. */
function machineIdleSampler(): () => number {
  const totals = () =>
    cpus().reduce((t, c) => ({ idle: t.idle + c.times.idle, all: t.all + c.times.idle + c.times.user + c.times.sys + c.times.nice + c.times.irq }), {
      idle: 0,
      all: 0,
    });
  let last = totals();
  return () => {
    const now = totals();
    const all = now.all - last.all;
    const idle = all > 0 ? (now.idle - last.idle) / all : 1;
    last = now;
    return idle;
  };
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

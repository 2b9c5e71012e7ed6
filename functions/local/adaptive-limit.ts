// How many replay messages the local queue works on at once: the limit that gets the most messages done per second,
// found by trying. Runs spend most of their time waiting for the agent when it is slow, and then more runs in flight
// finish more runs per second, until the cores (this process's and the store's) are the bottleneck; when the agent
// answers at once the work is CPU-bound from the start, and more runs in flight would only lengthen every API answer.
// Neither busy signal tells the two apart (measured: the loop sits at 75-94 % busy in both), so the limit follows the
// queue's own throughput: it steps up and keeps the step when more messages finished per second, steps down and
// keeps that when no fewer did (each by a margin of 3 %), and otherwise goes back and waits before trying again. A
// saturated event loop (the API's answers waiting) shrinks it at once.
//
// The throughput is read by Little's law, messages in flight over the time each takes, not by counting completions:
// runs started together against a slow agent finish together, so completions come in bursts a count per window would
// sample at random. Only messages started after a step count, so that the time they took is the new limit's. It is
// only measured while work waits for a slot: without such demand the limit is not what bounds the pace.
import { performance, type EventLoopUtilization } from 'node:perf_hooks';

export interface AdaptiveLimitOptions {
  /** Lowest and highest limit. Default 8 and 64. */
  min?: number;
  max?: number;
  /** Limit at the start. Default 16. */
  initial?: number;
  /** A step up is kept when the throughput it measures is above the limit's before by more than this share. Default 0.03. */
  gain?: number;
  /** A step down is kept when the throughput it measures is at most this share below the limit's before. Default 0.03. */
  loss?: number;
  /** Windows skipped before each measurement (after a step or a restart, runs are still starting) and windows measured. Default 1 and 2. */
  settleWindows?: number;
  measureWindows?: number;
  /** Windows waited after a step was taken back, before trying again. Default 4. */
  holdWindows?: number;
  /** Above this event-loop utilisation the limit shrinks by a quarter at once. Default 0.97. */
  shrink?: number;
  /** Messages started after a step and finished that a measurement needs, at least. Default 8. */
  samples?: number;
  /** The utilisation since the previous call (tests inject a sequence). Default: the event loop's own. */
  utilisation?: () => number;
  /** The clock of `observe`'s times, ms. Default performance.now. */
  now?: () => number;
}

/** What the queue saw during one window. */
export interface LimitWindow {
  /** Whether a visible message waited for a slot. */
  demand: boolean;
  /** Messages in flight, integrated over the window (message-ms): its length times the mean in flight. */
  inflightMs: number;
  /** The window's length, ms. */
  ms: number;
}

type Phase =
  /** Measuring the throughput at the current limit. */
  | { kind: 'base' }
  /** A step from `from` (throughput `base`) to the current limit, `up` or down, being settled then measured. */
  | { kind: 'probe'; from: number; base: number; up: boolean }
  /** Waiting before measuring again. */
  | { kind: 'hold'; left: number };

export class AdaptiveLimit {
  private current: number;
  private readonly min: number;
  private readonly max: number;
  private readonly sample: () => number;
  private phase: Phase = { kind: 'base' };
  /** Windows of the phase so far; the in-flight integral and time of those measured. */
  private windows = 0;
  private inflightMs = 0;
  private ms = 0;
  /** When the phase began, and the messages started since then that finished: how many, and their total time. */
  private since = 0;
  private samples = 0;
  private samplesMs = 0;
  private readonly now: () => number;

  constructor(private readonly opts: AdaptiveLimitOptions = {}) {
    this.min = Math.max(1, opts.min ?? 8);
    this.max = Math.max(this.min, opts.max ?? 64);
    this.current = Math.min(this.max, Math.max(this.min, opts.initial ?? 16));
    this.sample = opts.utilisation ?? eventLoopSampler();
    this.now = opts.now ?? (() => performance.now());
  }

  get limit(): number {
    return this.current;
  }

  /** Starts afresh (a new burst of work): the utilisation window restarts and the next windows measure the current limit. */
  restart(): void {
    this.sample();
    this.enter({ kind: 'base' });
  }

  /** A message finished: it counts towards the measurement when it started after the phase began. */
  observe(startedAt: number, finishedAt: number): void {
    if (startedAt < this.since) return;
    this.samples++;
    this.samplesMs += finishedAt - startedAt;
  }

  /** One adjustment, at the end of a window. Returns the new limit. */
  adjust(w: LimitWindow): number {
    if (this.sample() > (this.opts.shrink ?? 0.97)) {
      this.current = Math.max(this.min, Math.floor(this.current * 0.75));
      this.enter({ kind: 'hold', left: this.opts.holdWindows ?? 4 });
      return this.current;
    }
    const phase = this.phase;
    if (phase.kind === 'hold') {
      if (--phase.left <= 0) this.enter({ kind: 'base' });
      return this.current;
    }
    if (!w.demand) {
      // The limit did not bound the pace in this window: nothing measured so far says anything about it.
      this.enter({ kind: 'base' });
      return this.current;
    }
    const rate = this.measure(w);
    if (rate === null) return this.current;
    if (phase.kind === 'base') this.step(rate, this.current < this.max);
    else if (phase.up ? rate > phase.base * (1 + (this.opts.gain ?? 0.03)) : rate >= phase.base * (1 - (this.opts.loss ?? 0.03)))
      this.step(rate, phase.up, phase.up && rate / phase.base - 1 >= 0.75 * (this.current / phase.from - 1));
    else if (phase.up && phase.from > this.min) {
      // Up did not pay: try down from where it started, against the same throughput.
      this.current = phase.from;
      this.step(phase.base, false);
    } else {
      this.current = phase.from;
      this.enter({ kind: 'hold', left: this.opts.holdWindows ?? 4 });
    }
    return this.current;
  }

  /**
   * Adds a window to the phase's measurement: once the settling windows passed (the runs a step or a restart let in
   * are still starting), enough windows were measured and enough messages started in the phase finished, the messages
   * per second (mean in flight / mean time each took); else null.
   */
  private measure(w: LimitWindow): number | null {
    const settle = this.opts.settleWindows ?? 1;
    this.windows++;
    if (this.windows <= settle) return null;
    this.inflightMs += w.inflightMs;
    this.ms += w.ms;
    if (this.windows < settle + (this.opts.measureWindows ?? 2) || this.samples < (this.opts.samples ?? 8)) return null;
    const meanInFlight = this.inflightMs / this.ms;
    const meanMs = this.samplesMs / this.samples;
    return meanMs > 0 ? (meanInFlight * 1000) / meanMs : Infinity;
  }

  /**
   * A step from the current limit, whose throughput is `base`, up or down; holds at a bound. `double`: the last step up
   * raised the throughput by at least three quarters as much as the limit (the limit is all that bounds the pace), so
   * this one doubles rather than adding a quarter.
   */
  private step(base: number, up: boolean, double = false): void {
    const next = up ? this.above(this.current, double ? 2 : 1.25) : Math.max(this.min, Math.floor(this.current * 0.8));
    if (next === this.current) {
      // At a bound: wait, then measure again (from the top bound the next try is a step down).
      this.enter({ kind: 'hold', left: this.opts.holdWindows ?? 4 });
      return;
    }
    this.enter({ kind: 'probe', from: this.current, base, up });
    this.current = next;
  }

  /** `limit` times `factor`, or the maximum when that comes within a tenth of it (no step too small to measure). */
  private above(limit: number, factor: number): number {
    const next = Math.ceil(limit * factor);
    return next * 1.1 >= this.max ? this.max : next;
  }

  private enter(phase: Phase): void {
    this.phase = phase;
    this.windows = 0;
    this.inflightMs = 0;
    this.ms = 0;
    this.since = this.now();
    this.samples = 0;
    this.samplesMs = 0;
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

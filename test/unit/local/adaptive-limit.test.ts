import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import fc from 'fast-check';
import { AdaptiveLimit } from '../../../functions/local/adaptive-limit';
import { InProcessQueue } from '../../../functions/local/queue';
import { workerConcurrencyFromEnv } from '../../../functions/local/server';

/**
 * A queue in a simulation: `limit`'s messages always in flight (work always waits for a slot), each taking
 * `duration(limit)` ms, one after another in each slot; windows of 250 ms on a clock of its own. `bursts`: the
 * messages of one round all finish together, as runs started together against a slow agent do.
 */
function simulated(duration: (limit: number) => number, opts: { bursts?: boolean; initial?: number; utilisation?: () => number } = {}) {
  let now = 0;
  const limit = new AdaptiveLimit({ initial: opts.initial, utilisation: opts.utilisation ?? (() => 0.5), now: () => now });
  let carry = 0;
  let pending: number[] = [];
  const windows = (count: number): number[] => {
    const seen: number[] = [];
    for (let i = 0; i < count; i++) {
      const started = now;
      now += 250;
      const ms = duration(limit.limit);
      carry += (limit.limit * 250) / ms;
      for (; carry >= 1; carry--) pending.push(started + 250 - ms);
      // Without bursts every finished message is seen in its window; with them, all at once every other window.
      if (!opts.bursts || i % 2 === 1) {
        for (const startedAt of pending) limit.observe(startedAt, startedAt + ms);
        pending = [];
      }
      seen.push(limit.adjust({ demand: true, inflightMs: limit.limit * 250, ms: 250 }));
    }
    return seen;
  };
  return { limit, windows };
}

/** Resolves once `done()` holds, checking every 10 ms; fails after 2 s. */
async function waitUntil(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 2000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('condition not met within 2 s');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('adaptive limit', () => {
  it('climbs to its maximum, 64, while each step up finishes more messages per second (runs waiting on a slow agent)', () => {
    // Prepare: every message waits 100 ms on the agent, so the throughput is the limit / 0.1 s
    const queue = simulated(() => 100);
    // Act
    const seen = queue.windows(40);
    // Assess: 16 -> 20, which finished a quarter more runs per second: the limit is all that bounds the pace, so the next
    // steps double (40, then 64, the top). A step every three windows (one settling, two measured); at the top it waits
    // four windows, measures again and tries a step down, which costs throughput and is taken back
    expect(seen.slice(0, 22)).toEqual([16, 16, 20, 20, 20, 40, 40, 40, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 51, 51, 51, 64]);
    expect(seen.slice(22).filter((l) => l === 64).length).toBeGreaterThan(10);
  });

  it('steps down to its minimum when the work is CPU-bound (the throughput is the same at every limit)', () => {
    // Prepare: 200 messages per second whatever the limit: each takes limit x 5 ms
    const queue = simulated((l) => l * 5);
    // Act
    const seen = queue.windows(40);
    // Assess: up does not pay, down costs nothing: 16 -> 20 (taken back) -> 12 -> 9 -> 8; at the floor it only tries a
    // step up now and then, taken back each time
    expect(seen.slice(0, 25)).toEqual([16, 16, 20, 20, 20, 12, 12, 12, 9, 9, 9, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 10, 10, 10, 8]);
    expect(seen.slice(25).every((l) => l === 8 || l === 10)).toBe(true);
  });

  it('settles at the knee when the throughput stops growing with the limit', () => {
    // Prepare: agent-bound up to 180 messages/s (100 ms each), CPU-bound beyond
    const queue = simulated((l) => Math.max(100, (l * 1000) / 180));
    // Act
    const seen = queue.windows(60);
    // Assess: 20 reaches 180/s; 25 gains nothing and 16 loses more than 3 %, so it goes back to 20 and waits before
    // trying again: the same cycle of 13 windows over and over
    const cycle = [20, 20, 20, 20, 20, 20, 20, 25, 25, 25, 16, 16, 16];
    expect(seen.slice(0, 11)).toEqual([16, 16, 20, 20, 20, 25, 25, 25, 16, 16, 16]);
    expect(seen.slice(11, 50)).toEqual([...cycle, ...cycle, ...cycle]);
  });

  it('doubles its steps only while the throughput follows the limit in full, and settles back near the knee', () => {
    // Prepare: agent-bound up to 300 messages/s
    const queue = simulated((l) => Math.max(100, (l * 1000) / 300));
    // Act
    const seen = queue.windows(30);
    // Assess: 16 -> 20 (+25 %, in full) -> 40 (+50 % for twice the limit: a quarter next) -> 50 (nothing gained, taken
    // back) -> 32 (nothing lost, kept) -> 25 (a sixth lost, taken back): 32, the first limit at the knee of 30
    expect(seen.slice(0, 21)).toEqual([16, 16, 20, 20, 20, 40, 40, 40, 50, 50, 50, 32, 32, 32, 25, 25, 25, 32, 32, 32, 32]);
  });

  it('reads the throughput from messages in flight and the time each took, so bursts of completions do not mislead it', () => {
    // Prepare: every message waits 500 ms on the agent; those started together finish together, every other window
    const queue = simulated(() => 500, { bursts: true });
    // Act
    const seen = queue.windows(40);
    // Assess: the same climb as without bursts: 16 -> 20 -> 40 -> 64, and at the top it stays, trying a step down now and then
    expect(seen.slice(0, 22)).toEqual([16, 16, 20, 20, 20, 40, 40, 40, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 51, 51, 51, 64]);
  });

  it('judges a step only on messages started after it: those started before took the time of the limit before', () => {
    // Prepare: messages take 100 ms; in the window after each change of the limit, ten finish that took 10 s (started
    // long before it)
    let now = 0;
    const limit = new AdaptiveLimit({ utilisation: () => 0.5, now: () => now });
    const seen: number[] = [];
    let last = limit.limit;
    // Act
    for (let i = 0; i < 12; i++) {
      now += 250;
      if (limit.limit !== last) for (let k = 0; k < 10; k++) limit.observe(now - 10_000, now);
      last = limit.limit;
      for (let k = 0; k < limit.limit * 2.5; k++) limit.observe(now - 100, now);
      seen.push(limit.adjust({ demand: true, inflightMs: limit.limit * 250, ms: 250 }));
    }
    // Assess: the same climb as a queue without the stragglers
    expect(seen).toEqual([16, 16, 20, 20, 20, 40, 40, 40, 64, 64, 64, 64]);
  });

  it('measures nothing without demand: the limit stays, and the measurement starts over when work waits again', () => {
    // Prepare
    let now = 0;
    const limit = new AdaptiveLimit({ utilisation: () => 0.5, now: () => now });
    const window = (demand: boolean) => {
      now += 250;
      for (let k = 0; k < 40; k++) limit.observe(now - 50, now);
      return limit.adjust({ demand, inflightMs: 16 * 250, ms: 250 });
    };
    // Act: windows without demand, then one with it, then without again
    const seen = [false, false, false, false, true, false, true, true, false, false].map((demand) => window(demand));
    // Assess: never the three windows in a row with work waiting that a measurement takes (one settling, two measured)
    expect(seen).toEqual([16, 16, 16, 16, 16, 16, 16, 16, 16, 16]);
  });

  it('shrinks by a quarter at once when the event loop saturates, then waits before measuring again', () => {
    // Prepare
    const loop = [0.5, 0.99, 0.99, 0.99, 0.99, 0.99, 0.5];
    let i = 0;
    const queue = simulated(() => 100, { initial: 32, utilisation: () => loop[Math.min(i++, loop.length - 1)] });
    // Act
    const seen = queue.windows(14);
    // Assess: 32 -> 24 -> 18 -> 13 -> 9 -> 8 while the loop is saturated, four windows held, three measured, then a step up
    expect(seen).toEqual([32, 24, 18, 13, 9, 8, 8, 8, 8, 8, 8, 8, 10, 10]);
  });

  it('whatever it observes, stays within its bounds, and a window moves it up by at most a doubling (or to a top within a tenth) and down to no less than 0.8 / 2.2 of it', () => {
    const window = fc.record({
      demand: fc.constantFrom(true, true, true, true, false),
      busy: fc.oneof(fc.constant(0.5), fc.double({ min: 0, max: 1, noNaN: true })),
      inFlight: fc.double({ min: 0, max: 100, noNaN: true }),
      done: fc.array(fc.record({ age: fc.integer({ min: 0, max: 1_000 }), took: fc.integer({ min: 1, max: 1_000 }) }), { maxLength: 40 }),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 80 }),
        fc.array(window, { maxLength: 80 }),
        (min, span, initial, windows) => {
          let now = 0;
          const busy: number[] = [];
          const limit = new AdaptiveLimit({ min, max: min + span, initial, utilisation: () => busy.shift() ?? 0.5, now: () => now });
          let last = limit.limit;
          expect(last).toBeGreaterThanOrEqual(min);
          expect(last).toBeLessThanOrEqual(min + span);
          for (const w of windows) {
            now += 250;
            for (const d of w.done) limit.observe(now - d.age, now - d.age + Math.min(d.took, d.age));
            busy.push(w.busy);
            const next = limit.adjust({ demand: w.demand, inflightMs: w.inFlight * 250, ms: 250 });
            expect(next).toBe(limit.limit);
            expect(next).toBeGreaterThanOrEqual(min);
            expect(next).toBeLessThanOrEqual(min + span);
            // Up: at most a doubling, or the top when that lands within a tenth of it.
            expect(next <= last * 2 || (next === min + span && last * 2 * 1.1 >= next)).toBe(true);
            // Down: a quarter when the loop saturates, or a step up taken back and a fifth below where it started; that
            // step may have been to the top, up to 2.2x (a doubling that lands within a tenth of it): 0.8 / 2.2 of it.
            expect(next).toBeGreaterThanOrEqual(Math.max(min, Math.floor((last * 0.8) / 2.2)));
            last = next;
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('keeps its start within the bounds', () => {
    expect(new AdaptiveLimit({ initial: 100, max: 10 }).limit).toBe(10);
    expect(new AdaptiveLimit({ initial: 0, min: 2 }).limit).toBe(2);
    expect(new AdaptiveLimit().limit).toBe(16);
  });
});

describe('in-process queue concurrency', () => {
  /** A worker whose runs wait `ms` (an agent that answers slowly), recording how many overlap. */
  function slowWorker(ms: number) {
    let running = 0;
    const peaks: number[] = [];
    const handler = async (e: SQSEvent): Promise<SQSBatchResponse> => {
      running++;
      peaks.push(running);
      await new Promise((r) => setTimeout(r, ms));
      running--;
      void e;
      return { batchItemFailures: [] };
    };
    return { handler, peak: () => Math.max(...peaks) };
  }

  it('overlaps more runs than its starting limit when the runs wait on a slow agent', async () => {
    // Prepare
    const w = slowWorker(120);
    const queue = new InProcessQueue({
      worker: () => w.handler,
      deadLetter: () => w.handler,
      // The loop reads as half busy whatever else the machine runs: a loaded test machine saturating this process's
      // loop would shrink the limit, which is the saturation test's business, not this one's.
      adaptive: { min: 2, initial: 2, max: 24, utilisation: () => 0.5 },
      adjustEveryMs: 60,
    });
    // Act
    await queue.sendReplay(Array.from({ length: 150 }, (_, i) => ({ project_id: 'p', run_id: `r${i}` })));
    await queue.drain();
    await queue.close();
    // Assess: each step up finished more runs per second, so the limit rose past its start
    expect(w.peak()).toBeGreaterThan(2);
    expect(queue.stats.peakLimit).toBeGreaterThan(2);
    expect(queue.stats.received).toBe(150);
  });

  it("keeps its reserved slots for other projects when the limit shrinks below what one project's hanging runs hold", async () => {
    // Prepare: project a's runs hang until released; the loop reads as saturated, so the limit shrinks every window
    let release: () => void = () => undefined;
    const hanging = new Promise<void>((r) => (release = r));
    const started: string[] = [];
    const handler = async (e: SQSEvent): Promise<SQSBatchResponse> => {
      const project = (JSON.parse(e.Records[0].body) as { project_id: string }).project_id;
      started.push(project);
      if (project === 'a') await hanging;
      return { batchItemFailures: [] };
    };
    const queue = new InProcessQueue({
      worker: () => handler,
      deadLetter: () => handler,
      adaptive: { min: 4, initial: 16, utilisation: () => 0.99 },
      adjustEveryMs: 20,
    });
    try {
      await queue.sendReplay(Array.from({ length: 40 }, (_, i) => ({ project_id: 'a', run_id: `a${i}` })));
      await waitUntil(() => queue.limit === 4);
      const aHeld = started.length;
      // Act
      await queue.sendReplay([{ project_id: 'b', run_id: 'b0' }]);
      await waitUntil(() => started.includes('b'));
      // Assess: a kept the 16 slots it took (none more), and b started on a reserved slot at once
      expect(aHeld).toBe(16);
      expect(started.filter((p) => p === 'a')).toHaveLength(16);
    } finally {
      release();
      await queue.drain();
      await queue.close();
    }
  });

  it('never exceeds a fixed concurrency', async () => {
    // Prepare
    const w = slowWorker(10);
    const queue = new InProcessQueue({ worker: () => w.handler, deadLetter: () => w.handler, concurrency: 3 });
    // Act
    await queue.sendReplay(Array.from({ length: 40 }, (_, i) => ({ project_id: 'p', run_id: `r${i}` })));
    await queue.drain();
    await queue.close();
    // Assess
    expect(w.peak()).toBe(3);
    expect(queue.limit).toBe(3);
    expect(queue.stats.workerMs).toBeGreaterThanOrEqual(40 * 9);
  });

  it('reads RTS_WORKER_CONCURRENCY: a whole number fixes the limit, unset means adaptive, anything else is refused', () => {
    const saved = process.env.RTS_WORKER_CONCURRENCY;
    try {
      delete process.env.RTS_WORKER_CONCURRENCY;
      expect(workerConcurrencyFromEnv()).toBeUndefined();
      process.env.RTS_WORKER_CONCURRENCY = '12';
      expect(workerConcurrencyFromEnv()).toBe(12);
      for (const bad of ['0', '-3', '2.5', 'many']) {
        process.env.RTS_WORKER_CONCURRENCY = bad;
        expect(() => workerConcurrencyFromEnv()).toThrow('RTS_WORKER_CONCURRENCY');
      }
    } finally {
      if (saved === undefined) delete process.env.RTS_WORKER_CONCURRENCY;
      else process.env.RTS_WORKER_CONCURRENCY = saved;
    }
  });
});

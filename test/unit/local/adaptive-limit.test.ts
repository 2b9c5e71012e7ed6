import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { AdaptiveLimit } from '../../../functions/local/adaptive-limit';
import { InProcessQueue } from '../../../functions/local/queue';
import { workerConcurrencyFromEnv } from '../../../functions/local/server';

/**
 * Drives a limit through `windows` windows of 250 ms against a queue whose throughput at a limit is `rate(limit)`
 * messages per second, with work always waiting: the limits after each window.
 */
function drive(limit: AdaptiveLimit, rate: (limit: number) => number, windows: number): number[] {
  const seen: number[] = [];
  for (let i = 0; i < windows; i++) seen.push(limit.adjust({ demand: true, done: Math.round((rate(limit.limit) * 250) / 1000), ms: 250 }));
  return seen;
}

const idleLoop = () => 0.5;

describe('adaptive limit', () => {
  it('climbs to its maximum, 64, while each step up finishes more messages per second (runs waiting on a slow agent)', () => {
    // Prepare: every run waits 100 ms on the agent, so the throughput is the limit / 0.1 s
    const limit = new AdaptiveLimit({ utilisation: idleLoop });
    // Act
    const seen = drive(limit, (l) => l * 10, 40);
    // Assess: 16 -> 20 -> 25 -> 32 -> 40 -> 50 -> 64, a step every three windows (one settling, two measured); at the
    // top it waits four windows, measures again and tries a step down, which costs throughput and is taken back
    expect(seen.slice(0, 31)).toEqual([
      16, 16, 20, 20, 20, 25, 25, 25, 32, 32, 32, 40, 40, 40, 50, 50, 50, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 51, 51, 51, 64,
    ]);
    expect(seen.slice(31).filter((l) => l === 64).length).toBeGreaterThan(5);
  });

  it('steps down to its minimum when the work is CPU-bound (the throughput is the same at every limit)', () => {
    // Prepare
    const limit = new AdaptiveLimit({ utilisation: idleLoop });
    // Act
    const seen = drive(limit, () => 200, 40);
    // Assess: up does not pay, down costs nothing: 16 -> 20 (taken back) -> 12 -> 9 -> 8; at the floor it only tries a
    // step up now and then, taken back each time
    expect(seen.slice(0, 25)).toEqual([16, 16, 20, 20, 20, 12, 12, 12, 9, 9, 9, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 10, 10, 10, 8]);
    expect(seen.slice(25).every((l) => l === 8 || l === 10)).toBe(true);
  });

  it('settles at the knee when the throughput stops growing with the limit', () => {
    // Prepare: agent-bound up to 180 messages/s, CPU-bound beyond
    const limit = new AdaptiveLimit({ utilisation: idleLoop });
    // Act
    const seen = drive(limit, (l) => Math.min(180, l * 10), 60);
    // Assess: 20 reaches 180/s; 25 gains nothing and 16 loses more than 3 %, so it goes back to 20 and waits before
    // trying again: the same cycle of 13 windows over and over
    const cycle = [20, 20, 20, 20, 20, 20, 20, 25, 25, 25, 16, 16, 16];
    expect(seen.slice(0, 11)).toEqual([16, 16, 20, 20, 20, 25, 25, 25, 16, 16, 16]);
    expect(seen.slice(11, 50)).toEqual([...cycle, ...cycle, ...cycle]);
  });

  it('ignores the windows right after a step: runs it let in are still starting', () => {
    // Prepare: the first window after each change finishes nothing, the ones after it the throughput of a slow agent
    const limit = new AdaptiveLimit({ utilisation: idleLoop });
    let last = limit.limit;
    const seen: number[] = [];
    // Act
    for (let i = 0; i < 12; i++) {
      const fresh = limit.limit !== last || i === 0;
      last = limit.limit;
      seen.push(limit.adjust({ demand: true, done: fresh ? 0 : Math.round(limit.limit * 2.5), ms: 250 }));
    }
    // Assess: the same climb as without the lull
    expect(seen).toEqual([16, 16, 20, 20, 20, 25, 25, 25, 32, 32, 32, 40]);
  });

  it('measures nothing without demand: the limit stays, and the measurement starts over when work waits again', () => {
    // Prepare
    const limit = new AdaptiveLimit({ utilisation: idleLoop });
    // Act: windows without demand, then one with a burst, then without again
    const quiet = [1, 2, 3, 4].map(() => limit.adjust({ demand: false, done: 40, ms: 250 }));
    const burst = limit.adjust({ demand: true, done: 90, ms: 250 });
    const after = [1, 2, 3].map(() => limit.adjust({ demand: false, done: 5, ms: 250 }));
    // Assess
    expect([...quiet, burst, ...after]).toEqual([16, 16, 16, 16, 16, 16, 16, 16]);
  });

  it('shrinks by a quarter at once when the event loop saturates, then waits before measuring again', () => {
    // Prepare
    const loop = [0.5, 0.99, 0.99, 0.99, 0.99, 0.99, 0.5];
    let i = 0;
    const limit = new AdaptiveLimit({ initial: 32, utilisation: () => loop[Math.min(i++, loop.length - 1)] });
    // Act
    const seen = drive(limit, (l) => l * 10, 14);
    // Assess: 32 -> 24 -> 18 -> 13 -> 9 -> 8 while the loop is saturated, four windows held, three measured, then a step up
    expect(seen).toEqual([32, 24, 18, 13, 9, 8, 8, 8, 8, 8, 8, 8, 10, 10]);
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
      adaptive: { min: 2, initial: 2, max: 24 },
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

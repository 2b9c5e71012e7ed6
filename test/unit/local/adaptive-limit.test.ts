import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { AdaptiveLimit } from '../../../functions/local/adaptive-limit';
import { InProcessQueue } from '../../../functions/local/queue';
import { workerConcurrencyFromEnv } from '../../../functions/local/server';

/** A utilisation source returning the given values in turn (then the last one). */
const sequence = (values: number[]) => {
  let i = 0;
  return () => values[Math.min(i++, values.length - 1)];
};

describe('adaptive limit', () => {
  it('grows while the loop and the cores idle and work waits for a slot, up to its maximum', () => {
    // Prepare
    const limit = new AdaptiveLimit({ initial: 8, max: 20, utilisation: sequence([0.2]), idle: sequence([0.8]) });
    // Act
    const seen = [1, 2, 3, 4, 5, 6].map(() => limit.adjust(true));
    // Assess
    expect(seen).toEqual([10, 13, 17, 20, 20, 20]);
  });

  it('does not grow without demand, however idle the loop', () => {
    // Prepare
    const limit = new AdaptiveLimit({ initial: 8, utilisation: sequence([0.05]), idle: sequence([0.9]) });
    // Act
    const seen = [1, 2, 3].map(() => limit.adjust(false));
    // Assess
    expect(seen).toEqual([8, 8, 8]);
  });

  it('does not grow when the loop waits while the cores are busy (the store, not the agent, is the bottleneck)', () => {
    // Prepare
    const limit = new AdaptiveLimit({ initial: 8, utilisation: sequence([0.4]), idle: sequence([0.1]) });
    // Act
    const seen = [1, 2, 3].map(() => limit.adjust(true));
    // Assess
    expect(seen).toEqual([8, 8, 8]);
  });

  it('shrinks when the cores saturate, even with an idle loop, down to its minimum', () => {
    // Prepare
    const limit = new AdaptiveLimit({ initial: 20, min: 8, utilisation: sequence([0.3]), idle: sequence([0.01]) });
    // Act
    const seen = [1, 2, 3, 4].map(() => limit.adjust(true));
    // Assess
    expect(seen).toEqual([15, 11, 8, 8]);
  });

  it('shrinks when the loop saturates, down to its minimum, and holds in between', () => {
    // Prepare
    const limit = new AdaptiveLimit({ initial: 16, min: 3, utilisation: sequence([0.99, 0.99, 0.99, 0.99, 0.99, 0.85]), idle: sequence([0.5]) });
    // Act
    const seen = [1, 2, 3, 4, 5, 6].map(() => limit.adjust(true));
    // Assess
    expect(seen).toEqual([12, 9, 6, 4, 3, 3]);
  });

  it('keeps its start within the bounds', () => {
    expect(new AdaptiveLimit({ initial: 100, max: 10 }).limit).toBe(10);
    expect(new AdaptiveLimit({ initial: 0, min: 2 }).limit).toBe(2);
    expect(new AdaptiveLimit().limit).toBe(8);
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
    // The machine's idle share is injected: other work on a shared test machine must not decide this
    const queue = new InProcessQueue({
      worker: () => w.handler,
      deadLetter: () => w.handler,
      adaptive: { min: 2, initial: 2, max: 24, idle: () => 0.9 },
      adjustEveryMs: 30,
    });
    // Act
    await queue.sendReplay(Array.from({ length: 150 }, (_, i) => ({ project_id: 'p', run_id: `r${i}` })));
    await queue.drain();
    await queue.close();
    // Assess: the loop idled while runs waited, so the limit rose past its start
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

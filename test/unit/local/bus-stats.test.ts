// The in-process bus's counters: events published, handler invocations (retries included), failures and their time.
import type { BusEvent } from '../../../functions/core/events';
import { InProcessBus } from '../../../functions/local/bus';

const event = (id: string): BusEvent => ({ id, envelope: { event_type: 'run.completed', project_id: 'p1' } }) as unknown as BusEvent;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('InProcessBus stats', () => {
  it('counts every published event, each try of the handler, the failed tries and their duration', async () => {
    // Prepare: the handler takes ~20 ms and fails the first try of event b.
    const tried = new Map<string, number>();
    const bus = new InProcessBus({
      target: () => async (e) => {
        const n = (tried.get(e.detail.id) ?? 0) + 1;
        tried.set(e.detail.id, n);
        await sleep(20);
        if (e.detail.id === 'b' && n === 1) throw new Error('receiver down');
      },
    });

    // Act
    await bus.publish([event('a'), event('b')]);
    await bus.drain();

    // Assess
    expect(bus.stats).toMatchObject({ published: 2, invocations: 3, failed: 1 });
    expect(bus.stats.handlerMs).toBeGreaterThanOrEqual(3 * 15);
    expect(bus.stats.handlerMs).toBeLessThan(3 * 20 + 1000);
  });

  it('counts events published without a target, and no invocations', async () => {
    const bus = new InProcessBus();

    await bus.publish([event('a'), event('b'), event('c')]);
    await bus.drain();

    expect(bus.stats).toEqual({ published: 3, invocations: 0, failed: 0, deferred: 0, handlerMs: 0 });
  });
});

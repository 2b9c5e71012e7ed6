// The in-process bus's scheduling: a per-project cap on slots, round-robin between projects, and deferred or retried
// events waiting without a slot.
import type { BusEvent } from '../../../functions/core/events';
import { DeliveryDeferredError } from '../../../functions/core/webhooks/deferral';
import { InProcessBus } from '../../../functions/local/bus';

const event = (project: string, id: string): BusEvent =>
  ({ id, envelope: { event_type: 'run.completed', project_id: project, created_at: '', data: {} } }) as BusEvent;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('InProcessBus scheduling', () => {
  it("starts another project's event at once while one project has more events queued than there are slots", async () => {
    // Prepare: project a's events hold their slot until released; b's event records when it started
    const release: (() => void)[] = [];
    const started: string[] = [];
    const bus = new InProcessBus({
      concurrency: 4,
      perProject: 2,
      target: () => async (e) => {
        started.push(e.detail.id);
        if (e.detail.envelope.project_id === 'a') await new Promise<void>((r) => release.push(r));
      },
    });

    // Act
    await bus.publish(Array.from({ length: 20 }, (_, i) => event('a', `a${i}`)));
    await bus.publish([event('b', 'b0')]);
    await sleep(50);

    // Assess: a holds its cap (2 of the 4 slots), b ran without waiting for any of a's
    expect(started).toEqual(['a0', 'a1', 'b0']);
    while (started.length < 21 || release.length) {
      release.splice(0).forEach((r) => r());
      await sleep(5);
    }
    await bus.drain();
    expect(bus.stats).toMatchObject({ published: 21, invocations: 21, failed: 0 });
  });

  it('runs up to 8 events of one project at once, and 16 in all, by default', async () => {
    const running = new Map<string, number>();
    const peak = new Map<string, number>();
    let total = 0;
    let peakTotal = 0;
    const bus = new InProcessBus({
      target: () => async (e) => {
        const p = e.detail.envelope.project_id;
        running.set(p, (running.get(p) ?? 0) + 1);
        peak.set(p, Math.max(peak.get(p) ?? 0, running.get(p)!));
        peakTotal = Math.max(peakTotal, ++total);
        await sleep(30);
        running.set(p, running.get(p)! - 1);
        total--;
      },
    });

    await bus.publish(['a', 'b'].flatMap((p) => Array.from({ length: 12 }, (_, i) => event(p, `${p}${i}`))));
    await bus.drain();

    expect(Math.max(...peak.values())).toBe(8);
    expect(peakTotal).toBe(16);
  });

  it('serves busy projects in turn, one event each, instead of first come first served', async () => {
    const order: string[] = [];
    const bus = new InProcessBus({
      concurrency: 1,
      target: () => async (e) => {
        order.push(e.detail.id);
        await sleep(1);
      },
    });

    await bus.publish([event('a', 'a0'), event('a', 'a1'), event('a', 'a2'), event('b', 'b0'), event('b', 'b1'), event('c', 'c0')]);
    await bus.drain();

    expect(order).toEqual(['a0', 'b0', 'c0', 'a1', 'b1', 'a2']);
  });

  it('frees the slot of a deferred event and runs it again when its project moves on, without counting a failure', async () => {
    // Prepare: one slot; event "second" defers until "first" has run
    let firstDone = false;
    const runs: string[] = [];
    const bus = new InProcessBus({
      concurrency: 1,
      target: () => async (e) => {
        runs.push(e.detail.id);
        if (e.detail.id === 'second' && !firstDone) throw new DeliveryDeferredError('first is still running', 60_000);
        if (e.detail.id === 'first') firstDone = true;
      },
    });

    // Act: the deferred one comes first and asks for a minute's delay
    const t0 = performance.now();
    await bus.publish([event('a', 'second'), event('a', 'first')]);
    await bus.drain();

    // Assess: woken as soon as "first" ended, not a minute later
    expect(runs).toEqual(['second', 'first', 'second']);
    expect(performance.now() - t0).toBeLessThan(5_000);
    expect(bus.stats).toMatchObject({ invocations: 3, failed: 0, deferred: 1 });
  });
});

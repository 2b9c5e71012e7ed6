// The per-project webhook send budget: test, resend and recover together queue at most `sendsPerMinute` deliveries per
// project and minute; beyond it a 429 rate_limited naming the seconds to the next window. Other projects are unaffected.
import type { BusEvent } from '../../../../functions/core/events';
import { RateLimitedError } from '../../../../functions/core/errors';
import { DEFAULT_SENDS_PER_MINUTE, takeSends } from '../../../../functions/core/webhooks/budget';
import { deliverEvent } from '../../../../functions/core/webhooks/delivery';
import { recoverDeliveries, resendDelivery, sendTestEvent, type WebhookReplayDeps } from '../../../../functions/core/webhooks/recovery';
import { MemoryRateLimitsRepo } from '../../../helpers/memory-rate-limits';
import { busEvent, harness, PROJECT } from '../../../helpers/webhook-harness';

const WH = `wh_${'a'.repeat(24)}`;
const OTHER_PROJECT = '6f1c1f5e-2a1d-4f4e-8b0a-7d3b9e6c2a10';
const START = '2026-11-21T11:00:00Z';

function world(sendsPerMinute: number) {
  const h = harness();
  const queued: BusEvent[] = [];
  const deps: WebhookReplayDeps = {
    webhooks: h.repo,
    deliveryLog: h.deliveryLog,
    clock: h.deps.clock,
    uuid: h.deps.uuid,
    rateLimits: new MemoryRateLimitsRepo(),
    sendsPerMinute,
    events: { publish: async (events) => void queued.push(...events) },
  };
  h.hook(WH);
  // The same webhook id in another project (ids are per project in the store's keys).
  h.repo.hooks.set(`${OTHER_PROJECT}/${WH}`, { ...h.repo.hooks.get(`${PROJECT}/${WH}`)!, project_id: OTHER_PROJECT });
  /** `n` deliveries to WH that failed every try. */
  const failures = async (n: number) => {
    h.reply(500);
    for (let i = 1; i <= n; i++) await deliverEvent(h.deps, busEvent('run.completed', `evt-${i}`, { run_id: `r${i}` }));
  };
  return { h, deps, queued, failures };
}

describe('the webhook send budget', () => {
  it('answers 429 rate_limited with the seconds left in the minute once test, resend and recover used the budget', async () => {
    // Prepare: a budget of 4; two failed deliveries; 10 s into a minute
    const w = world(4);
    await w.failures(2);
    const [id] = w.h.deliveryLog.entries.map((l) => l.entry.delivery_id);
    const msIntoMinute = w.h.deps.clock.now().getTime() % 60_000;
    await w.h.deps.sleep(70_000 - msIntoMinute);

    // Act: 1 (test) + 1 (resend) + 2 (recover) = 4, then one more of each
    await sendTestEvent(w.deps, PROJECT, WH);
    await resendDelivery(w.deps, PROJECT, WH, id);
    const recovered = await recoverDeliveries(w.deps, PROJECT, WH, START);
    const refused = await Promise.allSettled([
      sendTestEvent(w.deps, PROJECT, WH),
      resendDelivery(w.deps, PROJECT, WH, id),
      recoverDeliveries(w.deps, PROJECT, `${WH}`, START),
    ]);

    // Assess
    expect(recovered).toEqual({ queued: 2 });
    expect(w.queued).toHaveLength(4);
    for (const r of refused) {
      expect(r.status).toBe('rejected');
      const err = (r as PromiseRejectedResult).reason;
      expect(err).toBeInstanceOf(RateLimitedError);
      expect(err).toMatchObject({ status: 429, code: 'rate_limited', retryAfterS: 50 });
    }
    // The other project's budget is its own; the next minute's is whole again.
    await expect(sendTestEvent(w.deps, OTHER_PROJECT, WH)).resolves.toMatchObject({ event_type: 'webhook.test' });
    await w.h.deps.sleep(50_000);
    await expect(sendTestEvent(w.deps, PROJECT, WH)).resolves.toMatchObject({ event_type: 'webhook.test' });
  });

  it('lets a recover queue only what the budget has left, and a later recover continue after them', async () => {
    const w = world(3);
    await w.failures(5);

    const first = await recoverDeliveries(w.deps, PROJECT, WH, START);
    await w.h.deps.sleep(60_000);
    const second = await recoverDeliveries(w.deps, PROJECT, WH, START);

    expect([first.queued, second.queued]).toEqual([3, 2]);
    const ids = w.queued.map((e) => (e.envelope.data as { delivery_id: string }).delivery_id);
    expect(new Set(ids).size).toBe(5);
  });

  it('costs nothing for a recover that finds nothing to send', async () => {
    const w = world(1);
    expect(await recoverDeliveries(w.deps, PROJECT, WH, START)).toEqual({ queued: 0 });
    expect(await recoverDeliveries(w.deps, PROJECT, WH, START)).toEqual({ queued: 0 });
    expect(await sendTestEvent(w.deps, PROJECT, WH)).toEqual({ webhook_id: WH, delivery_id: expect.any(String), event_type: 'webhook.test' });
    expect(w.queued).toHaveLength(1);
  });

  it('defaults to DEFAULT_SENDS_PER_MINUTE', async () => {
    const deps = { rateLimits: new MemoryRateLimitsRepo(), clock: { now: () => new Date('2026-11-21T12:00:30Z') } };
    expect(await takeSends(deps, PROJECT, 1000)).toBe(DEFAULT_SENDS_PER_MINUTE);
    await expect(takeSends(deps, PROJECT, 1)).rejects.toMatchObject({ status: 429, retryAfterS: 30 });
  });
});

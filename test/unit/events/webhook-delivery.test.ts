// The EventBridge target: reads the BusEvent from `detail`, dedups on its id (else the EventBridge id), rejects junk.
import type { EventBridgeEvent } from 'aws-lambda';
import type { BusEvent } from '../../../functions/core/events';
import { createWebhookDeliveryHandler } from '../../../functions/events/webhook-delivery';
import { busEvent, harness } from '../../helpers/webhook-harness';

function bridgeEvent(detail: unknown, id = 'eb-1'): EventBridgeEvent<string, BusEvent> {
  return {
    version: '0',
    id,
    'detail-type': 'run.completed',
    source: 'rts',
    account: '000000000000',
    time: '2026-11-21T12:00:00Z',
    region: 'eu-west-1',
    resources: [],
    detail: detail as BusEvent,
  };
}

describe('webhook delivery handler', () => {
  it('delivers the detail envelope and dedups on the BusEvent id, not the EventBridge id', async () => {
    const h = harness();
    h.hook('wh_a');
    const handler = createWebhookDeliveryHandler(h.deps);

    await handler(bridgeEvent(busEvent('run.completed', 'bus-1'), 'eb-1'));
    const redelivered = await handler(bridgeEvent(busEvent('run.completed', 'bus-1'), 'eb-2'));

    expect(h.sent).toHaveLength(1);
    expect(JSON.parse(h.sent[0].body!).event_type).toBe('run.completed');
    expect(redelivered.results[0].outcome).toBe('duplicate');
    expect([...h.deliveryLog.claims.keys()]).toEqual(['wh_a/bus-1']);
  });

  it('falls back to the EventBridge event id when the detail has none', async () => {
    const h = harness();
    h.hook('wh_a');
    const { envelope } = busEvent();

    await createWebhookDeliveryHandler(h.deps)(bridgeEvent({ envelope }, 'eb-7'));

    expect([...h.deliveryLog.claims.keys()]).toEqual(['wh_a/eb-7']);
  });

  it('throws on an event without an envelope, sending nothing', async () => {
    const h = harness();
    h.hook('wh_a');

    await expect(createWebhookDeliveryHandler(h.deps)(bridgeEvent({ id: 'x' }))).rejects.toThrow(/no BusEvent envelope/);
    expect(h.sent).toHaveLength(0);
  });
});
